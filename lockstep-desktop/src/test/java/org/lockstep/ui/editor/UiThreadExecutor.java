package org.lockstep.ui.editor;

import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import org.lockstep.concurrency.TaskExecutor;

/**
 * A {@link TaskExecutor} for view-model tests that need real concurrency without a JavaFX toolkit: work runs on
 * background threads, callbacks on one "UI" thread, as {@code FxTaskExecutor} does with the FX thread. The test
 * drives the view model only through {@link #onUi(Callable)}.
 */
final class UiThreadExecutor implements TaskExecutor, AutoCloseable {

    private final ExecutorService ui = Executors.newSingleThreadExecutor(r -> new Thread(r, "test-ui"));
    private final ExecutorService background = Executors.newFixedThreadPool(4);

    @Override
    public <T> void run(Callable<T> work, Consumer<T> onSuccess, Consumer<Throwable> onFailure) {
        background.execute(() -> {
            try {
                T result = work.call();
                ui.execute(() -> onSuccess.accept(result));
            } catch (Exception e) {
                ui.execute(() -> onFailure.accept(e));
            }
        });
    }

    /** Runs {@code action} on the UI thread and returns its result. */
    <T> T onUi(Callable<T> action) {
        try {
            return ui.submit(action).get();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Runs {@code action} on the UI thread. */
    void onUi(Runnable action) {
        onUi(() -> {
            action.run();
            return null;
        });
    }

    @Override
    public void close() {
        background.shutdownNow();
        ui.shutdownNow();
    }
}
