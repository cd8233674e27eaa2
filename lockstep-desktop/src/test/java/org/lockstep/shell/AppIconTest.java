package org.lockstep.shell;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import javafx.scene.Scene;
import javafx.scene.control.Alert;
import javafx.scene.control.Label;
import javafx.scene.image.Image;
import javafx.scene.image.WritableImage;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.lockstep.testing.fx.WindowTest;
import org.testfx.api.FxToolkit;

/** Every window Lockstep opens carries its icon, at every rendered size, unless it brought its own. */
@WindowTest
class AppIconTest {

    @Test
    void everyRenderedSizeLoadsAtItsSize() throws Exception {
        List<Image> images = FxToolkit.setupFixture(AppIcon::images);

        assertThat(images).extracting(Image::isError).containsOnly(false);
        assertThat(images).extracting(i -> (int) i.getWidth(), i -> (int) i.getHeight())
                .containsExactly(AppIcon.SIZES.stream().map(s -> org.assertj.core.groups.Tuple.tuple(s, s))
                        .toArray(org.assertj.core.groups.Tuple[]::new));
    }

    @Test
    void stagesAndAlertsOpenedAfterInstallGetTheIconAndOwnIconsAreKept() throws Exception {
        Image own = new WritableImage(8, 8);
        List<List<Image>> icons = FxToolkit.setupFixture(() -> {
            AppIcon.install();
            AppIcon.install(); // a second start in the same JVM (tests, the demo after the editor) adds no listener
            Stage plain = new Stage();
            plain.setScene(new Scene(new Label("editor")));
            plain.show();
            Stage branded = new Stage();
            branded.getIcons().add(own);
            branded.setScene(new Scene(new Label("own icon")));
            branded.show();
            Alert alert = new Alert(Alert.AlertType.INFORMATION, "saved");
            alert.show();
            Stage alertStage = (Stage) alert.getDialogPane().getScene().getWindow();
            List<List<Image>> seen = List.of(List.copyOf(plain.getIcons()), List.copyOf(branded.getIcons()),
                    List.copyOf(alertStage.getIcons()), AppIcon.images());
            alert.close();
            return seen;
        });

        List<Image> lockstep = icons.get(3);
        assertThat(lockstep).hasSize(AppIcon.SIZES.size());
        assertThat(icons.get(0)).containsExactlyElementsOf(lockstep);
        assertThat(icons.get(1)).containsExactly(own);
        assertThat(icons.get(2)).containsExactlyElementsOf(lockstep);
    }
}
