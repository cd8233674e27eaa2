package org.lockstep.concurrency;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.function.Consumer;

/**
 * The background work of one view that shows one thing at a time (a record, a query): results that arrive after
 * the view moved on are dropped, and the scope says whether anything is in flight ("busy"). This replaces
 * hand-written generation counters ({@code if (gen != generation) return;}).
 *
 * <p>{@link #renew()} starts a new generation: every task started before it is cancelled (its callbacks never run),
 * though it still counts as in flight until its work has returned, so that "busy" stays honest. A result that must be
 * handled even when stale (a save that did commit) takes a {@link #stamp()} instead and asks it
 * {@link Stamp#isCurrent()}.
 *
 * <p>Confined to the callback thread (the FX thread), like the view model that owns it.
 */
public final class TaskScope {

    private final TaskExecutor executor;
    private final List<TaskHandle> current = new ArrayList<>();
    private final List<Consumer<Boolean>> busyListeners = new ArrayList<>();
    private int inFlight;
    private int generation;

    /** @param executor where this scope's tasks run */
    public TaskScope(TaskExecutor executor) {
        this.executor = Objects.requireNonNull(executor, "executor");
    }

    /** A generation of this scope, to ask later whether the view still shows what a call was made for. */
    public final class Stamp {
        private final int of;

        private Stamp(int of) {
            this.of = of;
        }

        /** Whether no {@link TaskScope#renew()} happened since this stamp was taken. */
        public boolean isCurrent() {
            return of == generation;
        }
    }

    /** The current generation. */
    public Stamp stamp() {
        return new Stamp(generation);
    }

    /**
     * A task of this scope: dropped by the next {@link #renew()} or {@link #close()}, counted as in flight until its
     * work returns. Give it callbacks, then start it.
     */
    public <T> ScopedTask<T> task(Callable<T> work) {
        return new ScopedTask<>(executor.task(work));
    }

    /** Shortcut for {@code task(work).onSuccess(onSuccess).onFailure(onFailure).start()}. */
    public <T> TaskHandle execute(Callable<T> work, Consumer<? super T> onSuccess, Consumer<Throwable> onFailure) {
        return task(work).onSuccess(onSuccess).onFailure(onFailure).start();
    }

    /**
     * Like {@link #execute} but outside the generations: the task counts as busy, yet {@link #renew()} does not drop
     * its result (a save whose commit must be reported even when the view moved on). Check a {@link #stamp()}.
     */
    public <T> TaskHandle executeTracked(Callable<T> work, Consumer<? super T> onSuccess,
            Consumer<Throwable> onFailure) {
        return new ScopedTask<>(executor.task(work), false).onSuccess(onSuccess).onFailure(onFailure).start();
    }

    /** The view moved on: drops the results of every task started so far; a new generation begins. */
    public void renew() {
        generation++;
        current.forEach(TaskHandle::cancel);
        current.clear();
    }

    /** The view closes: as {@link #renew()}. */
    public void close() {
        renew();
    }

    /** Whether any task of this scope (current or dropped) is still running. */
    public boolean busy() {
        return inFlight > 0;
    }

    /** Receives {@code true} when the first task starts and {@code false} when the last one is done. */
    public void onBusyChanged(Consumer<Boolean> listener) {
        busyListeners.add(Objects.requireNonNull(listener));
    }

    private void started() {
        inFlight++;
        if (inFlight == 1) {
            busyListeners.forEach(l -> l.accept(true));
        }
    }

    private void finished(TaskHandle handle) {
        current.remove(handle);
        inFlight--;
        if (inFlight == 0) {
            busyListeners.forEach(l -> l.accept(false));
        }
    }

    /**
     * A {@link BackgroundTask} that belongs to a {@link TaskScope}. The scope counts it as settled before its success
     * or failure callback runs, so that a callback reading {@link TaskScope#busy()} learns whether <em>another</em>
     * call is still in flight.
     */
    public final class ScopedTask<T> {
        private final BackgroundTask<T> task;
        private final boolean dropOnRenew;
        private Consumer<? super T> onSuccess = result -> {};
        private Consumer<Throwable> onFailure;
        private Runnable onFinished = () -> {};
        private String description = "run a background task";
        private TaskHandle handle;
        private boolean settled;

        private ScopedTask(BackgroundTask<T> task) {
            this(task, true);
        }

        private ScopedTask(BackgroundTask<T> task, boolean dropOnRenew) {
            this.task = task;
            this.dropOnRenew = dropOnRenew;
        }

        /** As {@link BackgroundTask#onSuccess}. */
        public ScopedTask<T> onSuccess(Consumer<? super T> action) {
            onSuccess = Objects.requireNonNull(action);
            return this;
        }

        /** As {@link BackgroundTask#onFailure}; {@code null} or never called: the failure is logged at WARN. */
        public ScopedTask<T> onFailure(Consumer<Throwable> action) {
            onFailure = action;
            return this;
        }

        /** Runs once the work returned, current or dropped, after the scope counted it as settled. */
        public ScopedTask<T> onFinished(Runnable action) {
            onFinished = Objects.requireNonNull(action);
            return this;
        }

        /** As {@link BackgroundTask#describedAs}. */
        public ScopedTask<T> describedAs(String what) {
            description = Objects.requireNonNull(what);
            return this;
        }

        /** Starts the task in its scope. */
        public TaskHandle start() {
            started();
            task.onSuccess(result -> {
                settle();
                onSuccess.accept(result);
            }).onFailure(failure -> {
                settle();
                if (onFailure != null) {
                    onFailure.accept(failure);
                } else {
                    BackgroundTask.logUnhandled(description, failure);
                }
            }).onFinished(() -> {
                settle();
                onFinished.run();
            });
            handle = task.start();
            if (dropOnRenew && !settled) {
                current.add(handle);
            }
            return handle;
        }

        private void settle() {
            if (!settled) {
                settled = true;
                finished(handle);
            }
        }
    }
}
