package org.lockstep.concurrency;

import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One piece of background work with its callbacks, built before it starts (JabRef's {@code BackgroundTask}):
 * {@code executor.task(work).onSuccess(...).onFailure(...).onFinished(...).start()}. The callbacks run on the
 * executor's callback thread. A failure without an {@link #onFailure} callback is logged at WARN, with the stack
 * trace, so that no failure disappears silently.
 *
 * @param <T> what the work returns
 */
public final class BackgroundTask<T> {

    private static final Logger LOG = LoggerFactory.getLogger(BackgroundTask.class);

    private final TaskExecutor executor;
    private final Callable<T> work;
    private Consumer<? super T> onSuccess = result -> {};
    private Consumer<Throwable> onFailure;
    private Runnable onFinished = () -> {};
    private String description = "run a background task";
    private boolean started;

    BackgroundTask(TaskExecutor executor, Callable<T> work) {
        this.executor = Objects.requireNonNull(executor, "executor");
        this.work = Objects.requireNonNull(work, "work");
    }

    /** Receives the result on the callback thread. */
    public BackgroundTask<T> onSuccess(Consumer<? super T> action) {
        this.onSuccess = Objects.requireNonNull(action);
        return this;
    }

    /** Receives what the work threw, on the callback thread; without it the failure is logged at WARN. */
    public BackgroundTask<T> onFailure(Consumer<Throwable> action) {
        this.onFailure = Objects.requireNonNull(action);
        return this;
    }

    /**
     * Runs after the success or failure callback, on the callback thread, and also when the task was cancelled (its
     * other callbacks then did not run): the place to count a call as settled.
     */
    public BackgroundTask<T> onFinished(Runnable action) {
        this.onFinished = Objects.requireNonNull(action);
        return this;
    }

    /** What the task does, in a few words, for the WARN line of an unhandled failure ("renew the lease"). */
    public BackgroundTask<T> describedAs(String what) {
        this.description = Objects.requireNonNull(what);
        return this;
    }

    /** Starts the work; call once. */
    public TaskHandle start() {
        if (started) {
            throw new IllegalStateException("A background task starts once");
        }
        started = true;
        Handle handle = new Handle();
        executor.run(() -> {
            if (handle.cancelled) {
                throw new CancellationException("cancelled before it began");
            }
            return work.call();
        }, result -> {
            try {
                if (!handle.cancelled) {
                    onSuccess.accept(result);
                }
            } finally {
                finish(handle);
            }
        }, failure -> {
            try {
                if (!handle.cancelled) {
                    failed(failure);
                }
            } finally {
                finish(handle);
            }
        });
        return handle;
    }

    private void failed(Throwable failure) {
        if (onFailure != null) {
            onFailure.accept(failure);
        } else {
            logUnhandled(description, failure);
        }
    }

    /** Logs a failure that no callback handles: at WARN, with its stack trace. */
    static void logUnhandled(String description, Throwable failure) {
        LOG.warn("Could not {}: {}", description, failure.toString(), failure);
    }

    private void finish(Handle handle) {
        handle.done = true;
        onFinished.run();
    }

    private static final class Handle implements TaskHandle {
        private volatile boolean cancelled;
        private volatile boolean done;

        @Override
        public void cancel() {
            cancelled = true;
        }

        @Override
        public boolean isCancelled() {
            return cancelled;
        }

        @Override
        public boolean isDone() {
            return done;
        }
    }
}
