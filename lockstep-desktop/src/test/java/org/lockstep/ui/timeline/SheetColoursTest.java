package org.lockstep.ui.timeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Stream;
import javafx.scene.paint.Color;
import org.junit.jupiter.api.Test;
import org.lockstep.editing.timeline.TimelineLayout.Palette;
import org.lockstep.ui.Contrast;

/**
 * Both sheets of the timeline are readable: every text colour (ink, the alarm, each operator's lane colour) against
 * the paper and the highlighted band meets WCAG AA for text (4.5), on the light sheet the SVG file has and on the dark
 * sheet the dark theme draws; and the dark sheet is dark.
 */
class SheetColoursTest {

    static final List<String> LANES = List.of("#1565c0", "#bf360c", "#1b5e20", "#6a1b9a", "#00696f", "#5d4037");

    @Test
    void everyTextColourReadsOnThePaperAndTheBandOfBothSheets() {
        for (SheetColours sheet : List.of(SheetColours.LIGHT, SheetColours.DARK)) {
            for (String text : Stream.concat(Stream.of(Palette.INK, Palette.ALARM), LANES.stream()).toList()) {
                for (String ground : List.of(Palette.PAPER, Palette.HIGHLIGHT, Palette.HEADER)) {
                    double ratio = Contrast.ratio(sheet.of(text), sheet.of(ground));
                    assertThat(ratio).as("%s on %s, %s sheet", text, ground, sheet.dark() ? "dark" : "light")
                            .isGreaterThanOrEqualTo(4.5);
                }
            }
        }
    }

    @Test
    void theDarkSheetIsDarkAndTheLightOneIsTheFilesWhite() {
        assertThat(Contrast.luminance(SheetColours.DARK.of(Palette.PAPER))).isLessThan(0.05);
        assertThat(SheetColours.LIGHT.of(Palette.PAPER)).isEqualTo(Color.WHITE);
        assertThat(SheetColours.LIGHT.of("#1565C0")).isEqualTo(Color.web("#1565c0"));
    }
}
