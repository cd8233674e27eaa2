package org.lockstep.ui.demo;

import java.util.List;
import javafx.collections.ListChangeListener;
import javafx.geometry.Rectangle2D;
import javafx.stage.Screen;
import javafx.stage.Stage;

/**
 * The demo's windows on the screens JavaFX reports now ({@link DemoLayout} decides where), and again whenever a
 * screen is plugged in or out, or changes its resolution, while the demo runs. FX thread only.
 */
public final class DemoScreens {

    /** The font size on small screens. */
    static final String SMALL_FONT = "-fx-font-size: 11px;";

    // Chosen once per process, before the demo's windows show (lockstep demo --trainer-screen N).
    private static volatile int trainerScreen;

    private final Stage alice;
    private final Stage bob;
    private final Stage trainer;
    private final ListChangeListener<Screen> onChange = change -> placeAll();

    private DemoScreens(Stage alice, Stage bob, Stage trainer) {
        this.alice = alice;
        this.bob = bob;
        this.trainer = trainer;
    }

    /**
     * The screen the Trainer panel goes on, counted from 1 in the order JavaFX lists the screens; 0 for the
     * primary. A screen that is not there (unplugged) means the primary too.
     *
     * @throws IllegalArgumentException when {@code screen} is negative
     */
    public static void useTrainerScreen(int screen) {
        if (screen < 0) {
            throw new IllegalArgumentException("--trainer-screen must be 1 or more, not " + screen);
        }
        trainerScreen = screen;
    }

    /** Where the windows go on the screens there are now. */
    public static DemoLayout.Placement placement() {
        List<Screen> screens = List.copyOf(Screen.getScreens());
        List<DemoLayout.Bounds> bounds = screens.stream().map(s -> bounds(s.getVisualBounds())).toList();
        return DemoLayout.place(bounds, Math.max(0, screens.indexOf(Screen.getPrimary())), trainerScreen);
    }

    /**
     * Places the three windows now and follows screen changes until {@link #stop()}.
     *
     * @return the follower, to stop when the demo closes
     */
    static DemoScreens follow(Stage alice, Stage bob, Stage trainer) {
        DemoScreens screens = new DemoScreens(alice, bob, trainer);
        screens.placeAll();
        Screen.getScreens().addListener(screens.onChange);
        return screens;
    }

    /** Stops following screen changes. */
    void stop() {
        Screen.getScreens().removeListener(onChange);
    }

    private void placeAll() {
        if (Screen.getScreens().isEmpty()) {
            return; // between an unplug and the next screen's arrival
        }
        DemoLayout.Placement p = placement();
        place(alice, p.alice());
        place(bob, p.bob());
        place(trainer, p.trainer());
        for (Stage s : List.of(alice, bob, trainer)) {
            if (s.getScene() != null) {
                s.getScene().getRoot().setStyle(p.small() ? SMALL_FONT : "");
            }
        }
    }

    /** Puts {@code stage} at {@code b}; sized after showing as well, as some window managers need. */
    static void place(Stage stage, DemoLayout.Bounds b) {
        stage.setX(b.x());
        stage.setY(b.y());
        stage.setWidth(b.width());
        stage.setHeight(b.height());
    }

    private static DemoLayout.Bounds bounds(Rectangle2D r) {
        return new DemoLayout.Bounds(r.getMinX(), r.getMinY(), r.getWidth(), r.getHeight());
    }
}
