package org.lockstep.ui.guihandles;

import javafx.scene.control.Button;
import javafx.scene.control.Labeled;
import javafx.scene.control.TextInputControl;
import javafx.stage.Stage;
import org.lockstep.domain.CustomerField;
import org.testfx.api.FxRobot;

/** Reads and drives the merge dialog (or the delete-conflict dialog) that an editor window opened. */
public final class MergeDialogHandle extends StageHandle {

    MergeDialogHandle(FxRobot robot, Stage stage) {
        super(robot, stage);
    }

    /** The text of a label by id, e.g. {@code title}, {@code merge-progress}, {@code merge-notice}. */
    public String text(String id) {
        return Fx.call(() -> ((Labeled) byId(id)).getText());
    }

    /** A field's row status, e.g. "theirs", "mine", "⚠ Conflict: choose". */
    public String status(CustomerField field) {
        return text("status-" + field.column());
    }

    /** A field's Result as shown. */
    public String result(CustomerField field) {
        return Fx.call(() -> ((TextInputControl) byId("result-" + field.column())).getText());
    }

    /** Whether the button with this id can be pressed. */
    public boolean enabled(String id) {
        return Fx.call(() -> !((Button) byId(id)).isDisabled());
    }

    /** Clicks the control with this id, e.g. {@code use-theirs-city}, {@code use-mine-for-all}, {@code save-merged}. */
    public MergeDialogHandle click(String id) {
        activate();
        robot.clickOn(Fx.call(() -> byId(id)));
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

}
