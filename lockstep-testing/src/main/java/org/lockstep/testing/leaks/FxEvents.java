package org.lockstep.testing.leaks;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Runs what a test left queued on the JavaFX Application Thread before the test counts as done, so that an exception
 * thrown there is this test's, not the next one's. Through reflection: most modules' tests have no JavaFX, and this
 * module depends on nothing but JUnit; where no toolkit runs it does nothing.
 */
final class FxEvents {

    /** The FX thread's name, as glass gives it. */
    static final String FX_THREAD = "JavaFX Application Thread";

    /** How long one round may wait for the FX thread, ms: a thread still busy then is the thread check's to report. */
    static final long ROUND_MS = 5_000;

    /** Rounds: a task the test queued may queue one more (a result handed on), which the second round runs. */
    static final int ROUNDS = 2;

    private FxEvents() {
    }

    /** Waits until the FX thread has run what was queued on it before, twice over; at once if there is none. */
    static void drain() {
        Thread fx = Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals(FX_THREAD))
                .findFirst().orElse(null);
        if (fx == null || fx == Thread.currentThread()) {
            return;
        }
        Method runLater;
        try {
            runLater = Class.forName("javafx.application.Platform", true, ThreadLeakExtension.class.getClassLoader())
                    .getMethod("runLater", Runnable.class);
        } catch (ClassNotFoundException | NoSuchMethodException e) {
            return; // an FX thread without JavaFX on this class path is not one a test could queue on
        }
        for (int round = 0; round < ROUNDS; round++) {
            CountDownLatch ran = new CountDownLatch(1);
            try {
                runLater.invoke(null, (Runnable) ran::countDown);
                if (!ran.await(ROUND_MS, TimeUnit.MILLISECONDS)) {
                    return;
                }
            } catch (InvocationTargetException e) {
                return; // the toolkit is exiting: nothing more runs there
            } catch (IllegalAccessException e) {
                throw new IllegalStateException("Platform.runLater is public", e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
