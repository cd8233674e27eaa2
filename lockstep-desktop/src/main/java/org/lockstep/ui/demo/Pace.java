package org.lockstep.ui.demo;

import javafx.util.Duration;

/**
 * How fast the trainer demo acts in the operator windows: slow enough for a class to follow each keystroke and
 * click, or as fast as the FX thread allows for tests.
 *
 * @param keystroke the pause after each typed character
 * @param point     how long a control is highlighted before it is clicked or typed into
 * @param between   the pause after each action
 */
public record Pace(Duration keystroke, Duration point, Duration between) {

    /** For a class watching: about 18 characters a second, each target shown for half a second. */
    public static final Pace CLASSROOM = new Pace(Duration.millis(55), Duration.millis(500), Duration.millis(350));

    /** For tests: every action still goes through the controls, without waiting to be seen. */
    public static final Pace FAST = new Pace(Duration.millis(1), Duration.millis(1), Duration.millis(1));
}
