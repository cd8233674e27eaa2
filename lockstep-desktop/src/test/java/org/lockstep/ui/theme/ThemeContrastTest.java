package org.lockstep.ui.theme;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.prefs.BackingStoreException;
import java.util.prefs.Preferences;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.scene.layout.Background;
import javafx.scene.layout.VBox;
import javafx.scene.paint.Color;
import javafx.scene.paint.Paint;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.lockstep.testing.fx.WindowTest;
import org.lockstep.ui.Contrast;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * Every text/background pair of the palette meets WCAG 2.x AA in both themes, as JavaFX resolves the theme: a
 * label per pair is styled with the palette's names only, the scene's CSS is applied, and the colours are read back
 * from the label ({@code getTextFill()}, {@code getBackground()}). Text needs 4.5:1; borders and icons (UI
 * components, WCAG 1.4.11) 3:1. A translucent colour is composed over the window's background first. Source of the
 * rule: WCAG 2.2, success criteria 1.4.3 and 1.4.11, and its definitions of relative luminance and contrast ratio.
 */
@WindowTest
@ExtendWith(ApplicationExtension.class)
class ThemeContrastTest {

    /** A foreground colour on a background colour, both as palette names, and the least ratio it needs. */
    record Pair(String fg, String bg, double least) {
    }

    static final double TEXT = 4.5;
    static final double UI = 3.0;
    static final String WINDOW = "-color-bg-default";

    static final List<Pair> PAIRS = List.of(
            new Pair("-ls-text", WINDOW, TEXT), new Pair("-ls-muted", WINDOW, TEXT),
            new Pair("-ls-conflict", "-ls-conflict-bg", TEXT), new Pair("-ls-text", "-ls-conflict-bg", TEXT),
            new Pair("-ls-conflict", WINDOW, TEXT), new Pair("-ls-on-emphasis", "-ls-conflict-emphasis", TEXT),
            new Pair("-ls-resolved", "-ls-resolved-bg", TEXT), new Pair("-ls-text", "-ls-resolved-bg", TEXT),
            new Pair("-ls-resolved", WINDOW, TEXT), new Pair("-ls-on-emphasis", "-ls-resolved-emphasis", TEXT),
            new Pair("-ls-mine", WINDOW, TEXT), new Pair("-ls-theirs", WINDOW, TEXT),
            new Pair("-ls-base", WINDOW, TEXT),
            new Pair("-ls-locked", "-ls-locked-bg", TEXT), new Pair("-ls-text", "-ls-locked-bg", TEXT),
            new Pair("-ls-locked", WINDOW, TEXT),
            new Pair("-ls-lock-held", "-ls-lock-held-bg", TEXT), new Pair("-ls-text", "-ls-lock-held-bg", TEXT),
            new Pair("-ls-live", "-ls-live-bg", TEXT), new Pair("-ls-text", "-ls-live-bg", TEXT),
            new Pair("-ls-text", "-ls-live-changed-bg", TEXT),
            new Pair("-ls-unsafe", "-ls-unsafe-bg", TEXT), new Pair("-ls-unsafe", "-ls-unsafe-header-bg", TEXT),
            new Pair("-ls-text", "-ls-unsafe-header-bg", TEXT), new Pair("-ls-unsafe", WINDOW, TEXT),
            new Pair("-ls-hot", "-ls-hot-bg", TEXT), new Pair("-ls-hot", WINDOW, TEXT),
            new Pair("-ls-presence", WINDOW, TEXT), new Pair("-ls-on-emphasis", "-ls-presence-emphasis", TEXT),
            new Pair("-ls-text", "-ls-info-bg", TEXT), new Pair("-ls-text", "-ls-attention-bg", TEXT),
            new Pair("-ls-on-emphasis", "-ls-operator-default", TEXT),
            new Pair("-ls-on-emphasis", "-ls-veil-text-bg", TEXT),
            new Pair("-ls-conflict-border", WINDOW, UI), new Pair("-ls-conflict-border", "-ls-conflict-bg", UI),
            new Pair("-ls-resolved-border", WINDOW, UI), new Pair("-ls-resolved-border", "-ls-resolved-bg", UI),
            new Pair("-ls-locked-border", WINDOW, UI), new Pair("-ls-lock-held-border", WINDOW, UI),
            new Pair("-ls-live-border", WINDOW, UI), new Pair("-ls-unsafe-border", WINDOW, UI),
            new Pair("-ls-hot-border", WINDOW, UI), new Pair("-ls-info-border", WINDOW, UI),
            new Pair("-ls-attention-border", WINDOW, UI), new Pair("-ls-presence-emphasis", WINDOW, UI));

    Preferences node = Preferences.userRoot().node("org/lockstep/test/" + UUID.randomUUID());
    VBox root;

    @Start
    void start(Stage stage) {
        Themes.install(node, () -> false);
        root = new VBox();
        for (Pair p : PAIRS) {
            Label sample = new Label(p.fg() + " on " + p.bg());
            sample.setStyle("-fx-text-fill: " + p.fg() + "; -fx-background-color: " + p.bg() + ";");
            root.getChildren().add(sample);
        }
        stage.setScene(new Scene(root, 400, 300));
        stage.show();
    }

    @AfterEach
    void forget() throws BackingStoreException {
        node.removeNode();
    }

    @Test
    void everyPaletteTextAndComponentMeetsAaInTheLightTheme() {
        assertThat(failures(ThemeChoice.LIGHT)).isEmpty();
    }

    @Test
    void everyPaletteTextAndComponentMeetsAaInTheDarkTheme() {
        assertThat(failures(ThemeChoice.DARK)).isEmpty();
    }

    @Test
    void theThemesResolveThePaletteToDifferentColours() {
        Color light = onFx(ThemeChoice.LIGHT).get(2)[0];
        Color dark = onFx(ThemeChoice.DARK).get(2)[0];
        assertThat(light).isNotEqualTo(dark);
        assertThat(Contrast.luminance(onFx(ThemeChoice.DARK).get(0)[1])).as("dark window").isLessThan(0.05);
        assertThat(Contrast.luminance(onFx(ThemeChoice.LIGHT).get(0)[1])).as("light window").isGreaterThan(0.9);
    }

    private List<Color[]> onFx(ThemeChoice choice) {
        return WaitForAsyncUtils.waitForAsyncFx(10_000, () -> colours(choice));
    }

    /** Per pair: the resolved foreground and (composed) background. */
    private List<Color[]> colours(ThemeChoice choice) {
        Themes.current().choiceProperty().set(choice);
        root.applyCss();
        Color window = opaque(root.getScene().getRoot() == root ? fill(root) : null, Color.WHITE);
        List<Color[]> out = new ArrayList<>();
        for (int i = 0; i < PAIRS.size(); i++) {
            Label sample = (Label) root.getChildren().get(i);
            Color bg = over(fill(sample), window);
            Color fg = over((Color) sample.getTextFill(), bg);
            out.add(new Color[]{fg, bg});
        }
        return out;
    }

    private List<String> failures(ThemeChoice choice) {
        List<Color[]> resolved = onFx(choice);
        List<String> failed = new ArrayList<>();
        for (int i = 0; i < PAIRS.size(); i++) {
            Pair p = PAIRS.get(i);
            double ratio = Contrast.ratio(resolved.get(i)[0], resolved.get(i)[1]);
            if (ratio < p.least()) {
                failed.add(String.format("%s: %s %s on %s %s is %.2f:1, needs %.1f:1", choice, p.fg(),
                        resolved.get(i)[0], p.bg(), resolved.get(i)[1], ratio, p.least()));
            }
        }
        return failed;
    }

    private static Color fill(javafx.scene.layout.Region region) {
        Background b = region.getBackground();
        if (b == null || b.getFills().isEmpty()) {
            return null;
        }
        Paint paint = b.getFills().get(b.getFills().size() - 1).getFill();
        return paint instanceof Color c ? c : null;
    }

    private static Color opaque(Color c, Color otherwise) {
        return c == null ? otherwise : c;
    }

    /** {@code top} composed over the opaque {@code under} (alpha blending); {@code under} when there is no top. */
    static Color over(Color top, Color under) {
        if (top == null) {
            return under;
        }
        double a = top.getOpacity();
        return Color.color(top.getRed() * a + under.getRed() * (1 - a), top.getGreen() * a + under.getGreen() * (1 - a),
                top.getBlue() * a + under.getBlue() * (1 - a));
    }
}
