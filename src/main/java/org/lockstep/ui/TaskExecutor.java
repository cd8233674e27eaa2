package org.lockstep.ui;

import java.util.concurrent.Callable;
import java.util.function.Consumer;

/**
 * Runs database work off the JavaFX thread and hands the result back on it (JabRef's {@code TaskExecutor} idea).
 * Views and view models never call the database directly; they submit a {@link Callable} here. Tests inject
 * {@link #sameThread()} so that view-model tests run deterministically.
 */
public interface TaskExecutor {

    /**
     * Runs {@code work} in the background; then exactly one of {@code onSuccess} and {@code onFailure} runs on the
     * FX thread (or, for {@link #sameThread()}, on the caller's thread).
     *
     * @param work      the blocking call
     * @param onSuccess receives its result
     * @param onFailure receives what it threw
     */
    <T> void execute(Callable<T> work, Consumer<T> onSuccess, Consumer<Throwable> onFailure);

    /** An executor that runs everything at once on the calling thread; for tests of view models. */
    static TaskExecutor sameThread() {
        return new TaskExecutor() {
            @Override
            public <T> void execute(Callable<T> work, Consumer<T> onSuccess, Consumer<Throwable> onFailure) {
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
