package org.lockstep.testing.leaks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;

/**
 * The extension on test classes run by JUnit's test kit, registered as every module's tests get it (auto-detection).
 * The fixture classes are nested and not named *Test, so Surefire does not run them itself; each leaked thread waits
 * on {@link #release}, opened (and the thread joined) after the fixture's run, so this test ends what it started.
 */
class ThreadLeakExtensionTest {

    static CountDownLatch release;
    static Thread leaked;

    @AfterEach
    void endTheLeakedThread() throws InterruptedException {
        release.countDown();
        if (leaked != null) {
            leaked.join(TimeUnit.SECONDS.toMillis(10));
            assertThat(leaked.isAlive()).isFalse();
        }
    }

    @Test
    void aTestLeavingAThreadRunningFailsNamingTheTestTheThreadItsStateAndWhereItWaits() {
        release = new CountDownLatch(1);

        EngineExecutionResults results = run(LeaksAThread.class);

        results.testEvents().assertStatistics(s -> s.started(2).succeeded(1).failed(1));
        Throwable failure = failureOf(results, "leaksAThread");
        assertThat(failure).isInstanceOf(AssertionError.class);
        assertThat(failure.getMessage()).contains("Test LeaksAThread.leaksAThread()", "left 1 thread running",
                "'leaky-worker' WAITING non-daemon", "at java.base", "CountDownLatch.await");
    }

    @Test
    void aTaskStillRunningOnAPoolShutDownButNotAwaitedFailsTheTest() {
        release = new CountDownLatch(1);

        EngineExecutionResults results = run(LeavesATaskRunning.class);

        results.testEvents().assertStatistics(s -> s.started(1).failed(1));
        assertThat(failureOf(results, "shutsDownWithoutAwaiting").getMessage())
                .contains("'leaky-pool' WAITING daemon");
    }

    @Test
    void aTaskLeftRunningOnAPoolOlderThanTheTestFailsTheTestNotTheClass() {
        release = new CountDownLatch(1);

        EngineExecutionResults results = run(LeavesATaskOnItsClassesPool.class);

        results.testEvents().assertStatistics(s -> s.started(2).succeeded(1).failed(1));
        results.containerEvents().assertStatistics(s -> s.failed(0));
        assertThat(failureOf(results, "leavesATaskRunning").getMessage()).contains(
                "Test LeavesATaskOnItsClassesPool.leavesATaskRunning()",
                "left 1 task running on pool threads that were idle when it began", "'class-pool' WAITING",
                "CountDownLatch.await");
    }

    @Test
    void anExceptionThatReachesAThreadsHandlerFailsTheTestDuringWhichItArrived() {
        release = new CountDownLatch(0); // starts nothing that waits
        leaked = null;

        EngineExecutionResults results = run(ThrowsOnAThreadOfItsOwn.class);

        results.testEvents().assertStatistics(s -> s.started(2).succeeded(1).failed(1));
        Throwable failure = failureOf(results, "throwsWhereNoTestSeesIt");
        assertThat(failure.getMessage()).contains("Test ThrowsOnAThreadOfItsOwn.throwsWhereNoTestSeesIt()",
                "let 1 exception reach a thread's uncaught-exception handler while it ran",
                "in 'thrower': java.lang.IllegalStateException: nobody catches this");
        assertThat(failure.getCause()).isInstanceOf(IllegalStateException.class).hasMessage("nobody catches this");
    }

    @Test
    void aThreadStartedInBeforeAllFailsTheClass() {
        release = new CountDownLatch(1);

        EngineExecutionResults results = run(LeaksFromBeforeAll.class);

        results.testEvents().assertStatistics(s -> s.started(1).succeeded(1));
        results.containerEvents().assertStatistics(s -> s.failed(1));
        Throwable failure = results.containerEvents().failed().stream().findFirst()
                .flatMap(e -> e.getPayload(org.junit.platform.engine.TestExecutionResult.class))
                .flatMap(org.junit.platform.engine.TestExecutionResult::getThrowable).orElseThrow();
        assertThat(failure.getMessage()).contains("Test class LeaksFromBeforeAll", "'leaky-static'");
    }

    @Test
    void testsThatEndWhatTheyStartPassIncludingAPoolShutDownAMomentAgo() {
        release = new CountDownLatch(1);

        EngineExecutionResults results = run(CleansUp.class);

        results.allEvents().assertStatistics(s -> s.failed(0));
        results.testEvents().assertStatistics(s -> s.started(2).succeeded(2));
    }

    @Test
    void aDatabasesThreadsStartedInATestAreTheClassesAndFailItWhenTheyOutliveIt() {
        release = new CountDownLatch(1);

        EngineExecutionResults results = run(LeavesItsDatabasesThreadsRunning.class);

        results.testEvents().assertStatistics(s -> s.started(2).succeeded(2));
        results.containerEvents().assertStatistics(s -> s.failed(1));
        Throwable failure = results.containerEvents().failed().stream().findFirst()
                .flatMap(e -> e.getPayload(org.junit.platform.engine.TestExecutionResult.class))
                .flatMap(org.junit.platform.engine.TestExecutionResult::getThrowable).orElseThrow();
        assertThat(failure.getMessage()).contains("Test class LeavesItsDatabasesThreadsRunning", "left 2 threads",
                "'lockstep-announcer'", "'lockstep:connection-adder'");
    }

    @Test
    void aDatabasesThreadsStartedInATestAndEndedWithTheClassPass() {
        release = new CountDownLatch(1);

        EngineExecutionResults results = run(EndsItsDatabasesThreads.class);

        results.allEvents().assertStatistics(s -> s.failed(0));
        results.testEvents().assertStatistics(s -> s.started(1).succeeded(1));
    }

    @Test
    void onlyADatabasesThreadsAreTheClasses() {
        release = new CountDownLatch(0); // starts nothing to end
        leaked = null;
        assertThat(ThreadLeakExtension.DATABASE_HELPERS.matcher("lockstep-announcer").matches()).isTrue();
        assertThat(ThreadLeakExtension.DATABASE_HELPERS.matcher("HikariPool-3 housekeeper").matches()).isTrue();
        assertThat(ThreadLeakExtension.DATABASE_HELPERS.matcher("lockstep-lab:connection-closer").matches()).isTrue();
        assertThat(ThreadLeakExtension.DATABASE_HELPERS.matcher("lockstep-change-feed").matches()).isFalse();
        assertThat(ThreadLeakExtension.DATABASE_HELPERS.matcher("proxy-requests").matches()).isFalse();
    }

    @Test
    void aPoolWorkerBetweenRunWorkerAndItsQueuesWaitIsStartingOneParkedThereOrRunningATaskIsNot() {
        release = new CountDownLatch(0); // starts nothing to end
        leaked = null;
        StackTraceElement[] threadRun = {frame("java.lang.Thread", "run")};
        StackTraceElement[] inRunWorker = frames("java.util.concurrent.ThreadPoolExecutor.runWorker",
                "java.util.concurrent.ThreadPoolExecutor$Worker.run", "java.lang.Thread.run");
        StackTraceElement[] inGetTask = frames("jdk.internal.misc.Unsafe.park",
                "java.util.concurrent.LinkedBlockingQueue.take", "java.util.concurrent.ThreadPoolExecutor.getTask",
                "java.util.concurrent.ThreadPoolExecutor.runWorker",
                "java.util.concurrent.ThreadPoolExecutor$Worker.run", "java.lang.Thread.run");
        StackTraceElement[] runningATask = frames("java.util.concurrent.CountDownLatch.await",
                "org.example.Task.run", "java.util.concurrent.ThreadPoolExecutor.runWorker",
                "java.util.concurrent.ThreadPoolExecutor$Worker.run", "java.lang.Thread.run");
        StackTraceElement[] aThreadOfItsOwn = frames("java.util.concurrent.CountDownLatch.await",
                "org.example.Worker.lambda$start$0", "java.lang.Thread.run");

        assertThat(ThreadLeakExtension.starting(new StackTraceElement[0], Thread.State.RUNNABLE)).isTrue();
        assertThat(ThreadLeakExtension.starting(threadRun, Thread.State.RUNNABLE)).isTrue();
        assertThat(ThreadLeakExtension.starting(inRunWorker, Thread.State.RUNNABLE)).isTrue();
        assertThat(ThreadLeakExtension.starting(inGetTask, Thread.State.RUNNABLE)).isTrue();
        assertThat(ThreadLeakExtension.starting(inGetTask, Thread.State.WAITING)).isFalse();
        assertThat(ThreadLeakExtension.starting(inGetTask, Thread.State.TIMED_WAITING)).isFalse();
        assertThat(ThreadLeakExtension.starting(runningATask, Thread.State.WAITING)).isFalse();
        assertThat(ThreadLeakExtension.starting(runningATask, Thread.State.RUNNABLE)).isFalse();
        assertThat(ThreadLeakExtension.starting(aThreadOfItsOwn, Thread.State.RUNNABLE)).isFalse();
    }

    /** A worker running a task is not parked for work, whatever it waits on inside the task. */
    @Test
    void aWorkerRunningATaskIsNotParkedForWork() throws Exception {
        release = new CountDownLatch(1);
        leaked = null;
        CountDownLatch running = new CountDownLatch(1);
        ExecutorService pool = Executors.newSingleThreadExecutor(r -> new Thread(r, "task-runner"));
        try {
            Thread[] worker = new Thread[1];
            pool.execute(() -> {
                worker[0] = Thread.currentThread();
                running.countDown();
                awaitRelease();
            });
            assertThat(running.await(10, TimeUnit.SECONDS)).isTrue();

            assertThat(ThreadLeakExtension.parkedForWork(worker[0])).isFalse();
        } finally {
            release.countDown();
            pool.shutdown();
            assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        }
    }

    private static StackTraceElement frame(String className, String method) {
        return new StackTraceElement(className, method, null, -1);
    }

    /** Frames from their qualified method names, innermost first. */
    private static StackTraceElement[] frames(String... methods) {
        return java.util.Arrays.stream(methods).map(m -> frame(m.substring(0, m.lastIndexOf('.')),
                m.substring(m.lastIndexOf('.') + 1))).toArray(StackTraceElement[]::new);
    }

    private static EngineExecutionResults run(Class<?> fixture) {
        return EngineTestKit.engine("junit-jupiter")
                .configurationParameter("junit.jupiter.extensions.autodetection.enabled", "true")
                .selectors(selectClass(fixture)).execute();
    }

    private static Throwable failureOf(EngineExecutionResults results, String method) {
        return results.testEvents().failed().stream()
                .filter(e -> e.getTestDescriptor().getDisplayName().startsWith(method))
                .map(Event::getPayload).flatMap(java.util.Optional::stream)
                .map(p -> ((org.junit.platform.engine.TestExecutionResult) p).getThrowable().orElseThrow())
                .findFirst().orElseThrow();
    }

    private static void awaitRelease() {
        try {
            release.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static class LeaksAThread {

        @Test
        void leaksAThread() {
            leaked = new Thread(ThreadLeakExtensionTest::awaitRelease, "leaky-worker");
            leaked.start();
        }

        @Test
        void startsNothing() {
        }
    }

    static class LeavesATaskRunning {

        @Test
        void shutsDownWithoutAwaiting() {
            ExecutorService pool = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "leaky-pool");
                t.setDaemon(true);
                leaked = t;
                return t;
            });
            pool.execute(ThreadLeakExtensionTest::awaitRelease);
            pool.shutdown();
        }
    }

    static class LeaksFromBeforeAll {

        @BeforeAll
        static void start() {
            leaked = new Thread(ThreadLeakExtensionTest::awaitRelease, "leaky-static");
            leaked.start();
        }

        @Test
        void passes() {
        }
    }

    /** A class's pool, started before its tests: a test leaves a task running on it, the class ends it. */
    @TestMethodOrder(MethodOrderer.OrderAnnotation.class)
    static class LeavesATaskOnItsClassesPool {

        static ThreadPoolExecutor pool;

        @BeforeAll
        static void start() {
            pool = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(),
                    r -> new Thread(r, "class-pool"));
            pool.prestartAllCoreThreads(); // its worker may still be starting when the first test begins
        }

        @AfterAll
        static void stop() throws InterruptedException {
            release.countDown();
            pool.shutdown();
            assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        }

        @Test
        @Order(1)
        void leavesATaskRunning() {
            pool.execute(ThreadLeakExtensionTest::awaitRelease);
        }

        @Test
        @Order(2)
        void waitsForItsOwnTask() throws Exception {
            release.countDown();
            pool.submit(() -> 1).get(10, TimeUnit.SECONDS);
        }
    }

    /** An exception on a thread the test started and joined: no test code sees it but its handler. */
    @TestMethodOrder(MethodOrderer.OrderAnnotation.class)
    static class ThrowsOnAThreadOfItsOwn {

        @Test
        @Order(1)
        void throwsWhereNoTestSeesIt() throws InterruptedException {
            Thread thrower = new Thread(() -> {
                throw new IllegalStateException("nobody catches this");
            }, "thrower");
            thrower.start();
            thrower.join(TimeUnit.SECONDS.toMillis(10));
        }

        @Test
        @Order(2)
        void comesAfter() {
        }
    }

    /** Threads named as a database's: a test starting them passes, the class they outlive fails. */
    static class LeavesItsDatabasesThreadsRunning {

        @Test
        void announces() {
            leaked = new Thread(ThreadLeakExtensionTest::awaitRelease, "lockstep-announcer");
            leaked.start();
        }

        @Test
        void usesThePool() {
            Thread t = new Thread(ThreadLeakExtensionTest::awaitRelease, "lockstep:connection-adder");
            t.setDaemon(true); // ends with the latch opened by the outer test
            t.start();
        }
    }

    /** As a class's database closed after its tests: its announcer's thread ends with it. */
    static class EndsItsDatabasesThreads {

        static CountDownLatch closed;

        @AfterAll
        static void closeTheDatabase() throws InterruptedException {
            closed.countDown();
            leaked.join(TimeUnit.SECONDS.toMillis(5));
        }

        @Test
        void announces() {
            closed = new CountDownLatch(1);
            leaked = new Thread(() -> {
                try {
                    closed.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "lockstep-announcer");
            leaked.start();
        }
    }

    static class CleansUp {

        static ExecutorService shared;

        @BeforeAll
        static void start() {
            java.util.concurrent.ThreadPoolExecutor pool = (java.util.concurrent.ThreadPoolExecutor) Executors
                    .newFixedThreadPool(2);
            pool.prestartAllCoreThreads(); // the class's threads, not its first test's
            shared = pool;
        }

        @AfterAll
        static void stop() throws InterruptedException {
            shared.shutdown();
            assertThat(shared.awaitTermination(5, TimeUnit.SECONDS)).isTrue();
        }

        @Test
        void shutsDownAndAwaits() throws Exception {
            ExecutorService pool = Executors.newSingleThreadExecutor();
            pool.submit(() -> 1).get();
            pool.shutdown();
            assertThat(pool.awaitTermination(5, TimeUnit.SECONDS)).isTrue();
        }

        @Test
        void shutsDownAndLeavesTheEndToTheGrace() throws Exception {
            ExecutorService pool = Executors.newSingleThreadExecutor();
            CountDownLatch ran = new CountDownLatch(1);
            pool.execute(ran::countDown);
            ran.await();
            pool.shutdown();
            shared.submit(() -> 2).get();
        }
    }
}
