package org.lockstep.ui;

import javafx.scene.paint.Color;

/**
 * WCAG 2.2's definitions of relative luminance and contrast ratio (success criteria 1.4.3 and 1.4.11), for the tests
 * that check the themes' palettes and the timeline's sheets: AA asks 4.5 for text, 3 for large text and graphics.
 */
public final class Contrast {

    private Contrast() {
    }

    /** Relative luminance of an sRGB colour, 0 (black) to 1 (white). */
    public static double luminance(Color c) {
        return 0.2126 * channel(c.getRed()) + 0.7152 * channel(c.getGreen()) + 0.0722 * channel(c.getBlue());
    }

    private static double channel(double v) {
        return v <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
    }

    /** Contrast ratio of two colours, 1 to 21. */
    public static double ratio(Color a, Color b) {
        double la = luminance(a);
        double lb = luminance(b);
        return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
    }
}
