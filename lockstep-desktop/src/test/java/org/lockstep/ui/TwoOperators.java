package org.lockstep.ui;

import java.util.concurrent.TimeoutException;
import javafx.application.Platform;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.lockstep.server.Database;
import org.lockstep.testing.db.TestDatabases;
import org.testfx.api.FxToolkit;

/**
 * Two operators, Alice and Bob, on one fresh database, as two Lockstep processes: each has a background executor of
 * its own and {@link EditorServices} of its own (quick lock timings, {@link Sessions#quickLocks()}); both deliver
 * results on the FX thread. The set-up the window tests share, registered as a static field:
 * <pre>{@code @RegisterExtension static final TwoOperators OPERATORS = new TwoOperators();}</pre>
 * The primary stage is registered before the class and everything is closed after it.
 */
public final class TwoOperators implements BeforeAllCallback, AfterAllCallback {

    private Database db;
    private FxTaskExecutor aliceExecutor;
    private FxTaskExecutor bobExecutor;
    private EditorServices alice;
    private EditorServices bob;

    @Override
    public void beforeAll(ExtensionContext context) throws TimeoutException {
        FxToolkit.registerPrimaryStage();
        db = TestDatabases.fresh();
        aliceExecutor = new FxTaskExecutor(2);
        bobExecutor = new FxTaskExecutor(2);
        alice = Sessions.services(db, "Alice", aliceExecutor, Platform::runLater, Sessions.quickLocks());
        bob = Sessions.services(db, "Bob", bobExecutor, Platform::runLater, Sessions.quickLocks());
    }

    @Override
    public void afterAll(ExtensionContext context) {
        aliceExecutor.close();
        bobExecutor.close();
        db.close();
    }

    /** The database both operators use. */
    public Database db() {
        return db;
    }

    /** Alice's services: her executor, her client session. */
    public EditorServices alice() {
        return alice;
    }

    /** Bob's services: his executor, his client session. */
    public EditorServices bob() {
        return bob;
    }
}
