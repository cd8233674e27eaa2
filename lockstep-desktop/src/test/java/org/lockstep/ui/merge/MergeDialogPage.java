package org.lockstep.ui.merge;

import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.Labeled;
import javafx.scene.control.TextInputControl;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import org.lockstep.domain.CustomerField;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

/** The merge and delete-conflict dialogs as a test sees them: nodes by their ids, keys, waiting for the database. */
final class MergeDialogPage {

    private final FxRobot robot;
    private final Stage stage;

    MergeDialogPage(FxRobot robot, Stage stage) {
        this.robot = robot;
        this.stage = stage;
    }

    /** The node with this id in the dialog's window, or null. */
    Node node(String id) {
        return stage.getScene().getRoot().lookup("#" + id);
    }

    boolean has(String id) {
        return node(id) != null;
    }

    String text(String id) {
        return ((Labeled) node(id)).getText();
    }

    boolean shown(String id) {
        Node n = node(id);
        return n != null && n.isVisible();
    }

    Button button(String id) {
        return (Button) node(id);
    }

    TextInputControl result(CustomerField field) {
        return (TextInputControl) node("result-" + field.column());
    }

    String status(CustomerField field) {
        return text("status-" + field.column());
    }

    void click(String id) {
        robot.clickOn(node(id));
        WaitForAsyncUtils.waitForFxEvents();
    }

    /** Replaces a Result's text by typing, as an operator does. */
    void type(CustomerField field, String text) {
        robot.clickOn(result(field));
        robot.push(KeyCode.CONTROL, KeyCode.A).push(KeyCode.DELETE).write(text);
        WaitForAsyncUtils.waitForFxEvents();
    }

    /** Presses a key combination, e.g. ALT, T. */
    void push(KeyCode... keys) {
        robot.push(keys);
        WaitForAsyncUtils.waitForFxEvents();
    }

    /** The id of the control that has the keyboard focus. */
    String focused() {
        Node n = stage.getScene().getFocusOwner();
        return n == null ? null : n.getId();
    }

    boolean isOpen() {
        return stage.isShowing();
    }

    /** Waits up to 10 s for a condition that a background task or the database makes true. */
    static void waitUntil(Callable<Boolean> condition) {
        try {
            WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, condition);
        } catch (TimeoutException e) {
            throw new AssertionError("Condition not met within 10 s", e);
        }
        WaitForAsyncUtils.waitForFxEvents();
    }
}
