package org.lockstep.domain;

import java.util.ArrayList;
import java.util.List;

/**
 * Tells a read in flight that nobody wants its answer any more, so that the database stops working on it: the
 * customer list cancels the search the operator has typed past (the store sends the server a cancel request for the
 * running statement, pgjdbc's {@code Statement.cancel}; PostgreSQL docs, 55.2.8 "Canceling Requests in Progress").
 * Only reads take one: a write cancelled on the way would leave its outcome unknown.
 *
 * <p>Plain Java, in the domain so that the repository interfaces can take it. Thread-safe: the FX thread cancels,
 * a pool thread runs the read.
 */
public final class CancelSignal {

    /** A signal never cancelled, for callers that cannot be superseded (the CLI, a benchmark). */
    public static final CancelSignal NONE = new CancelSignal(false);

    private final boolean cancellable;
    private final List<Runnable> hooks = new ArrayList<>();
    private boolean cancelled;

    /** A signal not yet cancelled. */
    public CancelSignal() {
        this(true);
    }

    private CancelSignal(boolean cancellable) {
        this.cancellable = cancellable;
    }

    /** Cancels: runs every registered hook once, now, on this thread. Idempotent; does nothing on {@link #NONE}. */
    public void cancel() {
        List<Runnable> toRun;
        synchronized (this) {
            if (!cancellable || cancelled) {
                return;
            }
            cancelled = true;
            toRun = List.copyOf(hooks);
            hooks.clear();
        }
        toRun.forEach(Runnable::run);
    }

    /** Whether {@link #cancel()} was called. */
    public synchronized boolean isCancelled() {
        return cancelled;
    }

    /**
     * Runs {@code hook} when this signal is cancelled — at once, on this thread, if it already was.
     *
     * @return what removes the hook again (once the work it would stop has ended)
     */
    public Runnable onCancel(Runnable hook) {
        synchronized (this) {
            if (!cancelled) {
                if (cancellable) {
                    hooks.add(hook);
                }
                return () -> remove(hook);
            }
        }
        hook.run();
        return () -> {};
    }

    private synchronized void remove(Runnable hook) {
        hooks.remove(hook);
    }
}
