package org.lockstep.testing.leaks;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Fails a test that leaves a thread running which it started: a thread pool never shut down, a task still running
 * on one shut down but not awaited, a feed or timer never stopped (issue 27). Registered for every module's tests
 * by JUnit's auto-detection (this module's {@code META-INF/services} and {@code junit-platform.properties}).
 *
 * <p>Before each test it notes the live threads; when the test is done — after its {@code @AfterEach} methods, the
 * other extensions' callbacks and what they left in JUnit's store to close (a {@code @DatabaseTest}'s databases) —
 * every new thread still alive is given a bounded grace to end ({@link Thread#join(long)}, at most
 * {@link #GRACE_MS} ms in all: a pool shut down a moment ago), and those still alive fail the test, named with their
 * state and top stack frames. The same around a test class, for what its {@code @BeforeAll} methods or static
 * fixtures started: the class fails.
 *
 * <p>Exempt, because they are the JVM's or a library's, started once on first use and meant to live as long as the JVM,
 * owned by no test ({@link #EXEMPT}): the JavaFX toolkit's threads (started by the first window test, kept for the JVM
 * by TestFX/Monocle); pgjdbc's static cleaner and shared timer; the JDK's process reaper (a shared pool of
 * {@code Process}, its idle threads end after 60 s), common cleaner, attach listener and Java2D disposer (started by the first
 * image a screenshot test writes), JNA's cleaner, and the thread of a {@code java.lang.ref.Cleaner} a library keeps in
 * a static ({@code Cleaner-N}, seen first in {@code lockstep generate}); the timer of {@code java.util.prefs} (started
 * before the first test, see {@code JvmThreads}); idle common ForkJoinPool workers (the JVM's pool, workers end when
 * idle); JUnit's and Surefire's own threads. In a test (not its class) also the threads of the class's shared database
 * ({@link #DATABASE_HELPERS}): Hikari's pool helpers and Lockstep's announcer (the sender of a {@code Database}'s
 * change notifications, {@code org.lockstep.store.Announcer}), which a test using that database starts lazily but which
 * belong to the database; the class is checked for them once its database is closed ({@code Database.close()} closes
 * the pool and shuts the announcer down and awaits it), so a database a test opens and never closes still fails its
 * class. Nothing else: an Awaitility poller or a class's executor's thread started lazily by a test is that test's (a
 * class's pool starts its threads in {@code @BeforeAll}, e.g. {@code prestartAllCoreThreads()}).
 *
 * <p>Report-only mode, for a module with leaks not yet fixed: {@code -Dlockstep.leaks=report} (a system property or
 * JUnit configuration parameter) prints the leaks to standard error instead of failing. Temporary by intent: the parent
 * pom sets it for the modules whose suites have not yet been run clean under the extension.
 */
public final class ThreadLeakExtension implements BeforeAllCallback, BeforeEachCallback {

    /** How long, in all, threads that are ending may take to end before they count as leaked. */
    static final long GRACE_MS = 5_000;

    /** The most stack frames shown of a leaked thread. */
    static final int FRAMES = 8;

    /** The configuration parameter (or system property) that turns failing into reporting. */
    public static final String MODE = "lockstep.leaks";

    /** Threads owned by the JVM, a library or the test runner, not by a test: see the class comment. */
    static final Pattern EXEMPT = Pattern.compile(String.join("|",
            // JavaFX toolkit (Platform.startup once per JVM by TestFX/Monocle; never exited in tests)
            "JavaFX Application Thread", "JavaFX-Launcher", "QuantumRenderer-\\d+", "InvokeLaterDispatcher",
            "Prism Font Disposer", "Disposer", "Monocle.*", "Glass.*",
            // TestFX's static WaitForAsyncUtils pool (a cached pool for the JVM; idle threads end after 60 s)
            "testfx-async-pool-thread-\\d+",
            // pgjdbc's statics: the cleaner of unclosed connections, the statement-timeout timer
            "PostgreSQL-JDBC-Cleaner", "PostgreSQL-JDBC-SharedTimer-\\d+",
            // the JDK's
            "process reaper", "Common-Cleaner", "Cleaner-\\d+", "Attach Listener", "Signal Dispatcher",
            "Reference Handler", "Java2D Disposer",
            // JNA's static cleaner (a library's, like Cleaner-N; seen first in ThroughPgBouncerTest)
            "JNA Cleaner",
            "Finalizer", "Notification Thread",
            // JUnit's and Surefire's
            "surefire-forkedjvm-.*", "junit-.*"));

    /**
     * The threads of a database, started lazily while it is in use: a test using its class's database (a static
     * {@code @FreshDatabase}) starts them, but the class owns them, and is checked for them once the database is
     * closed. Hikari's pool helpers, named after the pool ({@code HikariPool-1 housekeeper} before Hikari 6,
     * {@code lockstep:connection-adder} since), and the announcer of a {@code Database}'s own saves
     * ({@code lockstep-announcer}), which {@code Database.close()} shuts down and awaits.
     */
    static final Pattern DATABASE_HELPERS = Pattern.compile(
            "HikariPool-\\d+ (housekeeper|connection adder|connection closer)"
                    + "|[\\w.-]+:(housekeeper|connection-adder|connection-closer)"
                    + "|lockstep-announcer");

    private static final Pattern COMMON_POOL_WORKER = Pattern.compile("ForkJoinPool\\.commonPool-worker-\\d+");

    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(ThreadLeakExtension.class);

    /**
     * Starts, once and before any test is watched, the JVM's threads that a library starts on first use under a name
     * no test can be told apart from: the timer of {@code java.util.prefs} (a {@code new Timer(true)}, "Timer-N", in
     * a static of the JDK's file-system preferences, living as long as the JVM), started by the first read of the
     * operator's preferences in whichever test comes first. Started here, it is in every test's "before".
     */
    private static final class JvmThreads {
        static {
            try {
                java.util.prefs.Preferences.userRoot();
            } catch (RuntimeException e) {
                // no preferences here: then no test starts their timer either
            }
        }

        static void started() {
            // the static initializer above ran
        }
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        JvmThreads.started();
        watch(context, "Test class " + context.getRequiredTestClass().getSimpleName(), true);
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        watch(context, "Test " + context.getRequiredTestClass().getSimpleName() + "." + context.getDisplayName(),
                false);
    }

    /**
     * Puts the check in the context's store: JUnit closes what a store holds after the context's after-callbacks,
     * latest first, so the check (put first, as auto-detected extensions come first) runs after everything else
     * the test or class closes.
     */
    private static void watch(ExtensionContext context, String what, boolean classLevel) {
        Set<Thread> before = new HashSet<>(Thread.getAllStackTraces().keySet());
        boolean report = context.getConfigurationParameter(MODE).map("report"::equals).orElse(false);
        context.getStore(NAMESPACE).put(Check.class, new Check(what, before, classLevel, report));
    }

    /** The check of one test or class, run when JUnit closes its store. */
    record Check(String what, Set<Thread> before, boolean classLevel, boolean report) implements AutoCloseable {

        @Override
        public void close() {
            List<Thread> leaked = leakedSince(before, classLevel);
            if (leaked.isEmpty()) {
                return;
            }
            String message = message(what, leaked);
            if (report) {
                System.err.println("[lockstep.leaks=report] " + message);
            } else {
                throw new AssertionError(message);
            }
        }
    }

    /** The threads alive now, not in {@code before}, not exempt, still alive after the grace. */
    static List<Thread> leakedSince(Set<Thread> before, boolean classLevel) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(GRACE_MS);
        List<Thread> leaked = new ArrayList<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (before.contains(t) || t == Thread.currentThread() || exempt(t, classLevel)) {
                continue;
            }
            try {
                long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (left > 0) {
                    t.join(left);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (t.isAlive() && !exempt(t, classLevel)) {
                leaked.add(t);
            }
        }
        return leaked;
    }

    static boolean exempt(Thread t, boolean classLevel) {
        String name = t.getName();
        if (EXEMPT.matcher(name).matches() || !classLevel && DATABASE_HELPERS.matcher(name).matches()) {
            return true;
        }
        // An idle common-pool worker waits for work; one still running something is the test's task.
        return COMMON_POOL_WORKER.matcher(name).matches()
                && (t.getState() == Thread.State.WAITING || t.getState() == Thread.State.TIMED_WAITING)
                && Arrays.stream(t.getStackTrace()).limit(3).anyMatch(f -> f.getMethodName().equals("park")
                        || f.getMethodName().equals("awaitWork"));
    }

    static String message(String what, List<Thread> leaked) {
        StringBuilder sb = new StringBuilder(what).append(" left ").append(leaked.size())
                .append(leaked.size() == 1 ? " thread" : " threads")
                .append(" running (end what the test starts: shut executors down and await them, close feeds and pools):");
        for (Thread t : leaked) {
            sb.append("\n  '").append(t.getName()).append("' ").append(t.getState())
                    .append(t.isDaemon() ? " daemon" : " non-daemon");
            sb.append(Arrays.stream(t.getStackTrace()).limit(FRAMES).map(f -> "\n      at " + f)
                    .collect(Collectors.joining()));
        }
        return sb.toString();
    }
}
