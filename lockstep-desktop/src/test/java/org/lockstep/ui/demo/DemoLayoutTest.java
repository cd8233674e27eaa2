package org.lockstep.ui.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Where the demo's windows go for a set of screens (issue 15, "Two screens"): a table of cases. */
class DemoLayoutTest {

    @ParameterizedTest(name = "{0} (primary {1}, trainer screen {2})")
    @CsvSource(delimiter = '|', textBlock = """
            # screens (x y w h; …)                       | primary | trainer | alice              | bob                   | trainer               | small
            0 0 1920 1080                                 | 0 | 0 | 0 0 960 712          | 960 0 960 712         | 0 712 1920 368        | false
            0 0 1366 768                                  | 0 | 0 | 0 0 683 537          | 683 0 683 537         | 0 537 1366 231        | true
            0 0 1920 1080                                 | 0 | 2 | 0 0 960 712          | 960 0 960 712         | 0 712 1920 368        | false
            0 0 1920 1080; 1920 0 1920 1080               | 0 | 0 | 0 0 1920 712         | 1920 0 1920 1080      | 0 712 1920 368        | false
            0 0 1920 1080; 1920 0 1920 1080               | 0 | 2 | 0 0 1920 1080        | 1920 0 1920 712       | 1920 712 1920 368     | false
            0 0 1920 1080; 1920 0 1920 1080               | 0 | 5 | 0 0 1920 712         | 1920 0 1920 1080      | 0 712 1920 368        | false
            0 0 1920 1080; -1920 0 1920 1080              | 0 | 0 | -1920 0 1920 1080    | 0 0 1920 712          | 0 712 1920 368        | false
            0 0 1920 1040; 1920 0 1280 768                | 0 | 0 | 0 0 1920 686         | 1920 0 1280 768       | 0 686 1920 354        | true
            0 0 1920 1080; 1920 0 1920 1080; 3840 0 1920 1080 | 0 | 0 | 1920 0 1920 1080 | 3840 0 1920 1080      | 0 0 1920 1080         | false
            0 0 1920 1080; 1920 0 1920 1080; 3840 0 1920 1080 | 0 | 3 | 0 0 1920 1080    | 1920 0 1920 1080      | 3840 0 1920 1080      | false
            """)
    void placesEachWindow(String screens, int primary, int trainerScreen, String alice, String bob, String trainer,
            boolean small) {
        List<DemoLayout.Bounds> bounds = Arrays.stream(screens.split(";")).map(DemoLayoutTest::bounds).toList();

        DemoLayout.Placement placed = DemoLayout.place(bounds, primary, trainerScreen);

        assertThat(placed).isEqualTo(new DemoLayout.Placement(bounds(alice), bounds(bob), bounds(trainer), small));
    }

    @Test
    void noScreenAtAllIsRefused() {
        assertThatThrownBy(() -> DemoLayout.place(List.of(), 0, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("There is no screen to place the demo on");
    }

    static DemoLayout.Bounds bounds(String text) {
        double[] v = Arrays.stream(text.trim().split(" +")).mapToDouble(Double::parseDouble).toArray();
        return new DemoLayout.Bounds(v[0], v[1], v[2], v[3]);
    }
}
