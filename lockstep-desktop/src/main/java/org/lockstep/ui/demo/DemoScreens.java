package org.lockstep.ui.demo;

import java.util.List;
import javafx.animation.PauseTransition;
import javafx.collections.ListChangeListener;
import javafx.geometry.Rectangle2D;
import javafx.stage.Screen;
import javafx.stage.Stage;
import javafx.util.Duration;

/**
 * The demo's windows on the screens JavaFX reports now ({@link DemoLayout} decides where), and again whenever a
 * screen is plugged in or out, or changes its resolution, while the demo runs. FX thread only.
 */
public final class DemoScreens {

    /**
     * A system property: when {@code true}, every placement prints one line on standard output once the windows
     * are where it put them (or after 5 s, wherever they are), {@code demo-placement screens=N alice=X,Y,W,H bob=…
     * trainer=…}: the screens JavaFX lists and the windows' bounds as JavaFX reports them, in pixels. For the
     * two-screen test that runs the demo under a real X server.
     */
    public static final String REPORT_PROPERTY = "lockstep.demo.reportPlacement";

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
        if (Boolean.getBoolean(REPORT_PROPERTY)) {
            reportWhenSettled(p, Screen.getScreens().size(), REPORT_CHECKS);
        }
    }

    // How often a placement report looks whether the windows are there yet, 100 ms apart: the window system moves
    // and resizes a window in separate steps, and each step comes back as an event that updates the stage.
    private static final int REPORT_CHECKS = 50;

    private void reportWhenSettled(DemoLayout.Placement p, int screens, int checksLeft) {
        String now = "alice=" + report(alice) + " bob=" + report(bob) + " trainer=" + report(trainer);
        String wanted = "alice=" + report(p.alice()) + " bob=" + report(p.bob()) + " trainer=" + report(p.trainer());
        if (now.equals(wanted) || checksLeft == 0) {
            System.out.println("demo-placement screens=" + screens + " " + now);
            return;
        }
        PauseTransition pause = new PauseTransition(Duration.millis(100));
        pause.setOnFinished(e -> reportWhenSettled(p, screens, checksLeft - 1));
        pause.play();
    }

    private static String report(Stage s) {
        return report(new DemoLayout.Bounds(s.getX(), s.getY(), s.getWidth(), s.getHeight()));
    }

    private static String report(DemoLayout.Bounds b) {
        return Math.round(b.x()) + "," + Math.round(b.y()) + "," + Math.round(b.width()) + ","
                + Math.round(b.height());
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
