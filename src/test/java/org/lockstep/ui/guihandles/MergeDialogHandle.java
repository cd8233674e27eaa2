package org.lockstep.ui.guihandles;

import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.Labeled;
import javafx.scene.control.TextInputControl;
import javafx.stage.Stage;
import org.lockstep.domain.CustomerField;
import org.testfx.api.FxRobot;

/** Reads and drives the merge dialog (or the delete-conflict dialog) that an editor window opened. */
public final class MergeDialogHandle {

    private final FxRobot robot;
    private final Stage stage;

    MergeDialogHandle(FxRobot robot, Stage stage) {
        this.robot = robot;
        this.stage = stage;
    }

    /** The dialog's window. */
    public Stage stage() {
        return stage;
    }

    /** The text of a label by id, e.g. {@code title}, {@code merge-progress}, {@code merge-notice}. */
    public String text(String id) {
        return Fx.call(() -> ((Labeled) node(id)).getText());
    }

    /** A field's row status, e.g. "theirs", "mine", "⚠ Conflict: choose". */
    public String status(CustomerField field) {
        return text("status-" + field.column());
    }

    /** A field's Result as shown. */
    public String result(CustomerField field) {
        return Fx.call(() -> ((TextInputControl) node("result-" + field.column())).getText());
    }

    /** Whether the button with this id can be pressed. */
    public boolean enabled(String id) {
        return Fx.call(() -> !((Button) node(id)).isDisabled());
    }

    /** Clicks the control with this id, e.g. {@code use-theirs-city}, {@code use-mine-for-all}, {@code save-merged}. */
    public MergeDialogHandle click(String id) {
        Fx.run(stage::requestFocus);
        robot.targetWindow(stage);
        robot.clickOn(Fx.call(() -> node(id)));
        return this;
    }

    /** Clicks a button that ends the dialog and waits until it has closed. */
    public void clickAndAwaitClose(String id) {
        click(id);
        awaitClosed();
    }

    /** Waits until the dialog has closed (e.g. after a save in the background). */
    public void awaitClosed() {
        Fx.await("the dialog to close", () -> !stage.isShowing());
    }

    /** Whether the dialog still shows. */
    public boolean isOpen() {
        return Fx.call(stage::isShowing);
    }

    private Node node(String id) {
        Node n = stage.getScene().getRoot().lookup("#" + id);
        if (n == null) {
            throw new AssertionError("No #" + id + " in " + stage.getTitle());
        }
        return n;
    }
}
