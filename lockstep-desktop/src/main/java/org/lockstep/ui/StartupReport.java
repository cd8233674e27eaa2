package org.lockstep.ui;

import java.util.function.BooleanSupplier;
import javafx.scene.Scene;
import javafx.stage.Window;
import javafx.stage.WindowEvent;

/**
 * The moments of a desktop start that {@code lockstep-bench startup} measures (issue 30), told on stderr as lines
 * {@code lockstep-startup EVENT} when the system property {@value #PROPERTY} is {@code true}, and not at all
 * otherwise: {@code starting-shown} (the starting window is on screen), {@code main-shown} (the main window is) and
 * {@code first-page} (the pulse that laid out the list's first page of customers, which the render thread then
 * draws). The benchmark stamps each line with its own clock as it arrives, and reads the process's CPU time then.
 */
public final class StartupReport {

    /** The system property that turns the report on. */
    public static final String PROPERTY = "lockstep.startupReport";

    private StartupReport() {
    }

    /** Whether the report is on for this process. */
    public static boolean enabled() {
        return Boolean.getBoolean(PROPERTY);
    }

    /** Tells {@code event} now, when the report is on. */
    public static void mark(String event) {
        if (enabled()) {
            System.err.println("lockstep-startup " + event);
            System.err.flush();
        }
    }

    /** Tells {@code event} when {@code window} is first shown, when the report is on. FX thread. */
    public static void markShown(Window window, String event) {
        if (!enabled()) {
            return;
        }
        if (window.isShowing()) {
            mark(event);
            return;
        }
        window.addEventHandler(WindowEvent.WINDOW_SHOWN, new javafx.event.EventHandler<WindowEvent>() {
            @Override
            public void handle(WindowEvent e) {
                window.removeEventHandler(WindowEvent.WINDOW_SHOWN, this);
                mark(event);
            }
        });
    }

    /**
     * Tells {@code event} after the first layout pulse of {@code scene} at which {@code ready} holds (the list's first
     * page is in), when the report is on. FX thread.
     */
    public static void markLaidOut(Scene scene, BooleanSupplier ready, String event) {
        if (!enabled()) {
            return;
        }
        Runnable[] listener = new Runnable[1];
        listener[0] = () -> {
            if (ready.getAsBoolean()) {
                scene.removePostLayoutPulseListener(listener[0]);
                mark(event);
            }
        };
        scene.addPostLayoutPulseListener(listener[0]);
    }
}
