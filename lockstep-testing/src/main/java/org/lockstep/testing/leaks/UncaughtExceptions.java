package org.lockstep.testing.leaks;

import java.util.ArrayList;
import java.util.List;

/**
 * The JVM's default uncaught-exception handler while tests run: it notes every exception that reaches a thread's end
 * or the JavaFX Application Thread's handler (glass hands an exception thrown by a {@code runLater} task or an event
 * handler to {@code Thread.getUncaughtExceptionHandler()}, which for the FX thread is this one), prints it as the JVM
 * would, and lets {@link ThreadLeakExtension} fail the test during which it arrived.
 *
 * <p>TestFX's {@code WaitForAsyncUtils} installs a default handler of its own in its static initializer, which keeps
 * the exception and throws it at the next {@code waitFor…} call of whatever test comes next: that is how a background
 * task left by one test failed a later, unrelated one (issue 27). This handler replaces it (TestFX's class is
 * initialised first, so that it cannot take the place back later), and is installed again before each test in case
 * anything else did.
 */
final class UncaughtExceptions implements Thread.UncaughtExceptionHandler {

    /** One exception that reached the handler, on the thread named. */
    record Uncaught(String thread, Throwable error) {
    }

    private static final UncaughtExceptions HANDLER = new UncaughtExceptions();
    private static final String TESTFX_ASYNC = "org.testfx.util.WaitForAsyncUtils";

    // Guarded by itself; a test's check takes what arrived since its mark and has not been reported yet.
    private static final List<Uncaught> SEEN = new ArrayList<>();
    private static final List<Boolean> REPORTED = new ArrayList<>();

    private UncaughtExceptions() {
    }

    /** Makes this the default handler, unless it is already. */
    static void install() {
        if (Thread.getDefaultUncaughtExceptionHandler() == HANDLER) {
            return;
        }
        try {
            Class.forName(TESTFX_ASYNC, true, ThreadLeakExtension.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            // no TestFX on this module's test class path: nothing installs a handler of its own
        }
        Thread.setDefaultUncaughtExceptionHandler(HANDLER);
    }

    @Override
    public void uncaughtException(Thread t, Throwable e) {
        synchronized (SEEN) {
            SEEN.add(new Uncaught(t.getName(), e));
            REPORTED.add(false);
        }
        // What ThreadGroup.uncaughtException prints when no handler is set: the output shows it as before.
        System.err.print("Exception in thread \"" + t.getName() + "\" ");
        e.printStackTrace(System.err);
    }

    /** Where the exceptions arriving from now on begin. */
    static int mark() {
        synchronized (SEEN) {
            return SEEN.size();
        }
    }

    /** The exceptions that arrived since {@code mark} and were not reported yet; they count as reported now. */
    static List<Uncaught> takeSince(int mark) {
        synchronized (SEEN) {
            List<Uncaught> taken = new ArrayList<>();
            for (int i = mark; i < SEEN.size(); i++) {
                if (!REPORTED.get(i)) {
                    taken.add(SEEN.get(i));
                    REPORTED.set(i, true);
                }
            }
            return taken;
        }
    }
}
