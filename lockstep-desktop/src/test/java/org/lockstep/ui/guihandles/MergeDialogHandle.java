package org.lockstep.ui.guihandles;

import java.util.List;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.control.Button;
import javafx.scene.control.Labeled;
import javafx.scene.control.TextInputControl;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import org.lockstep.domain.CustomerField;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

/**
 * Reads and drives the merge dialog or the delete-conflict dialog, whether an editor window opened it
 * ({@link EditorWindowHandle#awaitMerge()}) or a test opened it on its own ({@link #on}): nodes by their ids, read
 * on the FX thread; clicks and keys through the robot, into this dialog.
 */
public final class MergeDialogHandle extends StageHandle {

    MergeDialogHandle(FxRobot robot, Stage stage) {
        super(robot, stage);
    }

    /** The dialog in {@code stage}, as a test that opened it itself drives it. */
    public static MergeDialogHandle on(FxRobot robot, Stage stage) {
        return new MergeDialogHandle(robot, stage);
    }

    /** The dialog's title. */
    public String title() {
        return Fx.call(stage::getTitle);
    }

    /** The text of a label by id, e.g. {@code title}, {@code merge-progress}, {@code merge-notice}. */
    public String text(String id) {
        return Fx.call(() -> ((Labeled) byId(id)).getText());
    }

    /** Whether the dialog has a node with this id, e.g. a row ({@code row-city}) or a change ({@code change-city}). */
    public boolean has(String id) {
        return Fx.call(() -> lookup(id) != null);
    }

    /** Whether the node with this id exists and is visible. */
    public boolean shown(String id) {
        return Fx.call(() -> {
            Node n = lookup(id);
            return n != null && n.isVisible();
        });
    }

    /** A field's row status, e.g. "theirs", "mine", "⚠ Conflict: choose". */
    public String status(CustomerField field) {
        return text("status-" + field.column());
    }

    /** A field's Result as shown. */
    public String result(CustomerField field) {
        return Fx.call(() -> ((TextInputControl) byId("result-" + field.column())).getText());
    }

    /** The ids of the merge dialog's rows, top to bottom, e.g. {@code row-city}. */
    public List<String> rowIds() {
        return Fx.call(() -> ((Parent) byId("rowsBox")).getChildrenUnmodifiable().stream().map(Node::getId)
                .toList());
    }

    /** Whether the button with this id can be pressed. */
    public boolean enabled(String id) {
        return Fx.call(() -> !((Button) byId(id)).isDisabled());
    }

    /** The id of the control that has the keyboard focus, or null. */
    public String focused() {
        return Fx.call(() -> {
            Node n = stage.getScene().getFocusOwner();
            return n == null ? null : n.getId();
        });
    }

    /** Clicks the control with this id, e.g. {@code use-theirs-city}, {@code use-mine-for-all}, {@code save-merged}. */
    public MergeDialogHandle click(String id) {
        activate();
        robot.clickOn(Fx.call(() -> byId(id)));
        WaitForAsyncUtils.waitForFxEvents();
        return this;
    }

    /** Replaces a field's Result by typing, as an operator does. */
    public MergeDialogHandle type(CustomerField field, String text) {
        activate();
        robot.clickOn(Fx.call(() -> byId("result-" + field.column())));
        robot.push(KeyCode.CONTROL, KeyCode.A).push(KeyCode.DELETE).write(text);
        WaitForAsyncUtils.waitForFxEvents();
        return this;
    }

    /** Presses a key combination in the dialog, e.g. {@code ALT, T}. */
    public MergeDialogHandle push(KeyCode... keys) {
        activate();
        robot.push(keys);
        WaitForAsyncUtils.waitForFxEvents();
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

    /** Waits until the node with this id shows, e.g. {@code merge-notice} once the database answered. */
    public void awaitShown(String id) {
        Fx.await("#" + id + " to show", () -> {
            Node n = lookup(id);
            return n != null && n.isVisible();
        });
    }

    /** Waits until the button with this id can be pressed. */
    public void awaitEnabled(String id) {
        Fx.await("#" + id + " to be enabled", () -> !((Button) byId(id)).isDisabled());
    }

    private Node lookup(String id) {
        return stage.getScene().getRoot().lookup("#" + id);
    }
}
