package org.lockstep.ui.guihandles;

import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.stage.Stage;
import org.lockstep.domain.CustomerField;
import org.lockstep.ui.conflict.ConflictChoice;
import org.lockstep.ui.conflict.ConflictView;
import org.testfx.api.FxRobot;

/** Reads and answers the conflict dialog. */
public final class ConflictDialogHandle {

    private final FxRobot robot;
    private final Stage stage;

    ConflictDialogHandle(FxRobot robot, Stage stage) {
        this.robot = robot;
        this.stage = stage;
    }

    /** The sentence at the top. */
    public String header() {
        return Fx.call(() -> ((Label) node(".conflict-header")).getText());
    }

    /** My value of a field as shown. */
    public String mine(CustomerField field) {
        return Fx.call(() -> ((Label) node("#mine-" + field.column())).getText());
    }

    /** Their value of a field as shown. */
    public String theirs(CustomerField field) {
        return Fx.call(() -> ((Label) node("#theirs-" + field.column())).getText());
    }

    /** Whether a field's row is highlighted as differing. */
    public boolean highlighted(CustomerField field) {
        return Fx.call(() -> node("#theirs-" + field.column()).getStyleClass().contains("differs"));
    }

    /** Clicks a choice's button and waits until the dialog closes. */
    public void choose(ConflictChoice choice) {
        robot.clickOn(node("#" + ConflictView.idOf(choice)));
        Fx.await("the conflict dialog to close", () -> !stage.isShowing());
    }

    private Node node(String query) {
        return robot.from(stage.getScene().getRoot()).lookup(query).query();
    }
}
