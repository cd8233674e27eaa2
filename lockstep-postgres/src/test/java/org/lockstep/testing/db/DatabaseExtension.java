package org.lockstep.testing.db;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.lockstep.server.Database;

/**
 * One fresh, migrated database per test class, on the embedded server ({@link TestDatabases#fresh()}), closed after
 * the class. Register it as a static field:
 * <pre>{@code @RegisterExtension static final DatabaseExtension DB = new DatabaseExtension();}</pre>
 * and reach it through {@link #db()}. Tests that share it give their records unique keys.
 */
public final class DatabaseExtension implements BeforeAllCallback, AfterAllCallback {

    private Database db;

    @Override
    public void beforeAll(ExtensionContext context) {
        db = TestDatabases.fresh();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (db != null) {
            db.close();
            db = null;
        }
    }

    /** The test class's database; only between its before-all and after-all. */
    public Database db() {
        if (db == null) {
            throw new IllegalStateException("The database exists only while the test class runs");
        }
        return db;
    }
}
