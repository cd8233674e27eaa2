package org.lockstep.concurrency;

import java.util.concurrent.Callable;
import java.util.function.Consumer;

/**
 * Runs blocking work (database calls) off the UI thread and hands the result back on it (JabRef's
 * {@code TaskExecutor} and {@code BackgroundTask}). View models never call the database directly: they describe a
 * {@link BackgroundTask} ({@link #task}), give it callbacks and {@linkplain BackgroundTask#start() start} it, keeping
 * the returned {@link TaskHandle} to cancel it. A failure nobody handles is logged at WARN, never swallowed. Tests
 * inject {@link #sameThread()} so that view-model tests run deterministically.
 *
 * <p>Implementations provide one primitive, {@link #run}; everything else is built on it.
 */
public interface TaskExecutor {

    /**
     * Runs {@code work} in the background; then exactly one of {@code onSuccess} and {@code onFailure} runs on the
     * callback thread (the FX thread, or for {@link #sameThread()} the caller's thread). Callers use {@link #task} or
     * {@link #execute}; this is the primitive an implementation supplies.
     */
    <T> void run(Callable<T> work, Consumer<T> onSuccess, Consumer<Throwable> onFailure);

    /** Describes {@code work} as a task of this executor; give it callbacks, then {@link BackgroundTask#start()}. */
    default <T> BackgroundTask<T> task(Callable<T> work) {
        return new BackgroundTask<>(this, work);
    }

    /**
     * Runs {@code work} in the background; then exactly one of {@code onSuccess} and {@code onFailure} runs on the
     * callback thread, unless the returned handle was cancelled first.
     *
     * @param work      the blocking call
     * @param onSuccess receives its result
     * @param onFailure receives what it threw; {@code null}: nobody handles it, so it is logged at WARN
     * @return the handle, to cancel the task (its callbacks then never run)
     */
    default <T> TaskHandle execute(Callable<T> work, Consumer<T> onSuccess, Consumer<Throwable> onFailure) {
        BackgroundTask<T> task = task(work).onSuccess(onSuccess);
        if (onFailure != null) {
            task.onFailure(onFailure);
        }
        return task.start();
    }

    /** An executor that runs everything at once on the calling thread; for tests of view models. */
    static TaskExecutor sameThread() {
        return new TaskExecutor() {
            @Override
            public <T> void run(Callable<T> work, Consumer<T> onSuccess, Consumer<Throwable> onFailure) {
                T result;
                try {
                    result = work.call();
                } catch (Exception e) {
                    onFailure.accept(e);
                    return;
                }
                onSuccess.accept(result);
            }
        };
    }
}
