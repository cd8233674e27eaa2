package org.lockstep.ui;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import javafx.geometry.Rectangle2D;
import org.junit.jupiter.api.Test;

/** Where a window opens: a share of the screen the first time, its saved bounds only while they fit a screen. */
class WindowPlacesTest {

    static final Rectangle2D FULL_HD = new Rectangle2D(0, 0, 1920, 1040); // less a 40 px panel
    static final Rectangle2D LAPTOP = new Rectangle2D(0, 0, 1366, 740);

    @Test
    void aFirstWindowTakesItsShareOfABigScreenCentred() {
        assertThat(WindowPlaces.firstBounds(FULL_HD, 0.8, 1200, 740))
                .isEqualTo(new Rectangle2D(192, 104, 1536, 832));
    }

    @Test
    void onASmallScreenItTakesItsMinimumOrTheWholeScreen() {
        assertThat(WindowPlaces.firstBounds(LAPTOP, 0.8, 1200, 740)).isEqualTo(new Rectangle2D(83, 0, 1200, 740));
        assertThat(WindowPlaces.firstBounds(new Rectangle2D(0, 0, 1024, 600), 0.8, 1200, 740))
                .isEqualTo(new Rectangle2D(0, 0, 1024, 600));
    }

    @Test
    void savedBoundsFitOnlyWithinAScreenThatIsThereNow() {
        Rectangle2D secondScreen = new Rectangle2D(1920, 0, 1920, 1080);
        Rectangle2D onSecond = new Rectangle2D(2000, 100, 1200, 800);

        assertThat(WindowPlaces.fits(onSecond, List.of(FULL_HD, secondScreen))).isTrue();
        assertThat(WindowPlaces.fits(onSecond, List.of(FULL_HD))).as("the second monitor unplugged").isFalse();
        assertThat(WindowPlaces.fits(new Rectangle2D(-8, -8, 1936, 1056), List.of(FULL_HD)))
                .as("a maximized frame's border").isTrue();
        assertThat(WindowPlaces.fits(new Rectangle2D(100, 100, 1500, 900), List.of(LAPTOP))).isFalse();
    }

    @Test
    void anOperatorsNodeNameHasNoSlashAndIsShortEnough() {
        assertThat(WindowPlaces.nodeName("ana/ops")).isEqualTo("ana_ops");
        assertThat(WindowPlaces.nodeName("x".repeat(200))).hasSizeLessThanOrEqualTo(80);
    }
}
