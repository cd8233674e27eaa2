package org.lockstep.ui.timeline;

import java.util.Locale;
import java.util.Map;
import javafx.scene.paint.Color;
import org.lockstep.editing.timeline.TimelineLayout.Palette;

/**
 * The timeline's colours on screen. The layout names its colours once for both renderers ({@link Palette}: a white
 * sheet, as the SVG file and print want); in the dark theme the pane draws a dark sheet instead, every colour keeping
 * its meaning — each lane its hue, lightened so that it reads on the dark paper (WCAG AA, checked by
 * {@code SheetColoursTest}), the lost update its red, the step just run its yellow band.
 */
record SheetColours(boolean dark) {

    /** The light sheet's colours, as the SVG file has them. */
    static final SheetColours LIGHT = new SheetColours(false);
    /** The dark sheet: Primer Dark's canvas and ink, and the lane colours lightened. */
    static final SheetColours DARK = new SheetColours(true);

    private static final Map<String, String> ON_DARK = Map.ofEntries(
            Map.entry(Palette.PAPER, "#0d1117"),
            Map.entry(Palette.HEADER, "#161b22"),
            Map.entry(Palette.INK, "#c9d1d9"),
            Map.entry(Palette.HIGHLIGHT, "#3d3000"),
            Map.entry(Palette.ALARM, "#ff7b72"),
            Map.entry("#1565c0", "#6cb6ff"),
            Map.entry("#bf360c", "#ffa657"),
            Map.entry("#1b5e20", "#56d364"),
            Map.entry("#6a1b9a", "#d2a8ff"),
            Map.entry("#00696f", "#39c5cf"),
            Map.entry("#5d4037", "#d4a373"));

    /** The sheet for the theme now showing. */
    static SheetColours forTheme(boolean darkTheme) {
        return darkTheme ? DARK : LIGHT;
    }

    /** The colour the layout calls {@code hex}, on this sheet. */
    Color of(String hex) {
        return of(hex, 1);
    }

    /** The colour the layout calls {@code hex}, on this sheet, with {@code opacity} (0 to 1). */
    Color of(String hex, double opacity) {
        String key = hex.toLowerCase(Locale.ROOT);
        return Color.web(dark ? ON_DARK.getOrDefault(key, key) : key, opacity);
    }
}
