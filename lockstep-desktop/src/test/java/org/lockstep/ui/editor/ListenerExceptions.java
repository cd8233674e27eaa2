package org.lockstep.ui.editor;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Fails a test when a property listener threw: JavaFX hands an exception thrown inside a listener to the thread's
 * uncaught-exception handler instead of the code that changed the property, so a part's broken listener would
 * otherwise pass unseen. Register it with {@code @RegisterExtension}.
 */
final class ListenerExceptions implements BeforeEachCallback, AfterEachCallback {

    private final List<Throwable> thrown = new ArrayList<>();
    private Thread.UncaughtExceptionHandler previous;

    @Override
    public void beforeEach(ExtensionContext context) {
        previous = Thread.currentThread().getUncaughtExceptionHandler();
        Thread.currentThread().setUncaughtExceptionHandler((t, e) -> thrown.add(e));
    }

    @Override
    public void afterEach(ExtensionContext context) {
        Thread.currentThread().setUncaughtExceptionHandler(previous);
        assertThat(thrown).as("exceptions thrown inside listeners").isEmpty();
    }
}
