package org.lockstep.ui;

import static org.assertj.core.api.Assertions.assertThat;

import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.TextField;
import javafx.scene.input.KeyCode;
import javafx.scene.layout.HBox;
import javafx.scene.layout.VBox;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.lockstep.testing.fx.WindowTest;
import org.lockstep.ui.guihandles.Fx;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

/** A banner shows while wanted, closes with its button, comes back with a new text, and never takes the focus. */
@WindowTest
@ExtendWith(ApplicationExtension.class)
class BannerTest {

    Label text;
    HBox box;
    Banner banner;
    TextField typing;

    @Start
    void start(Stage stage) {
        text = new Label();
        box = new HBox(text);
        banner = new Banner(box, text, "the notice", "noticeDismiss");
        typing = new TextField();
        stage.setScene(new Scene(new VBox(typing, box), 400, 200));
        stage.show();
        typing.requestFocus();
    }

    @Test
    void theCloseButtonHidesItUntilItSaysSomethingNew(FxRobot robot) {
        Fx.run(() -> {
            text.setText("Message from Bob: please save");
            banner.setWanted(true);
        });
        assertThat(box.isVisible()).isTrue();
        assertThat(typing.isFocused()).as("the operator's field keeps the focus").isTrue();
        Button close = robot.lookup("#noticeDismiss").queryAs(Button.class);
        assertThat(close.getAccessibleText()).isEqualTo("Dismiss the notice");

        robot.clickOn(close);

        assertThat(box.isVisible()).isFalse();
        assertThat(box.isManaged()).isFalse();
        Fx.run(() -> text.setText("Message from Bob: done, it is yours"));
        assertThat(box.isVisible()).isTrue();
        Fx.run(() -> banner.setWanted(false));
        assertThat(box.isVisible()).isFalse();
    }

    @Test
    void aDismissedBannerWantedAnewShowsAgain(FxRobot robot) {
        Fx.run(() -> {
            text.setText("Saved");
            banner.setWanted(true);
            banner.dismiss();
        });
        assertThat(banner.isShowing()).isFalse();
        Fx.run(() -> {
            banner.setWanted(false);
            banner.setWanted(true);
        });
        assertThat(banner.isShowing()).isTrue();
        robot.clickOn(typing).type(KeyCode.A);
        assertThat(typing.getText()).isEqualTo("a");
    }
}
