package org.lockstep.ui.guihandles;

import javafx.application.Platform;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.TextInputControl;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyCodeCombination;
import javafx.scene.input.KeyCombination;
import javafx.stage.Stage;
import javafx.stage.Window;
import javafx.stage.WindowEvent;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.CustomerRepository;
import org.lockstep.ui.TaskExecutor;
import org.lockstep.ui.editor.CustomerEditorView;
import org.lockstep.ui.editor.CustomerEditorViewModel;
import org.lockstep.ui.editor.CustomerEditorWindow;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

/** Drives one customer editor window as an operator would: clicks, typing, Ctrl+S. */
public final class EditorWindowHandle {

    private final FxRobot robot;
    private final Stage stage;

    private EditorWindowHandle(FxRobot robot, Stage stage) {
        this.robot = robot;
        this.stage = stage;
    }

    /**
     * Opens an editor window at a given left edge (windows side by side, so a click lands in the intended one) and
     * waits until the customer has loaded.
     */
    public static EditorWindowHandle open(FxRobot robot, CustomerRepository repository, TaskExecutor executor,
                                          String user, long customerId, double x) {
        Stage stage = Fx.call(() -> {
            Stage s = CustomerEditorWindow.open(repository, executor, user, customerId);
            s.setX(x);
            s.setY(0);
            s.setWidth(630);
            s.setHeight(790);
            return s;
        });
        EditorWindowHandle handle = new EditorWindowHandle(robot, stage);
        Fx.await(user + "'s editor to load", () -> handle.versionLine().startsWith("version "));
        return handle;
    }

    /** The window. */
    public Stage stage() {
        return stage;
    }

    /** The view model behind the window, for reading state. */
    public CustomerEditorViewModel viewModel() {
        return ((CustomerEditorView) stage.getUserData()).viewModel();
    }

    /** Clicks into a field, selects its text and types a replacement. */
    public EditorWindowHandle type(CustomerField field, String text) {
        activate();
        TextInputControl control = field(field);
        robot.clickOn(control);
        Fx.await(field.label() + " to take the focus", control::isFocused);
        robot.push(new KeyCodeCombination(KeyCode.A, KeyCombination.SHORTCUT_DOWN));
        robot.write(text);
        return this;
    }

    /** Clicks the Save button. */
    public EditorWindowHandle clickSave() {
        activate();
        robot.clickOn(node("#saveButton"));
        return this;
    }

    /** Clicks "Delete…"; the window then asks for confirmation ({@link #awaitQuestion()}). */
    public EditorWindowHandle clickDelete() {
        activate();
        robot.clickOn(node("#deleteButton"));
        return this;
    }

    /** Clicks "Reload" in the notice bar. */
    public EditorWindowHandle clickReload() {
        activate();
        robot.clickOn(node("#reloadButton"));
        return this;
    }

    /** Asks the window to close, as the window manager's close button does; a question may follow. */
    public EditorWindowHandle requestClose() {
        // Not waited for: the handler blocks in showAndWait until a question it asks is answered.
        Platform.runLater(() -> stage.fireEvent(new WindowEvent(stage, WindowEvent.WINDOW_CLOSE_REQUEST)));
        return this;
    }

    /** Waits until the window asks a question, and returns it. */
    public QuestionHandle awaitQuestion() {
        return QuestionHandle.awaitOver(robot, stage);
    }

    /** The notice bar's sentence, or {@code null} when the bar is hidden. */
    public String notice() {
        return Fx.call(() -> node("#noticeBar").isVisible() ? ((Label) node("#noticeText")).getText() : null);
    }

    /** Presses Ctrl+S (Cmd+S on macOS) wherever the caret is. */
    public EditorWindowHandle pressSaveShortcut() {
        activate();
        robot.push(new KeyCodeCombination(KeyCode.S, KeyCombination.SHORTCUT_DOWN));
        return this;
    }

    /** Waits until the editor's header shows a version line starting with {@code prefix}. */
    public EditorWindowHandle awaitVersionLine(String prefix) {
        Fx.await("version line \"" + prefix + "…\" (now \"" + versionLine() + "\")",
                () -> versionLine().startsWith(prefix));
        return this;
    }

    /** Waits until a conflict dialog owned by this window shows, and returns it. */
    public ConflictDialogHandle awaitConflict() {
        Fx.await("a conflict dialog over " + stage.getTitle(), () -> conflictWindow() != null);
        return new ConflictDialogHandle(robot, (Stage) Fx.call(this::conflictWindow));
    }

    /** Whether a conflict dialog owned by this window shows. */
    public boolean conflictShowing() {
        return Fx.call(() -> conflictWindow() != null);
    }

    /** The text a field's control shows. */
    public String text(CustomerField field) {
        return Fx.call(() -> field(field).getText());
    }

    /** The field's error line, or {@code null} when it is hidden. */
    public String error(CustomerField field) {
        return Fx.call(() -> {
            Label error = (Label) node("#" + field.column() + "-error");
            return error.isVisible() ? error.getText() : null;
        });
    }

    /** The header's version line. */
    public String versionLine() {
        return Fx.call(() -> ((Label) node("#versionLine")).getText());
    }

    /** The "Can't save: …" line. */
    public String saveBlockedReason() {
        return Fx.call(() -> ((Label) node("#saveBlockedReason")).getText());
    }

    /** Whether the Save button can be pressed. */
    public boolean saveEnabled() {
        return Fx.call(() -> !((Button) node("#saveButton")).isDisabled());
    }

    /** The window title. */
    public String title() {
        return Fx.call(stage::getTitle);
    }

    /**
     * Gives this window the keyboard before the robot acts in it. Unconditionally: under headless Monocle every
     * stage reports itself focused, while key presses go to the window Monocle last focused (the one opened last)
     * and typed characters to TestFX's target window; without this, Ctrl+A lands in one window and the text in the
     * other.
     */
    private void activate() {
        Fx.run(stage::requestFocus);
        robot.targetWindow(stage);
        WaitForAsyncUtils.waitForFxEvents();
    }

    private TextInputControl field(CustomerField field) {
        return (TextInputControl) node("#" + field.column());
    }

    private Node node(String query) {
        return robot.from(stage.getScene().getRoot()).lookup(query).query();
    }

    private Window conflictWindow() {
        return Window.getWindows().stream()
                .filter(w -> w instanceof Stage s && s.getOwner() == stage && w.isShowing()
                        && s.getScene().getRoot().getStyleClass().contains("conflict-view"))
                .findFirst().orElse(null);
    }
}
