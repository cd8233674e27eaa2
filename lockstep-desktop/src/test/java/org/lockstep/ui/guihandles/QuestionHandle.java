package org.lockstep.ui.guihandles;

import javafx.scene.control.DialogPane;
import javafx.stage.Stage;
import javafx.stage.Window;
import org.testfx.api.FxRobot;
import org.testfx.matcher.control.LabeledMatchers;

/** A question (an {@code Alert}) that a window asks, e.g. the delete confirmation or Save / Discard / Cancel. */
public final class QuestionHandle extends StageHandle {

    private QuestionHandle(FxRobot robot, Stage question) {
        super(robot, question);
    }

    /** Waits until {@code owner} asks a question, and returns it. */
    static QuestionHandle awaitOver(FxRobot robot, Stage owner) {
        Fx.await("a question over " + owner.getTitle(), () -> find(owner) != null);
        return new QuestionHandle(robot, Fx.call(() -> find(owner)));
    }

    /** The question's text. */
    public String text() {
        return Fx.call(() -> ((DialogPane) stage.getScene().getRoot()).getContentText());
    }

    /** Clicks the button with this label and waits until the question closes. */
    public void answer(String button) {
        robot.clickOn(robot.from(stage.getScene().getRoot()).lookup(".button")
                .match(LabeledMatchers.hasText(button)).queryButton());
        Fx.await("the question to close", () -> !stage.isShowing());
    }

    private static Stage find(Stage owner) {
        return Window.getWindows().stream()
                .filter(w -> w instanceof Stage s && s.getOwner() == owner && w.isShowing()
                        && w.getScene().getRoot() instanceof DialogPane)
                .map(Stage.class::cast).findFirst().orElse(null);
    }
}
