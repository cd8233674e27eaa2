package org.lockstep.ui.guihandles;

import javafx.application.Platform;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.TextInputControl;
import java.util.List;
import java.util.Map;
import javafx.event.Event;
import javafx.scene.input.Clipboard;
import javafx.scene.input.InputMethodEvent;
import javafx.scene.input.DataFormat;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyCodeCombination;
import javafx.scene.input.KeyCombination;
import javafx.stage.Stage;
import javafx.stage.Window;
import javafx.stage.WindowEvent;
import javafx.scene.control.CheckBox;
import javafx.scene.control.RadioButton;
import org.lockstep.domain.CustomerField;
import org.lockstep.ui.EditorServices;
import org.lockstep.ui.editor.CustomerEditorView;
import org.lockstep.ui.editor.CustomerEditorViewModel;
import org.lockstep.ui.editor.CustomerEditorWindow;
import org.lockstep.ui.editor.EditorIds;
import org.testfx.api.FxRobot;

/** Drives one customer editor window as an operator would: clicks, typing, Ctrl+S. */
public final class EditorWindowHandle extends StageHandle {

    private EditorWindowHandle(FxRobot robot, Stage stage) {
        super(robot, stage);
    }

    /**
     * Opens an editor window at a given left edge (windows side by side, so a click lands in the intended one) and
     * waits until the customer has loaded.
     */
    public static EditorWindowHandle open(FxRobot robot, EditorServices services, long customerId, double x) {
        String user = services.user();
        Stage stage = Fx.call(() -> {
            Stage s = CustomerEditorWindow.open(services, customerId);
            s.setX(x);
            s.setY(0);
            s.setWidth(630);
            s.setHeight(790);
            return s;
        });
        EditorWindowHandle handle = new EditorWindowHandle(robot, stage);
        // By state, not by words: the editor may speak Portuguese or Spanish ("versão 1", "versión 1").
        Fx.await(user + "'s editor to load", () -> handle.viewModel().stateProperty()
                .get() == org.lockstep.ui.editor.EditorState.EDITING && !handle.versionLine().isEmpty());
        return handle;
    }

    /**
     * A handle on an editor window something else opened (a supervisor's Open customer), once its customer loaded.
     */
    public static EditorWindowHandle of(FxRobot robot, Stage stage) {
        EditorWindowHandle handle = new EditorWindowHandle(robot, stage);
        Fx.await("the editor to load", () -> handle.viewModel().stateProperty()
                .get() == org.lockstep.ui.editor.EditorState.EDITING && !handle.versionLine().isEmpty());
        return handle;
    }

    /**
     * A handle on an editor window something else opened on a customer not yet created (a restored draft of a
     * customer deleted meanwhile), once it shows it.
     */
    public static EditorWindowHandle ofNew(FxRobot robot, Stage stage) {
        EditorWindowHandle handle = new EditorWindowHandle(robot, stage);
        Fx.await("the editor to show a new customer", () -> handle.viewModel().stateProperty()
                .get() == org.lockstep.ui.editor.EditorState.NEW);
        return handle;
    }

    /** The view model behind the window, for reading state. */
    public CustomerEditorViewModel viewModel() {
        return ((CustomerEditorView) stage.getUserData()).viewModel();
    }

    /** Clicks into a field, selects its text and types a replacement. */
    public EditorWindowHandle type(CustomerField field, String text) {
        selectAllOf(field);
        robot.write(text);
        return this;
    }

    /**
     * Clicks into a field, selects its text and pastes {@code text} over it with the shortcut, through the system
     * clipboard, as an operator pasting from an email does.
     */
    public EditorWindowHandle paste(CustomerField field, String text) {
        selectAllOf(field);
        Fx.run(() -> Clipboard.getSystemClipboard().setContent(Map.of(DataFormat.PLAIN_TEXT, text)));
        robot.push(new KeyCodeCombination(KeyCode.V, KeyCombination.SHORTCUT_DOWN));
        return this;
    }

    /**
     * Clicks into a field, selects its text and replaces it with {@code text} as an input method commits it: one
     * {@code InputMethodEvent} with the whole text committed, fired at the focused field as glass delivers an input
     * method's commit (an emoji picker, GTK's Ctrl+Shift+U), where a key event carries one UTF-16 unit only.
     */
    public EditorWindowHandle commitFromInputMethod(CustomerField field, String text) {
        selectAllOf(field);
        TextInputControl control = field(field);
        Fx.run(() -> Event.fireEvent(control,
                new InputMethodEvent(InputMethodEvent.INPUT_METHOD_TEXT_CHANGED, List.of(), text, 0)));
        return this;
    }

    /** Clicks into a field, waits for it to take the focus and selects its text with the shortcut. */
    private void selectAllOf(CustomerField field) {
        activate();
        TextInputControl control = field(field);
        robot.clickOn(control);
        Fx.await(field.label() + " to take the focus", control::isFocused);
        robot.push(new KeyCodeCombination(KeyCode.A, KeyCombination.SHORTCUT_DOWN));
    }

    /** The brief note under a one-line field ("Line breaks became spaces"), or {@code null} when it is hidden. */
    public String note(CustomerField field) {
        return Fx.call(() -> {
            Label note = (Label) withId(EditorIds.fieldNote(field));
            return note.isVisible() ? note.getText() : null;
        });
    }

    /** Clicks the Save button. */
    public EditorWindowHandle clickSave() {
        activate();
        robot.clickOn(withId(EditorIds.SAVE_BUTTON));
        return this;
    }

    /** Clicks "Delete…"; the window then asks for confirmation ({@link #awaitQuestion()}). */
    public EditorWindowHandle clickDelete() {
        activate();
        robot.clickOn(withId(EditorIds.DELETE_BUTTON));
        return this;
    }

    /** Clicks "Reload" in the notice bar. */
    public EditorWindowHandle clickReload() {
        activate();
        robot.clickOn(withId(EditorIds.RELOAD_BUTTON));
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

    /**
     * The notice's sentence: the notice bar's while it shows, else the toast's while news shows ("Saved version 3"),
     * else {@code null}.
     */
    public String notice() {
        return Fx.call(() -> withId(EditorIds.NOTICE_BAR).isVisible()
                ? ((Label) withId(EditorIds.NOTICE_TEXT)).getText()
                : withId(EditorIds.TOAST).isVisible() ? ((Label) withId(EditorIds.TOAST)).getText() : null);
    }

    /** The toast's news ("Saved version 3"), or {@code null} when none shows. */
    public String toast() {
        return Fx.call(() -> withId(EditorIds.TOAST).isVisible() ? ((Label) withId(EditorIds.TOAST)).getText() : null);
    }

    /** The ids of the message area's banners that show now (at most one, by design). */
    public java.util.List<String> shownBanners() {
        return Fx.call(() -> stage.getScene().getRoot().lookupAll("." + org.lockstep.ui.Banner.STYLE_CLASS).stream()
                .filter(n -> n.isVisible() && n.isManaged()).map(Node::getId).toList());
    }

    /** The "1 more" button's text, or {@code null} when no other message waits. */
    public String moreMessages() {
        return Fx.call(() -> {
            Node more = stage.getScene().getRoot().lookup("#" + EditorIds.MORE_MESSAGES);
            return more != null && more.getParent() != null && more.getParent().isVisible()
                    ? ((Button) more).getText() : null;
        });
    }

    /** Clicks "1 more" in the banner shown: the next message waiting shows. */
    public EditorWindowHandle clickMoreMessages() {
        activate();
        robot.clickOn(withId(EditorIds.MORE_MESSAGES));
        return this;
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

    /** Waits until the merge dialog owned by this window shows, and returns it. */
    public MergeDialogHandle awaitMerge() {
        return awaitDialog("merge-dialog");
    }

    /** Waits until the delete-conflict dialog ("changed since you loaded it") owned by this window shows. */
    public MergeDialogHandle awaitDeleteConflict() {
        return awaitDialog("delete-conflict");
    }

    /** Whether a merge dialog owned by this window shows. */
    public boolean mergeShowing() {
        return Fx.call(() -> dialog("merge-dialog") != null);
    }

    /** Clicks the Lock button. */
    public EditorWindowHandle clickLock() {
        activate();
        robot.clickOn(withId(EditorIds.LOCK_BUTTON));
        return this;
    }

    /** Clicks the "Lock for editing" mode switch. */
    public EditorWindowHandle chooseLockForEditing() {
        activate();
        robot.clickOn(withId(EditorIds.LOCK_MODE));
        return this;
    }

    /** Clicks the "Last write wins (unsafe)" mode switch (shown only where allowed). */
    public EditorWindowHandle chooseLastWriteWins() {
        activate();
        robot.clickOn(withId(EditorIds.UNSAFE_MODE));
        return this;
    }

    /** Clicks the "Optimistic" mode switch. */
    public EditorWindowHandle chooseOptimistic() {
        activate();
        robot.clickOn(withId(EditorIds.OPTIMISTIC_MODE));
        return this;
    }

    /** Whether the editor is painted as unsafe (its root has the style class {@code unsafe}). */
    public boolean paintedUnsafe() {
        return Fx.call(() -> stage.getScene().getRoot().getStyleClass().contains("unsafe"));
    }

    /** The unsafe mode's warning, or {@code null} when it is hidden. */
    public String unsafeWarning() {
        return Fx.call(() -> withId(EditorIds.UNSAFE_WARNING).isVisible()
                ? ((Label) withId(EditorIds.UNSAFE_WARNING)).getText() : null);
    }

    /** Whether the Lock button can be pressed. */
    public boolean lockButtonEnabled() {
        return Fx.call(() -> !withId(EditorIds.LOCK_BUTTON).isDisabled());
    }

    /** Clicks "Break lock…"; the window then asks for confirmation ({@link #awaitQuestion()}). */
    public EditorWindowHandle clickBreakLock() {
        activate();
        robot.clickOn(withId(EditorIds.BREAK_LOCK_BUTTON));
        return this;
    }

    /** Clicks a button of the lock bar by id: {@code lockAgainButton}, {@code saveWithoutLockButton}. */
    public EditorWindowHandle clickLockBar(String id) {
        activate();
        robot.clickOn(node("#" + id));
        return this;
    }

    /** The live banner's sentence ("Bob saved version 8 (phone) — Review"), or {@code null} when it is hidden. */
    public String liveBanner() {
        return Fx.call(() -> withId(EditorIds.LIVE_BAR).isVisible()
                ? ((Label) withId(EditorIds.LIVE_TEXT)).getText() : null);
    }

    /** The hot-record advice ("Often edited at the same time — …"), or {@code null} while it is hidden. */
    public String hotRecordAdvice() {
        return Fx.call(() -> withId(EditorIds.HOT_RECORD_BAR).isVisible()
                ? ((Label) withId(EditorIds.HOT_RECORD_ADVICE)).getText() : null);
    }

    /** The hot-record advice's detail ("3 conflicts on this customer in the last 7 days"). */
    public String hotRecordDetail() {
        return Fx.call(() -> ((Label) withId(EditorIds.HOT_RECORD_DETAIL)).getText());
    }

    /** Clicks "Use Lock for editing" beside the hot-record advice. */
    public EditorWindowHandle clickUseLockForEditing() {
        activate();
        robot.clickOn(withId(EditorIds.SWITCH_TO_LOCK_BUTTON));
        return this;
    }

    /** Whether the node with this id lies wholly inside the window's scene (not cut off at its right edge). */
    public boolean fitsInWindow(String id) {
        return Fx.call(() -> {
            Node n = node("#" + id);
            javafx.geometry.Bounds b = n.localToScene(n.getBoundsInLocal());
            return b.getMinX() >= 0 && b.getMaxX() <= stage.getScene().getWidth() && b.getWidth() > 0;
        });
    }

    /** Whether a label shows its whole text: not elided ("Often edited at the sa…"), wrapped instead if need be. */
    public boolean shownInFull(String labelId) {
        return Fx.call(() -> {
            Label label = (Label) node("#" + labelId);
            javafx.scene.text.Text shown = (javafx.scene.text.Text) label.lookup(".text");
            return shown != null && label.getText().equals(shown.getText());
        });
    }

    /** Clicks the History tab and waits until it lists at least {@code versions} versions. */
    public EditorWindowHandle openHistory(int versions) {
        activate();
        robot.clickOn(Fx.call(() -> stage.getScene().getRoot().lookupAll(".tab-label").stream()
                .filter(n -> n instanceof Label l && "History".equals(l.getText())).findFirst().orElseThrow()));
        Fx.await(versions + " versions in the History tab", () -> historyVersions().size() >= versions);
        return this;
    }

    /** The History tab's rows, newest first: "version who op changes". */
    public java.util.List<String> historyVersions() {
        return Fx.call(() -> ((javafx.scene.control.TableView<?>) withId(EditorIds.HISTORY_VERSIONS)).getItems()
                .stream()
                .map(o -> (org.lockstep.ui.editor.CustomerHistoryViewModel.Version) o)
                .map(v -> v.version() + " " + v.who() + " " + v.op() + " " + v.changesText()).toList());
    }

    /** The lock banner's sentence, or {@code null} when the banner is hidden. */
    public String lockMessage() {
        return Fx.call(() -> withId(EditorIds.LOCK_BAR).isVisible()
                ? ((Label) withId(EditorIds.LOCK_MESSAGE)).getText() : null);
    }

    /** Waits until the lock banner's sentence starts with {@code prefix}. */
    public EditorWindowHandle awaitLockMessage(String prefix) {
        Fx.await("lock banner \"" + prefix + "…\" (now \"" + lockMessage() + "\")", () -> {
            String now = lockMessage();
            return now != null && now.startsWith(prefix);
        });
        return this;
    }

    /** Whether a control of the lock bar (or the lock row) with this id is shown. */
    public boolean shown(String id) {
        return Fx.call(() -> node("#" + id).isVisible());
    }

    /** Whether "Lock for editing" is the selected mode. */
    public boolean lockModeSelected() {
        return Fx.call(() -> ((RadioButton) withId(EditorIds.LOCK_MODE)).isSelected());
    }

    /** The "Notify me when free" box. */
    public EditorWindowHandle clickNotifyWhenFree() {
        activate();
        robot.clickOn(withId(EditorIds.NOTIFY_WHEN_FREE));
        return this;
    }

    /** Whether "Notify me when free" is ticked. */
    public boolean notifyWhenFree() {
        return Fx.call(() -> ((CheckBox) withId(EditorIds.NOTIFY_WHEN_FREE)).isSelected());
    }

    /** Whether a field takes typing. */
    public boolean editable(CustomerField field) {
        return Fx.call(() -> field(field).isEditable());
    }

    private MergeDialogHandle awaitDialog(String styleClass) {
        Fx.await("a " + styleClass + " over " + stage.getTitle(), () -> dialog(styleClass) != null);
        return new MergeDialogHandle(robot, (Stage) Fx.call(() -> dialog(styleClass)));
    }

    /** The text a field's control shows. */
    public String text(CustomerField field) {
        return Fx.call(() -> field(field).getText());
    }

    /** The field's error line, or {@code null} when it is hidden. */
    public String error(CustomerField field) {
        return Fx.call(() -> {
            Label error = (Label) withId(EditorIds.fieldError(field));
            return error.isVisible() ? error.getText() : null;
        });
    }

    /** The field's warning line (a stored value that breaks a rule, left unchanged), or {@code null} when hidden. */
    public String warning(CustomerField field) {
        return Fx.call(() -> {
            Label warning = (Label) withId(EditorIds.fieldWarning(field));
            return warning.isVisible() ? warning.getText() : null;
        });
    }

    /** The header's version line. */
    public String versionLine() {
        return Fx.call(() -> ((Label) withId(EditorIds.VERSION_LINE)).getText());
    }

    /** The "Can't save: …" line. */
    public String saveBlockedReason() {
        return Fx.call(() -> ((Label) withId(EditorIds.SAVE_BLOCKED_REASON)).getText());
    }

    /** Whether the Save button can be pressed. */
    public boolean saveEnabled() {
        return Fx.call(() -> !((Button) withId(EditorIds.SAVE_BUTTON)).isDisabled());
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

    private TextInputControl field(CustomerField field) {
        return (TextInputControl) withId(EditorIds.field(field));
    }

    private Node withId(String id) {
        return node("#" + id);
    }

    private Node node(String query) {
        return robot.from(stage.getScene().getRoot()).lookup(query).query();
    }

    private Window dialog(String styleClass) {
        return Window.getWindows().stream()
                .filter(w -> w instanceof Stage s && s.getOwner() == stage && w.isShowing()
                        && s.getScene().getRoot().getStyleClass().contains(styleClass))
                .findFirst().orElse(null);
    }
}
