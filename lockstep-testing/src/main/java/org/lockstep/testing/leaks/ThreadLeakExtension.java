package org.lockstep.testing.leaks;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Fails a test that leaves a thread running which it started: a thread pool never shut down, a task still running
 * on one shut down but not awaited, a feed or timer never stopped; a test that leaves a task running on a pool thread
 * that was idle when it began; and a test during which an exception reached a thread's uncaught-exception handler —
 * the JavaFX Application Thread's among them, where a task left by one test used to throw into a later one (issue
 * 27). Registered for every module's tests by JUnit's auto-detection (this module's {@code META-INF/services} and
 * {@code junit-platform.properties}).
 *
 * <p>Before each test it notes the live threads, which of them are pool workers waiting for work (first letting a
 * worker still starting reach its queue's wait, at most {@link #SETTLE_MS} ms), and where the uncaught exceptions seen
 * so far end ({@link UncaughtExceptions}, installed as the JVM's default handler). When the
 * test is done — after its {@code @AfterEach} methods, the other extensions' callbacks and what they left in JUnit's
 * store to close (a {@code @DatabaseTest}'s databases) — it first lets the JavaFX Application Thread, where one runs,
 * run what the test queued there ({@link FxEvents}), so that an exception thrown there is this test's. Then every new
 * thread still alive is given a bounded grace to end ({@link Thread#join(long)}, at most {@link #GRACE_MS} ms in all
 * with the wait below: a pool shut down a moment ago), and every pool worker that was waiting for work when the test
 * began and is running a task now is given the same grace to finish it. Threads still alive, tasks still running and
 * exceptions that reached a handler while the test ran fail the test, named with their thread, state and top stack
 * frames (the first exception is the failure's cause). The same around a test class, for what its {@code @BeforeAll}
 * methods or static fixtures started: the class fails.
 *
 * <p>Exempt, because they are the JVM's or a library's, started once on first use and meant to live as long as the JVM,
 * owned by no test ({@link #EXEMPT}): the JavaFX toolkit's threads (started by the first window test, kept for the JVM
 * by TestFX/Monocle); pgjdbc's static cleaner and shared timer; the JDK's process reaper (a shared pool of
 * {@code Process}, its idle threads end after 60 s), common cleaner, attach listener and Java2D disposer (started by the first
 * image a screenshot test writes), JNA's cleaner, and the thread of a {@code java.lang.ref.Cleaner} a library keeps in
 * a static ({@code Cleaner-N}, seen first in {@code lockstep generate}); the timer of {@code java.util.prefs} (started
 * before the first test, see {@code JvmThreads}); idle workers of the JVM's common ForkJoinPool and of TestFX's
 * static {@code WaitForAsyncUtils} pool (shared pools whose idle workers end by themselves; one running a task is
 * the test's); JUnit's and Surefire's own threads. In a test (not its class) also the threads of the class's shared
 * database ({@link #DATABASE_HELPERS}): Hikari's pool helpers and Lockstep's announcer (the sender of a
 * {@code Database}'s change notifications, {@code org.lockstep.store.Announcer}), which a test using that database
 * starts lazily but which belong to the database; the class is checked for them once its database is closed
 * ({@code Database.close()} closes the pool and shuts the announcer down and awaits it), so a database a test opens
 * and never closes still fails its class. Nothing else: an Awaitility poller or a class's executor's thread started
 * lazily by a test is that test's (a class's pool starts its threads in {@code @BeforeAll}, e.g.
 * {@code prestartAllCoreThreads()}).
 *
 * <p>Report-only mode: {@code -Dlockstep.leaks=report} (a system property or JUnit configuration parameter) prints
 * the leaks to standard error instead of failing, to look at a module's leaks all at once. Every module's suite runs
 * with {@code fail} (the parent pom's {@code lockstep.leaks}).
 */
public final class ThreadLeakExtension implements BeforeAllCallback, BeforeEachCallback {

    /** How long, in all, threads that are ending may take to end before they count as leaked. */
    static final long GRACE_MS = 5_000;

    /** How often a busy pool worker is looked at again during the grace, ms. */
    static final long POLL_MS = 10;

    /**
     * How long, at most, a test's start waits for threads still starting (see {@link #starting}) before it notes which
     * pool workers are idle, ms. A worker started a moment ago reaches its queue within microseconds on an idle machine;
     * 2 s covers a loaded CI runner and fails the test, naming the thread, if even that is not enough.
     */
    static final long SETTLE_MS = 2_000;

    /** The most stack frames shown of a leaked thread. */
    static final int FRAMES = 8;

    /** The configuration parameter (or system property) that turns failing into reporting. */
    public static final String MODE = "lockstep.leaks";

    /** Threads owned by the JVM, a library or the test runner, not by a test: see the class comment. */
    static final Pattern EXEMPT = Pattern.compile(String.join("|",
            // JavaFX toolkit (Platform.startup once per JVM by TestFX/Monocle; never exited in tests)
            "JavaFX Application Thread", "JavaFX-Launcher", "QuantumRenderer-\\d+", "InvokeLaterDispatcher",
            "Prism Font Disposer", "Disposer", "Monocle.*", "Glass.*",
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

    /**
     * Workers of the JVM's shared pools, exempt while they wait for work: the common ForkJoinPool's, and TestFX's
     * static {@code WaitForAsyncUtils} pool (a cached pool for the JVM; idle threads end after 60 s).
     */
    private static final Pattern SHARED_POOL_WORKER = Pattern.compile(
            "ForkJoinPool\\.commonPool-worker-\\d+|testfx-async-pool-thread-\\d+");

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
        UncaughtExceptions.install();
        watch(context, "Test class " + context.getRequiredTestClass().getSimpleName(), true);
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        UncaughtExceptions.install();
        watch(context, "Test " + context.getRequiredTestClass().getSimpleName() + "." + context.getDisplayName(),
                false);
    }

    /**
     * Puts the check in the context's store: JUnit closes what a store holds after the context's after-callbacks,
     * latest first, so the check (put first, as auto-detected extensions come first) runs after everything else
     * the test or class closes.
     */
    private static void watch(ExtensionContext context, String what, boolean classLevel) {
        Map<Thread, StackTraceElement[]> now = settled(what);
        Set<Thread> idleWorkers = new HashSet<>();
        now.forEach((t, frames) -> {
            if (poolWorker(frames) && waitingForWork(frames)) {
                idleWorkers.add(t);
            }
        });
        boolean report = context.getConfigurationParameter(MODE).map("report"::equals).orElse(false);
        context.getStore(NAMESPACE).put(Check.class, new Check(what, new HashSet<>(now.keySet()), idleWorkers,
                UncaughtExceptions.mark(), classLevel, report));
    }

    /**
     * The live threads and their frames once none of them is still starting: a pool worker started a moment ago (by
     * {@code prestartAllCoreThreads()} in a class's {@code @BeforeAll}, say) that has not yet reached its queue's
     * wait is neither idle nor running a task, so noted then it would not be counted idle and a task the test later
     * leaves on it would go unreported (seen on CI under load, issue 27). Each such thread is looked at again every
     * {@link #POLL_MS} ms until it waits for work or runs a task, for at most {@link #SETTLE_MS} ms in all.
     *
     * @throws AssertionError naming the threads, if some are still starting after {@link #SETTLE_MS} ms
     */
    private static Map<Thread, StackTraceElement[]> settled(String what) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(SETTLE_MS);
        Map<Thread, StackTraceElement[]> now = new HashMap<>(Thread.getAllStackTraces());
        List<Thread> stillStarting = new ArrayList<>();
        for (Map.Entry<Thread, StackTraceElement[]> e : now.entrySet()) {
            Thread t = e.getKey();
            if (t == Thread.currentThread() || EXEMPT.matcher(t.getName()).matches()) {
                continue;
            }
            StackTraceElement[] frames = e.getValue();
            while (t.isAlive() && starting(frames, t.getState()) && deadline - System.nanoTime() > 0) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(POLL_MS));
                frames = t.getStackTrace();
            }
            if (t.isAlive() && starting(frames, t.getState())) {
                stillStarting.add(t);
            }
            e.setValue(frames);
        }
        if (!stillStarting.isEmpty()) {
            throw new AssertionError(what + " could not begin: " + stillStarting.size()
                    + (stillStarting.size() == 1 ? " thread was" : " threads were") + " still starting after "
                    + SETTLE_MS + " ms, so which pool workers are idle could not be told (a worker counts as idle once"
                    + " it waits for work in its queue; is the machine overloaded, or does a thread factory block?):"
                    + threads(stillStarting));
        }
        return now;
    }

    /**
     * Whether a thread with these frames and state is still starting: it has run none of its own code yet (no frames,
     * or only {@code java.lang.Thread}'s), or it is a {@code ThreadPoolExecutor}'s worker inside the pool's own code —
     * between {@code runWorker} and its queue's wait in {@code getTask} — and not parked there ({@code WAITING} or
     * {@code TIMED_WAITING}). A worker running a task (any other code called by {@code runWorker}) is not starting.
     * The frames come first and the state after, so a worker seen in {@code getTask} and given a task since is still
     * starting here, and settled when looked at again.
     */
    static boolean starting(StackTraceElement[] frames, Thread.State state) {
        if (Arrays.stream(frames).allMatch(f -> f.getClassName().equals("java.lang.Thread"))) {
            return true;
        }
        for (int i = 0; i < frames.length; i++) {
            if (frames[i].getClassName().equals("java.util.concurrent.ThreadPoolExecutor")
                    && frames[i].getMethodName().equals("runWorker")) {
                if (i == 0) {
                    return true; // in runWorker itself
                }
                if (!POOL_CODE.contains(frames[i - 1].getClassName())) {
                    return false; // runs a task
                }
                boolean parked = state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING;
                return !(parked && waitingForWork(frames));
            }
        }
        return false;
    }

    /** The classes whose code a {@code ThreadPoolExecutor}'s worker runs between tasks, called from runWorker. */
    private static final Set<String> POOL_CODE = Set.of("java.util.concurrent.ThreadPoolExecutor",
            "java.util.concurrent.ThreadPoolExecutor$Worker", "java.lang.Thread");

    /** The check of one test or class, run when JUnit closes its store. */
    record Check(String what, Set<Thread> before, Set<Thread> idleWorkers, int exceptionsMark, boolean classLevel,
            boolean report) implements AutoCloseable {

        @Override
        public void close() {
            FxEvents.drain();
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(GRACE_MS);
            List<Thread> leaked = leakedSince(before, classLevel, deadline);
            List<Thread> busy = busySince(idleWorkers, classLevel, deadline);
            List<UncaughtExceptions.Uncaught> thrown = UncaughtExceptions.takeSince(exceptionsMark);
            if (leaked.isEmpty() && busy.isEmpty() && thrown.isEmpty()) {
                return;
            }
            String message = message(what, leaked, busy, thrown);
            if (report) {
                System.err.println("[lockstep.leaks=report] " + message);
                return;
            }
            AssertionError failure = new AssertionError(message);
            thrown.stream().map(UncaughtExceptions.Uncaught::error).findFirst().ifPresent(failure::initCause);
            thrown.stream().skip(1).map(UncaughtExceptions.Uncaught::error).forEach(failure::addSuppressed);
            throw failure;
        }
    }

    /** The threads alive now, not in {@code before}, not exempt, still alive at {@code deadline}. */
    private static List<Thread> leakedSince(Set<Thread> before, boolean classLevel, long deadline) {
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

    /**
     * The pool workers among {@code idleWorkers} (waiting for work when the test began) that run a task now and
     * still do at {@code deadline}: a task the test submitted and left running, on a pool older than the test.
     */
    private static List<Thread> busySince(Set<Thread> idleWorkers, boolean classLevel, long deadline) {
        List<Thread> busy = new ArrayList<>();
        for (Thread t : idleWorkers) {
            if (t == Thread.currentThread() || EXEMPT.matcher(t.getName()).matches()
                    || !classLevel && DATABASE_HELPERS.matcher(t.getName()).matches()) {
                continue;
            }
            while (t.isAlive() && !parkedForWork(t) && System.nanoTime() < deadline) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(POLL_MS));
            }
            if (t.isAlive() && !parkedForWork(t) && t.getStackTrace().length > 0) {
                busy.add(t);
            }
        }
        return busy;
    }

    /**
     * Whether the worker is parked in its queue's wait. Being in {@code getTask} is not enough: a worker just handed
     * the test's task is still there, runnable, for a moment, and counted idle then the task it is about to run went
     * unreported (CI, quiet machine: ThreadLeakExtensionTest's task left on its class's pool passed). The state is
     * read before the frames, so a worker seen parked and handed a task since shows that task's frames, not getTask.
     */
    static boolean parkedForWork(Thread t) {
        Thread.State state = t.getState();
        return (state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING)
                && waitingForWork(t.getStackTrace());
    }

    static boolean exempt(Thread t, boolean classLevel) {
        String name = t.getName();
        if (EXEMPT.matcher(name).matches() || !classLevel && DATABASE_HELPERS.matcher(name).matches()) {
            return true;
        }
        // An idle worker of a shared pool waits for work; one still running something is the test's task, except
        // TestFX's launch of the JavaFX application, which lasts as long as the toolkit.
        if (!SHARED_POOL_WORKER.matcher(name).matches()) {
            return false;
        }
        StackTraceElement[] frames = t.getStackTrace();
        return waitingForWork(frames) || launchingFx(frames);
    }

    /**
     * Whether the frames are the JavaFX launcher's wait for the application to exit: TestFX's {@code FxToolkit} calls
     * {@code Application.launch} on its async pool once, when the first window test registers the primary stage,
     * and the call returns only when the toolkit ends, with the JVM.
     */
    static boolean launchingFx(StackTraceElement[] frames) {
        return Arrays.stream(frames).anyMatch(f -> f.getClassName().equals("com.sun.javafx.application.LauncherImpl")
                && f.getMethodName().equals("launchApplication"));
    }

    /** Whether the frames are a pool's worker thread's (a ThreadPoolExecutor's or a ForkJoinPool's). */
    static boolean poolWorker(StackTraceElement[] frames) {
        return Arrays.stream(frames)
                .anyMatch(f -> f.getClassName().equals("java.util.concurrent.ThreadPoolExecutor$Worker")
                        && f.getMethodName().equals("run")
                        || f.getClassName().equals("java.util.concurrent.ForkJoinWorkerThread")
                                && f.getMethodName().equals("run"));
    }

    /**
     * Whether the frames are a pool worker's waiting for its next task: in {@code ThreadPoolExecutor.getTask} (the
     * scheduled pools' too), or parked in {@code ForkJoinPool.awaitWork}.
     */
    static boolean waitingForWork(StackTraceElement[] frames) {
        return Arrays.stream(frames).anyMatch(f -> f.getClassName().equals("java.util.concurrent.ThreadPoolExecutor")
                && f.getMethodName().equals("getTask")
                || f.getClassName().equals("java.util.concurrent.ForkJoinPool")
                        && f.getMethodName().equals("awaitWork"));
    }

    private static String message(String what, List<Thread> leaked, List<Thread> busy,
            List<UncaughtExceptions.Uncaught> thrown) {
        StringBuilder sb = new StringBuilder(what);
        List<String> parts = new ArrayList<>();
        if (!leaked.isEmpty()) {
            parts.add(" left " + leaked.size() + (leaked.size() == 1 ? " thread" : " threads")
                    + " running (end what the test starts: shut executors down and await them, close feeds and pools):"
                    + threads(leaked));
        }
        if (!busy.isEmpty()) {
            parts.add(" left " + busy.size() + (busy.size() == 1 ? " task" : " tasks")
                    + " running on pool threads that were idle when it began (await or cancel what the test submits"
                    + " before it returns):" + threads(busy));
        }
        if (!thrown.isEmpty()) {
            StringBuilder t = new StringBuilder(" let " + thrown.size()
                    + (thrown.size() == 1 ? " exception" : " exceptions")
                    + " reach a thread's uncaught-exception handler while it ran (a task this test, or an earlier one,"
                    + " left behind threw; the first is this failure's cause):");
            for (UncaughtExceptions.Uncaught u : thrown) {
                t.append("\n  in '").append(u.thread()).append("': ").append(u.error());
            }
            parts.add(t.toString());
        }
        sb.append(String.join("\nand", parts));
        return sb.toString();
    }

    private static String threads(List<Thread> threads) {
        StringBuilder sb = new StringBuilder();
        for (Thread t : threads) {
            sb.append("\n  '").append(t.getName()).append("' ").append(t.getState())
                    .append(t.isDaemon() ? " daemon" : " non-daemon");
            sb.append(Arrays.stream(t.getStackTrace()).limit(FRAMES).map(f -> "\n      at " + f)
                    .collect(Collectors.joining()));
        }
        return sb.toString();
    }
}
