package org.lockstep.ui.lab;

import static org.lockstep.text.Texts.tr;

import javafx.application.Platform;
import javafx.scene.Scene;
import javafx.stage.Stage;
import org.lockstep.ui.Windows;
import javafx.stage.Window;
import org.lockstep.lab.LabRunner;
import org.lockstep.concurrency.TaskExecutor;

/**
 * The contention lab in a window of its own. A run or sweep still working when the window closes finishes in the
 * background; its results are dropped with the window.
 */
public final class LabWindow {

    /** Initial size in pixels: fits a 1280×800 screen. */
    public static final double WIDTH = 1180;
    /** Initial height in pixels. */
    public static final double HEIGHT = 760;

    private LabWindow() {
    }

    /**
     * Opens and shows the lab window.
     *
     * @param owner    the window it belongs to, or {@code null}
     * @param runner   runs the lab (the composition root wires it to the database)
     * @param executor runs the lab off the FX thread
     * @return the window's stage, already showing
     */
    public static Stage open(Window owner, LabRunner runner, TaskExecutor executor) {
        LabViewModel vm = new LabViewModel(runner, executor, Platform::runLater);
        Stage stage = new Stage();
        if (owner != null) {
            stage.initOwner(owner);
        }
        stage.setTitle(tr("Lockstep — contention lab"));
        stage.setScene(new Scene(new LabView(vm).root(), WIDTH, HEIGHT));
        stage.setMinWidth(760);
        stage.setMinHeight(520);
        Windows.showAtSize(stage, WIDTH, HEIGHT);
        return stage;
    }
}
