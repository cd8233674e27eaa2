package org.lockstep.ui;

import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import javafx.application.Platform;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The production {@link TaskExecutor}: a small pool of daemon threads for database calls; results return through
 * {@link Platform#runLater(Runnable)}, once per task (never per row).
 */
public final class FxTaskExecutor implements TaskExecutor, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(FxTaskExecutor.class);

    private final ExecutorService pool;

    /** @param threads how many database calls may run at once; the connection pool bounds them anyway */
    public FxTaskExecutor(int threads) {
        AtomicInteger n = new AtomicInteger();
        ThreadFactory factory = r -> {
            Thread t = new Thread(r, "lockstep-db-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
        this.pool = Executors.newFixedThreadPool(threads, factory);
    }

    @Override
    public <T> void execute(Callable<T> work, Consumer<T> onSuccess, Consumer<Throwable> onFailure) {
        try {
            pool.execute(() -> run(work, onSuccess, onFailure));
        } catch (java.util.concurrent.RejectedExecutionException closed) {
            // The application is closing: a heartbeat or poll that fires now has nobody left to answer.
            LOG.debug("Dropped a background task submitted after close");
        }
    }

    private static <T> void run(Callable<T> work, Consumer<T> onSuccess, Consumer<Throwable> onFailure) {
        T result;
        try {
            result = work.call();
        } catch (Throwable e) {
            LOG.debug("Background task failed", e);
            Platform.runLater(() -> onFailure.accept(e));
            return;
        }
        Platform.runLater(() -> onSuccess.accept(result));
    }

    /** Stops taking work (work submitted later is dropped, its callbacks never run); calls in flight finish. */
    @Override
    public void close() {
        pool.shutdown();
    }

    /**
     * Stops taking work and waits until the calls already given have run (e.g. lease releases at exit), at most
     * {@code patience}.
     *
     * @return whether every call finished in time
     */
    public boolean closeAndWait(java.time.Duration patience) {
        pool.shutdown();
        try {
            return pool.awaitTermination(patience.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
