package org.lockstep.ui;

import org.lockstep.concurrency.TaskExecutor;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Consumer;

/**
 * A {@link TaskExecutor} for view-model tests that holds each submitted task until the test runs it, so a test can
 * make responses arrive in any order (e.g. a later query's before an earlier one's). A task runs its work and then
 * its callback on the test's thread, like {@link TaskExecutor#sameThread()}.
 */
public final class QueuedTaskExecutor implements TaskExecutor {

    private final List<Runnable> pending = new ArrayList<>();

    @Override
    public <T> void run(Callable<T> work, Consumer<T> onSuccess, Consumer<Throwable> onFailure) {
        pending.add(() -> TaskExecutor.sameThread().run(work, onSuccess, onFailure));
    }

    /** How many tasks wait. */
    public int pending() {
        return pending.size();
    }

    /** Takes the tasks waiting now, in submission order, without running them. */
    public List<Runnable> takeAll() {
        List<Runnable> taken = List.copyOf(pending);
        pending.clear();
        return taken;
    }

    /** Runs every waiting task, including tasks they submit, in submission order. */
    public void runAll() {
        while (!pending.isEmpty()) {
            pending.remove(0).run();
        }
    }
}
