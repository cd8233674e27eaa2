package org.lockstep.concurrency;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * The background-work seam the view models stand on: a task's handle cancels its callbacks, a scope drops results
 * that arrive after it moved on while still counting them as busy, and a failure nobody handles reaches the log at
 * WARN. Runs without a database or a JavaFX toolkit: the executor here holds each task until the test releases it.
 */
class TaskScopeTest {

    /** Holds tasks until {@link #release(int)}; then runs work and callback on the test's thread. */
    static final class HeldExecutor implements TaskExecutor {
        final List<Runnable> held = new ArrayList<>();

        @Override
        public <T> void run(Callable<T> work, Consumer<T> onSuccess, Consumer<Throwable> onFailure) {
            held.add(() -> TaskExecutor.sameThread().run(work, onSuccess, onFailure));
        }

        void release(int index) {
            held.get(index).run();
        }
    }

    @Test
    void aCancelledTaskRunsNeitherCallbackButStillFinishes() {
        HeldExecutor executor = new HeldExecutor();
        List<String> seen = new ArrayList<>();
        TaskHandle handle = executor.task(() -> "row").onSuccess(seen::add)
                .onFailure(e -> seen.add("failed")).onFinished(() -> seen.add("finished")).start();

        handle.cancel();
        executor.release(0);

        assertThat(seen).containsExactly("finished");
        assertThat(handle.isCancelled()).isTrue();
        assertThat(handle.isDone()).isTrue();
    }

    @Test
    void aScopeDropsAResultThatArrivesAfterItMovedOnAndKeepsTheCurrentOne() {
        HeldExecutor executor = new HeldExecutor();
        TaskScope scope = new TaskScope(executor);
        List<String> shown = new ArrayList<>();
        scope.execute(() -> "customer 1", shown::add, e -> shown.add("failed"));
        TaskScope.Stamp first = scope.stamp();

        scope.renew(); // the view now shows customer 2
        scope.execute(() -> "customer 2", shown::add, e -> shown.add("failed"));
        executor.release(1);
        executor.release(0);

        assertThat(shown).containsExactly("customer 2");
        assertThat(first.isCurrent()).isFalse();
        assertThat(scope.stamp().isCurrent()).isTrue();
    }

    @Test
    void busyCountsDroppedTasksUntilTheirWorkReturnsAndIsFalseInsideTheLastCallback() {
        HeldExecutor executor = new HeldExecutor();
        TaskScope scope = new TaskScope(executor);
        List<Boolean> changes = new ArrayList<>();
        scope.onBusyChanged(changes::add);
        List<Boolean> busyInCallback = new ArrayList<>();
        scope.execute(() -> 1, n -> busyInCallback.add(scope.busy()), null);
        scope.executeTracked(() -> 2, n -> busyInCallback.add(scope.busy()), null);

        scope.renew();
        assertThat(scope.busy()).isTrue();
        executor.release(0);
        assertThat(scope.busy()).isTrue();
        executor.release(1);

        assertThat(scope.busy()).isFalse();
        // The first was dropped by renew; the tracked one still reports, and sees nothing else in flight.
        assertThat(busyInCallback).containsExactly(false);
        assertThat(changes).containsExactly(true, false);
    }

    @Test
    void aFailureNobodyHandlesIsLoggedAtWarnWithWhatTheTaskDid() {
        Logger logger = (Logger) LoggerFactory.getLogger(BackgroundTask.class);
        ListAppender<ILoggingEvent> appender = new ListAppender<>();
        appender.start();
        logger.addAppender(appender);
        try {
            TaskExecutor.sameThread().task(() -> {
                throw new IllegalStateException("database away");
            }).describedAs("ask who holds the lease").start();
            new TaskScope(TaskExecutor.sameThread()).execute(() -> {
                throw new IllegalStateException("still away");
            }, r -> {}, null);
        } finally {
            logger.detachAppender(appender);
        }

        assertThat(appender.list).extracting(ILoggingEvent::getLevel).containsExactly(Level.WARN, Level.WARN);
        assertThat(appender.list.get(0).getFormattedMessage())
                .isEqualTo("Could not ask who holds the lease: java.lang.IllegalStateException: database away");
    }
}
