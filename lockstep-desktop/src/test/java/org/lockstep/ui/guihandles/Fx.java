package org.lockstep.ui.guihandles;

import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.testfx.util.WaitForAsyncUtils;

/** Reads and waits on the FX thread from a test thread. */
public final class Fx {

    /** How long a test waits for the UI or the database before it fails, in seconds. */
    public static final long PATIENCE_S = 60;

    private Fx() {
    }

    /** Runs {@code action} on the FX thread and returns its result. */
    public static <T> T call(Callable<T> action) {
        return WaitForAsyncUtils.waitFor(WaitForAsyncUtils.asyncFx(action));
    }

    /** Runs {@code action} on the FX thread and waits for it. */
    public static void run(Runnable action) {
        call(() -> {
            action.run();
            return null;
        });
    }

    /** Waits until {@code condition}, evaluated on the FX thread, holds. */
    public static void await(String what, Callable<Boolean> condition) {
        try {
            WaitForAsyncUtils.waitFor(PATIENCE_S, TimeUnit.SECONDS, () -> call(condition));
        } catch (TimeoutException e) {
            throw new AssertionError("Gave up after " + PATIENCE_S + " s waiting for " + what, e);
        }
        WaitForAsyncUtils.waitForFxEvents();
    }
}
