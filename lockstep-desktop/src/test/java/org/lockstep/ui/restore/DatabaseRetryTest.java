package org.lockstep.ui.restore;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.lockstep.testing.ManualClock;

/**
 * The attempts to reach the database after a start without it (issue 28), on a real thread of attempts, with the
 * test's thread as the FX thread: whatever the retry hands the FX thread waits in a queue the test runs.
 */
class DatabaseRetryTest {

    final ScheduledExecutorService attempts = Executors.newSingleThreadScheduledExecutor();
    final BlockingQueue<Runnable> fxThread = new LinkedBlockingQueue<>();
    final ManualClock clock = new ManualClock(Instant.parse("2026-12-04T10:15:30Z"));
    final AtomicInteger tries = new AtomicInteger();
    final List<String> connected = new ArrayList<>();
    final List<Exception> givenUp = new ArrayList<>();
    final List<String> late = new ArrayList<>();

    @AfterEach
    void endTheAttempts() throws InterruptedException {
        attempts.shutdownNow();
        assertThat(attempts.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }

    DatabaseRetry<String> retry(java.util.concurrent.Callable<String> attempt, Duration every) {
        return new DatabaseRetry<>(() -> {
            tries.incrementAndGet();
            return attempt.call();
        }, attempts, fxThread::add, every, clock, e -> e instanceof IllegalArgumentException);
    }

    /** Runs what reaches the FX thread until {@code done}, for at most 10 s. */
    void fxRunsUntil(BooleanSupplier done) throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!done.getAsBoolean()) {
            Runnable next = fxThread.poll(Math.max(1, until - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (next == null) {
                throw new AssertionError("nothing reached the FX thread in time");
            }
            next.run();
        }
    }

    @Test
    void failuresAreToldAndTriedAgainUntilTheDatabaseAnswers() throws InterruptedException {
        DatabaseRetry<String> retry = retry(() -> {
            if (tries.get() < 3) {
                throw new IllegalStateException("Connection refused (try " + tries.get() + ")");
            }
            return "backend";
        }, Duration.ofMillis(20));

        retry.start(new IllegalStateException("Connection refused at start"), connected::add, givenUp::add,
                late::add);

        assertThat(retry.reasonProperty().get()).isEqualTo("Connection refused at start");
        assertThat(retry.statusProperty().get()).isEqualTo("Not reachable at 10:15:30 AM; trying again every 0 s.");
        fxRunsUntil(() -> !connected.isEmpty());
        assertThat(connected).containsExactly("backend");
        assertThat(tries).hasValue(3);
        assertThat(retry.reasonProperty().get()).isEqualTo("Connection refused (try 2)");
        assertThat(givenUp).isEmpty();
    }

    @Test
    void aFailureWaitingDoesNotMendEndsTheAttempts() throws InterruptedException {
        DatabaseRetry<String> retry = retry(() -> {
            throw new IllegalArgumentException("Not a PostgreSQL JDBC URL");
        }, Duration.ofMillis(20));

        retry.start(new IllegalStateException("Connection refused"), connected::add, givenUp::add, late::add);
        fxRunsUntil(() -> !givenUp.isEmpty());

        assertThat(givenUp).singleElement().extracting(Exception::getMessage)
                .isEqualTo("Not a PostgreSQL JDBC URL");
        assertThat(retry.statusProperty().get()).isEmpty();
        retry.tryNow();
        assertThat(fxThread.poll(200, TimeUnit.MILLISECONDS)).as("no attempt after giving up").isNull();
        assertThat(tries).hasValue(1);
    }

    @Test
    void tryNowDoesNotWaitAndASuccessAfterStopIsHandedBackToBeClosed() throws InterruptedException {
        CountDownLatch answer = new CountDownLatch(1);
        DatabaseRetry<String> retry = retry(() -> {
            answer.await(10, TimeUnit.SECONDS);
            return "backend";
        }, Duration.ofHours(1));
        retry.start(new IllegalStateException("Connection refused"), connected::add, givenUp::add, late::add);

        retry.tryNow();
        fxRunsUntil(() -> "Trying to reach the database…".equals(retry.statusProperty().get()));
        retry.stop(); // the operator quit while the attempt was under way
        answer.countDown();
        fxRunsUntil(() -> !late.isEmpty());

        assertThat(late).containsExactly("backend");
        assertThat(connected).isEmpty();
        assertThat(tries).hasValue(1);
    }
}
