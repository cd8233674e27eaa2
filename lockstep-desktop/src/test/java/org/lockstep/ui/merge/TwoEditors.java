package org.lockstep.ui.merge;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import org.lockstep.server.Database;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.DeleteOutcome;
import org.lockstep.domain.SaveOutcome;
import org.lockstep.store.JdbiCustomerRepository;
import org.lockstep.store.JdbiHistoryRepository;
import org.lockstep.testing.CustomerBuilder;
import org.lockstep.testing.db.TestDatabases;

/**
 * Operators on one real database: Alice and Carol save through their own repositories while Bob, who loaded an
 * older version, runs into the conflict. Each customer gets its own external ref, so tests can share a database.
 */
final class TwoEditors implements AutoCloseable {

    private static final AtomicInteger REFS = new AtomicInteger();

    final Database db;
    final JdbiCustomerRepository alice;
    final JdbiCustomerRepository bob;
    final JdbiCustomerRepository carol;
    final JdbiHistoryRepository history;

    private TwoEditors(Database db) {
        this.db = db;
        this.alice = new JdbiCustomerRepository(db.jdbi(), "Alice");
        this.bob = new JdbiCustomerRepository(db.jdbi(), "Bob");
        this.carol = new JdbiCustomerRepository(db.jdbi(), "Carol");
        this.history = new JdbiHistoryRepository(db.jdbi());
    }

    /** A fresh, migrated database. */
    static TwoEditors open() {
        return new TwoEditors(TestDatabases.fresh());
    }

    /** Alice creates a customer (with a fresh external ref); the result is what Bob's editor loads: his base. */
    Customer loaded(CustomerBuilder builder) {
        return alice.create(builder.with(CustomerField.EXTERNAL_REF, "MERGE-" + REFS.incrementAndGet()).build());
    }

    /** Someone saves an edit of the record as it is now; returns the saved record. */
    Customer saves(JdbiCustomerRepository who, long id, UnaryOperator<CustomerData> edit) {
        Customer now = read(id);
        SaveOutcome outcome = who.save(id, now.version(), edit.apply(now.data()));
        assertThat(outcome).isInstanceOf(SaveOutcome.Saved.class);
        return ((SaveOutcome.Saved) outcome).saved();
    }

    /** Bob saves his values on his stale base: the zero-row save that opens the merge. */
    SaveOutcome.Conflict bobSaves(Customer base, CustomerData mine) {
        SaveOutcome outcome = bob.save(base.id(), base.version(), mine);
        assertThat(outcome).isInstanceOf(SaveOutcome.Conflict.class);
        return (SaveOutcome.Conflict) outcome;
    }

    /** Bob deletes on his stale base: the zero-row delete that opens the delete conflict. */
    DeleteOutcome.Conflict bobDeletes(Customer base) {
        DeleteOutcome outcome = bob.delete(base.id(), base.version());
        assertThat(outcome).isInstanceOf(DeleteOutcome.Conflict.class);
        return (DeleteOutcome.Conflict) outcome;
    }

    /** The record as the database holds it now. */
    Customer read(long id) {
        return alice.find(id).orElseThrow(() -> new AssertionError("customer " + id + " is gone"));
    }

    @Override
    public void close() {
        db.close();
    }
}
