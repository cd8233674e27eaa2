package org.lockstep.ui;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.DeleteOutcome;
import org.lockstep.domain.SaveOutcome;
import org.lockstep.server.Database;
import org.lockstep.testing.CustomerBuilder;
import org.lockstep.testing.fx.WindowSessions;

/**
 * Operators on one fresh database, as separate Lockstep processes: Alice and Bob, each with a background executor
 * of their own and {@link EditorServices} of their own (quick lock timings, {@link Sessions#quickLocks()}), both
 * delivering results on the FX thread; and Carol, a third, whose saves come in between. The set-up that window tests
 * and merge tests share, registered as a static field:
 * <pre>{@code @RegisterExtension static final TwoOperators OPERATORS = new TwoOperators();}</pre>
 * It opens before the class and closes after it (after the class's own {@code @AfterAll} methods); its test class is
 * a {@code @DatabaseTest}, and a {@code @WindowTest} when it opens windows. {@link #open()} opens one outside JUnit
 * (the previews). It is built on {@link WindowSessions}, which other window tests register themselves. Each customer
 * made by {@link #loaded} gets its own external ref, so that tests can share the database.
 */
public final class TwoOperators implements BeforeAllCallback, AfterAllCallback, AutoCloseable {

    private static final AtomicInteger REFS = new AtomicInteger();

    private WindowSessions sessions;
    private EditorServices alice;
    private EditorServices bob;
    private EditorServices carol;

    /** Operators to register as an extension: they open before the test class. */
    public TwoOperators() {
    }

    /** Operators opened now, for use outside JUnit; {@link #close()} them. */
    public static TwoOperators open() {
        TwoOperators operators = new TwoOperators();
        operators.start();
        return operators;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        start();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        close();
    }

    private void start() {
        sessions = WindowSessions.open();
        alice = sessions.operator("Alice", sessions.executor(2));
        bob = sessions.operator("Bob", sessions.executor(2));
        carol = sessions.operator("Carol", sessions.executor(1));
    }

    /** Closes the executors (each awaited: a call in flight must not fail on a closed pool), then the database. */
    @Override
    public void close() {
        sessions.close();
    }

    /** The database the operators use. */
    public Database db() {
        return sessions.db();
    }

    /** Alice's services: her executor, her client session. */
    public EditorServices alice() {
        return alice;
    }

    /** Bob's services: his executor, his client session. */
    public EditorServices bob() {
        return bob;
    }

    /** Carol's services: a third operator, who saves in between. */
    public EditorServices carol() {
        return carol;
    }

    /** Alice creates a customer (with a fresh external ref); the result is what Bob's editor loads: his base. */
    public Customer loaded(CustomerBuilder builder) {
        return alice.customers().create(builder.with(CustomerField.EXTERNAL_REF, "OPS-" + REFS.incrementAndGet())
                .build());
    }

    /** {@code who} saves an edit of the record as it is now; returns the saved record. */
    public Customer saves(EditorServices who, long id, UnaryOperator<CustomerData> edit) {
        Customer now = read(id);
        SaveOutcome outcome = who.customers().save(id, now.version(), edit.apply(now.data()));
        assertThat(outcome).isInstanceOf(SaveOutcome.Saved.class);
        return ((SaveOutcome.Saved) outcome).saved();
    }

    /** Bob saves his values on his stale base: the zero-row save that opens the merge. */
    public SaveOutcome.Conflict bobSaves(Customer base, CustomerData mine) {
        SaveOutcome outcome = bob.customers().save(base.id(), base.version(), mine);
        assertThat(outcome).isInstanceOf(SaveOutcome.Conflict.class);
        return (SaveOutcome.Conflict) outcome;
    }

    /** Bob deletes on his stale base: the zero-row delete that opens the delete conflict. */
    public DeleteOutcome.Conflict bobDeletes(Customer base) {
        DeleteOutcome outcome = bob.customers().delete(base.id(), base.version());
        assertThat(outcome).isInstanceOf(DeleteOutcome.Conflict.class);
        return (DeleteOutcome.Conflict) outcome;
    }

    /** The record as the database holds it now. */
    public Customer read(long id) {
        return alice.customers().find(id).orElseThrow(() -> new AssertionError("customer " + id + " is gone"));
    }
}
