package org.lockstep.ui.guihandles;

import javafx.scene.Node;
import javafx.stage.Stage;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

/**
 * What every handle of a Lockstep window shares (addressbook-level4's {@code StageHandle}): the robot that drives it,
 * the window, finding a node by its id, and bringing the window to the front before the robot clicks or types, so
 * that events land in it when several windows are open side by side.
 */
public abstract class StageHandle {

    /** Drives the mouse and keyboard. */
    protected final FxRobot robot;
    /** The window this handle drives. */
    protected final Stage stage;

    protected StageHandle(FxRobot robot, Stage stage) {
        this.robot = robot;
        this.stage = stage;
    }

    /** The window. */
    public final Stage stage() {
        return stage;
    }

    /** Whether the window still shows. */
    public final boolean isOpen() {
        return Fx.call(stage::isShowing);
    }

    /** The node with this id in the window; fails the test, naming the window, when there is none. FX thread. */
    protected final Node byId(String id) {
        Node n = stage.getScene().getRoot().lookup("#" + id);
        if (n == null) {
            throw new AssertionError("No #" + id + " in " + stage.getTitle());
        }
        return n;
    }

    /** Brings the window to the front and makes it the robot's target. */
    protected final void activate() {
        Fx.run(stage::requestFocus);
        robot.targetWindow(stage);
        WaitForAsyncUtils.waitForFxEvents();
    }
}
