package org.lockstep.ui.editor;

import java.util.concurrent.Callable;
import java.util.function.Consumer;
import org.lockstep.concurrency.TaskExecutor;
import org.lockstep.ui.QueuedTaskExecutor;

/**
 * A task executor for an editor's calls that runs each on the test's thread at once, as
 * {@link TaskExecutor#sameThread()}, until the test {@link #hold() holds} them: then they wait, so that a save is in
 * flight while the test types and saves again, until {@link #release()} runs them (and what they start) in order.
 */
final class HeldCalls implements TaskExecutor {

    private final QueuedTaskExecutor held = new QueuedTaskExecutor();
    private boolean holding;

    @Override
    public <T> void run(Callable<T> work, Consumer<T> onSuccess, Consumer<Throwable> onFailure) {
        if (holding) {
            held.run(work, onSuccess, onFailure);
        } else {
            TaskExecutor.sameThread().run(work, onSuccess, onFailure);
        }
    }

    /** Calls from now on wait for {@link #release()}. */
    void hold() {
        holding = true;
    }

    /** Runs every call waiting, and every call they start, in order; calls then run at once again. */
    void release() {
        held.runAll();
        holding = false;
    }

    /** How many calls wait. */
    int waiting() {
        return held.pending();
    }
}
