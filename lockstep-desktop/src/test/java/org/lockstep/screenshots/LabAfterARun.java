package org.lockstep.screenshots;

import javafx.scene.control.Button;
import javafx.scene.control.Spinner;
import javafx.scene.control.TableView;
import javafx.stage.Stage;
import org.lockstep.server.Database;
import org.lockstep.server.LabConnections;
import org.lockstep.ui.FxTaskExecutor;
import org.lockstep.ui.guihandles.Fx;
import org.lockstep.ui.lab.LabWindow;

/** The contention lab as the pictures and the render test show it: after one run of 3 workers for 1 unit. */
final class LabAfterARun {

    private LabAfterARun() {
    }

    /** Opens the lab over {@code owner}, runs every strategy once and waits for its five rows; returns its stage. */
    @SuppressWarnings("unchecked")
    static Stage open(Stage owner, Database db, FxTaskExecutor executor) {
        Stage lab = Fx.call(() -> LabWindow.open(owner, LabConnections.runner(db), executor));
        Fx.run(() -> {
            ((Spinner<Integer>) lab.getScene().lookup("#lab-workers")).getValueFactory().setValue(3);
            ((Spinner<Integer>) lab.getScene().lookup("#lab-stock")).getValueFactory().setValue(1);
            ((Button) lab.getScene().lookup("#lab-run")).fire();
        });
        Fx.await("the lab's run", () -> ((TableView<?>) lab.getScene().lookup("#lab-results")).getItems().size() == 5
                && !((Button) lab.getScene().lookup("#lab-run")).isDisabled());
        return lab;
    }
}
