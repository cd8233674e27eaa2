package org.lockstep.testing.fx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import javafx.application.Platform;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The leak check (lockstep-testing's {@code ThreadLeakExtension}) on the JavaFX Application Thread, with test classes
 * run by JUnit's test kit as every module's tests get it (auto-detection), on the running toolkit: what a test queued
 * on the FX thread runs before the test counts as done, so an exception it throws there fails that test and not the
 * next; and a background task a test left running, which throws into the FX thread once a later test lets it go
 * (issue 27: a task a benchmark test left threw into an unrelated application test through TestFX), fails the test
 * that left it for the task, and the later one for the exception that reached it, whose message says an earlier test
 * may have left it. The fixture classes are nested and not named *Test, so Surefire does not run them itself.
 */
@WindowTest
class FxThreadLeaksTest {

    static CountDownLatch release;
    static ThreadPoolExecutor pool;

    @AfterEach
    void endTheFixturesPool() throws InterruptedException {
        release.countDown();
        if (pool != null) {
            pool.shutdown();
            assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
            pool = null;
        }
    }

    @Test
    void anExceptionATestsFxTaskThrowsFailsThatTestAndNotTheNext() {
        release = new CountDownLatch(0); // nothing waits

        EngineExecutionResults results = run(ThrowsOnTheFxThread.class);

        results.testEvents().assertStatistics(s -> s.started(2).succeeded(1).failed(1));
        Throwable failure = failureOf(results, "queuesATaskThatThrows");
        assertThat(failure.getMessage()).contains("Test ThrowsOnTheFxThread.queuesATaskThatThrows()",
                "let 1 exception reach a thread's uncaught-exception handler while it ran",
                "in 'JavaFX Application Thread': java.lang.IllegalStateException: thrown on the FX thread");
        assertThat(failure.getCause()).hasMessage("thrown on the FX thread");
    }

    @Test
    void aBackgroundTaskThatLaterThrowsIntoTheFxThreadFailsTheTestThatLeftIt() {
        release = new CountDownLatch(1);

        EngineExecutionResults results = run(LeavesATaskThatThrowsLater.class);

        results.testEvents().assertStatistics(s -> s.started(2).failed(2));
        assertThat(failureOf(results, "leavesABackgroundTask").getMessage()).contains(
                "Test LeavesATaskThatThrowsLater.leavesABackgroundTask()",
                "left 1 task running on pool threads that were idle when it began", "'background' WAITING");
        Throwable later = failureOf(results, "unrelated");
        assertThat(later.getMessage()).contains("Test LeavesATaskThatThrowsLater.unrelated()",
                "a task this test, or an earlier one, left behind threw",
                "in 'JavaFX Application Thread': java.lang.IllegalStateException: thrown late");
        results.containerEvents().assertStatistics(s -> s.failed(0));
    }

    private static EngineExecutionResults run(Class<?> fixture) {
        return EngineTestKit.engine("junit-jupiter")
                .configurationParameter("junit.jupiter.extensions.autodetection.enabled", "true")
                .configurationParameter("lockstep.leaks", "fail")
                .selectors(selectClass(fixture)).execute();
    }

    private static Throwable failureOf(EngineExecutionResults results, String method) {
        return results.testEvents().failed().stream()
                .filter(e -> e.getTestDescriptor().getDisplayName().startsWith(method))
                .map(Event::getPayload).flatMap(Optional::stream)
                .map(p -> ((TestExecutionResult) p).getThrowable().orElseThrow())
                .findFirst().orElseThrow();
    }

    private static void awaitRelease() {
        try {
            release.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @TestMethodOrder(MethodOrderer.OrderAnnotation.class)
    static class ThrowsOnTheFxThread {

        @Test
        @Order(1)
        void queuesATaskThatThrows() {
            Platform.runLater(() -> {
                throw new IllegalStateException("thrown on the FX thread");
            });
        }

        @Test
        @Order(2)
        void comesAfter() {
            WaitForAsyncUtils.waitForFxEvents(); // TestFX used to throw the first test's exception here
        }
    }

    /** A class's background pool: its first test leaves a task on it that, once let go, throws on the FX thread. */
    @TestMethodOrder(MethodOrderer.OrderAnnotation.class)
    static class LeavesATaskThatThrowsLater {

        @BeforeAll
        static void start() {
            pool = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(),
                    r -> new Thread(r, "background"));
            pool.prestartAllCoreThreads(); // its worker may still be starting when the first test begins
        }

        @AfterAll
        static void stop() throws InterruptedException {
            pool.shutdown();
            assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        }

        @Test
        @Order(1)
        void leavesABackgroundTask() {
            pool.execute(() -> {
                awaitRelease();
                Platform.runLater(() -> {
                    throw new IllegalStateException("thrown late");
                });
            });
        }

        @Test
        @Order(2)
        void unrelated() throws Exception {
            release.countDown();
            pool.submit(() -> 1).get(10, TimeUnit.SECONDS); // the task has handed its throw to the FX thread
        }
    }
}
