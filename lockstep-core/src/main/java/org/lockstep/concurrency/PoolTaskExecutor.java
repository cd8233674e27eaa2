package org.lockstep.concurrency;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link TaskExecutor} on a small pool of daemon threads: results return through {@code callbacks} (the FX
 * thread's {@code Platform::runLater} in the application), once per task, never per row.
 */
public class PoolTaskExecutor implements TaskExecutor, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(PoolTaskExecutor.class);

    private final ExecutorService pool;
    private final Executor callbacks;

    /**
     * @param threads   how many calls may run at once; the connection pool bounds database calls anyway
     * @param callbacks the thread the callbacks run on
     */
    public PoolTaskExecutor(int threads, Executor callbacks) {
        AtomicInteger n = new AtomicInteger();
        ThreadFactory factory = r -> {
            Thread t = new Thread(r, "lockstep-db-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
        ThreadPoolExecutor fixed = new ThreadPoolExecutor(threads, threads, 0L, TimeUnit.MILLISECONDS,
                new LinkedBlockingQueue<>(), factory);
        // Its threads from the start, not from the first call: they are whoever made the executor's (a test
        // class's executor, not its first test's: ThreadLeakExtension), and an idle daemon thread costs nothing.
        fixed.prestartAllCoreThreads();
        this.pool = fixed;
        this.callbacks = callbacks;
    }

    @Override
    public <T> void run(Callable<T> work, Consumer<T> onSuccess, Consumer<Throwable> onFailure) {
        try {
            pool.execute(() -> call(work, onSuccess, onFailure));
        } catch (RejectedExecutionException closed) {
            // The application is closing: a heartbeat or poll that fires now has nobody left to answer.
            LOG.debug("Dropped a background task submitted after close");
        }
    }

    private <T> void call(Callable<T> work, Consumer<T> onSuccess, Consumer<Throwable> onFailure) {
        T result;
        try {
            result = work.call();
        } catch (Throwable e) {
            // The task logs it: at WARN when no callback handles it.
            callbacks.execute(() -> onFailure.accept(e));
            return;
        }
        callbacks.execute(() -> onSuccess.accept(result));
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
    public boolean closeAndWait(Duration patience) {
        pool.shutdown();
        try {
            return pool.awaitTermination(patience.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
