package org.lockstep.shell;

import javafx.animation.PauseTransition;
import javafx.stage.Stage;
import javafx.util.Duration;
import org.lockstep.ui.StartupReport;
import org.lockstep.ui.Windows;

/**
 * The window that says what a desktop start is waiting for ("Starting database…"), shown only when the start takes
 * longer than {@link #SHOW_AFTER}: a start whose database answers at once goes straight to its main window, as a
 * native application's does, with no window flashing up and away before it (and without the CPU of making, styling,
 * animating and painting one: about 0.1 CPU-s of a warm start, docs/benchmarks.md, "Issue 30, phase 4"); a slow one
 * — the first start ever, a server that must be started first — shows it while it waits. FX thread only.
 *
 * <p>The caller closes it once its first window shows, or once an alert explaining a failure shows: JavaFX ends the
 * application when its last window closes, so it must not close before another one shows.
 */
final class StartingWindow {

    /** How long a start may take before the starting window shows. */
    static final Duration SHOW_AFTER = Duration.millis(500);

    private final String title;
    private final String message;
    private final PauseTransition wait = new PauseTransition(SHOW_AFTER);
    private Stage stage;
    private boolean closed;

    private StartingWindow(String title, String message) {
        this.title = title;
        this.message = message;
    }

    /**
     * Shows the starting window after {@link #SHOW_AFTER} unless it is {@link #close closed} before.
     *
     * @param title   its title, in the operator's language
     * @param message what is being started, e.g. "Starting database…"
     */
    static StartingWindow showUnlessQuick(String title, String message) {
        StartingWindow w = new StartingWindow(title, message);
        // The pause ends on the FX thread: a main window built before it ends has closed this by then.
        w.wait.setOnFinished(e -> w.show());
        w.wait.play();
        return w;
    }

    private void show() {
        if (closed) {
            return;
        }
        stage = Windows.startingWindow(title, message);
        Windows.styleBeforeShowing(stage); // its first frame is its text, never a blank window
        StartupReport.markShown(stage, "starting-shown");
        stage.show();
    }

    /**
     * Shows it at once, unless it shows already or was closed: for a window that must not be the application's only
     * one, such as the sign-in dialog, after which JavaFX would otherwise end the application while it signs in.
     */
    void showNow() {
        wait.stop();
        if (stage == null) {
            show();
        }
    }

    /** Whether it shows now. */
    boolean isShowing() {
        return stage != null && stage.isShowing();
    }

    /** Closes it; not shown yet, it never shows. */
    void close() {
        closed = true;
        wait.stop();
        if (stage != null) {
            stage.close();
        }
    }
}
