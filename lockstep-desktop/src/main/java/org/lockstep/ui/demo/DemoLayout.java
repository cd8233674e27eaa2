package org.lockstep.ui.demo;

import static org.lockstep.text.Texts.tr;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Where the demo's three windows go, as a pure function of the screens: their visual bounds in, the windows'
 * rectangles out (docs/user-guide.md, "Two screens"). No JavaFX here, so the rule is tested with a table of screens.
 *
 * <ul>
 *   <li>One screen: Alice and Bob side by side on top, the Trainer panel below across the whole width, taking
 *       {@link #TRAINER_SHARE} of the height ({@link #SMALL_TRAINER_SHARE} on a screen under
 *       {@link #SMALL_HEIGHT}).</li>
 *   <li>Two or more: Alice on one screen, Bob on another, each filling its visual bounds; the operators take the
 *       screens left to right, skipping the trainer's when there are three or more. The Trainer panel goes on the
 *       trainer's screen ({@code --trainer-screen N}, default the primary): across its bottom band, the operator
 *       who shares that screen keeping the rest, so that the trainer's notes never cover the operator's Save; a
 *       screen of its own it fills.</li>
 * </ul>
 */
public final class DemoLayout {

    /** The share of the screen's height the Trainer panel takes; the operator windows have the rest. */
    public static final double TRAINER_SHARE = 0.34;
    /** On screens under {@link #SMALL_HEIGHT} the Trainer takes less, and every window uses a smaller font. */
    public static final double SMALL_TRAINER_SHARE = 0.30;
    /** Below this height in pixels (e.g. 1366×768) the demo's windows use a smaller font. */
    public static final double SMALL_HEIGHT = 1000;

    /** A rectangle in screen coordinates, in pixels. */
    public record Bounds(double x, double y, double width, double height) {
    }

    /**
     * Where each window goes.
     *
     * @param alice   Alice's window
     * @param bob     Bob's window
     * @param trainer the Trainer panel
     * @param small   whether the windows should use the smaller font (a screen they are on is under
     *                {@link #SMALL_HEIGHT})
     */
    public record Placement(Bounds alice, Bounds bob, Bounds trainer, boolean small) {
    }

    private DemoLayout() {
    }

    /**
     * Places the windows.
     *
     * @param screens       the screens' visual bounds, in the order JavaFX lists them; at least one
     * @param primary       the index of the primary screen in {@code screens}
     * @param trainerScreen the screen the trainer chose, counted from 1 in {@code screens}' order; 0 (or a screen
     *                      that is not there, e.g. unplugged) for the primary
     */
    public static Placement place(List<Bounds> screens, int primary, int trainerScreen) {
        if (screens.isEmpty()) {
            throw new IllegalArgumentException(tr("There is no screen to place the demo on"));
        }
        int home = primary >= 0 && primary < screens.size() ? primary : 0;
        if (screens.size() == 1) {
            return oneScreen(screens.get(0));
        }
        int trainerIndex = trainerScreen >= 1 && trainerScreen <= screens.size() ? trainerScreen - 1 : home;
        Bounds trainerOn = screens.get(trainerIndex);
        List<Integer> leftToRight = new ArrayList<>();
        for (int i = 0; i < screens.size(); i++) {
            if (screens.size() < 3 || i != trainerIndex) {
                leftToRight.add(i);
            }
        }
        leftToRight.sort(Comparator.comparingDouble((Integer i) -> screens.get(i).x())
                .thenComparingDouble(i -> screens.get(i).y()));
        int aliceIndex = leftToRight.get(0);
        int bobIndex = leftToRight.get(1);
        Bounds aliceOn = screens.get(aliceIndex);
        Bounds bobOn = screens.get(bobIndex);
        boolean small = Math.min(aliceOn.height(), bobOn.height()) < SMALL_HEIGHT
                || trainerOn.height() < SMALL_HEIGHT;
        if (trainerIndex != aliceIndex && trainerIndex != bobIndex) {
            return new Placement(aliceOn, bobOn, trainerOn, small);
        }
        double top = operatorHeight(trainerOn);
        Bounds band = new Bounds(trainerOn.x(), trainerOn.y() + top, trainerOn.width(), trainerOn.height() - top);
        Bounds above = new Bounds(trainerOn.x(), trainerOn.y(), trainerOn.width(), top);
        return trainerIndex == aliceIndex ? new Placement(above, bobOn, band, small)
                : new Placement(aliceOn, above, band, small);
    }

    private static Placement oneScreen(Bounds screen) {
        double top = operatorHeight(screen);
        double half = Math.floor(screen.width() / 2);
        return new Placement(new Bounds(screen.x(), screen.y(), half, top),
                new Bounds(screen.x() + half, screen.y(), screen.width() - half, top),
                new Bounds(screen.x(), screen.y() + top, screen.width(), screen.height() - top),
                screen.height() < SMALL_HEIGHT);
    }

    /** The height left to the operator windows above the Trainer panel on {@code screen}. */
    private static double operatorHeight(Bounds screen) {
        boolean small = screen.height() < SMALL_HEIGHT;
        return Math.floor(screen.height() * (1 - (small ? SMALL_TRAINER_SHARE : TRAINER_SHARE)));
    }
}
