package org.lockstep.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.groups.Tuple.tuple;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.math.BigDecimal;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.lockstep.server.Database;
import org.lockstep.domain.AcquireOutcome;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.DeleteOutcome;
import org.lockstep.domain.HistoryEntry;
import org.lockstep.domain.InvalidCustomerException;
import org.lockstep.domain.SaveOutcome;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.FreshDatabase;

/**
 * "Last write wins (unsafe)" in the store: {@link JdbiCustomerRepository#overwrite} is the lost-update bug kept for
 * teaching. Two operators read the same version; both blind writes commit and the first one's change is gone without
 * any error, while the history still shows both. Another session's lease still stops it.
 */
@DatabaseTest
class JdbiCustomerRepositoryOverwriteTest {

    @FreshDatabase
    static Database db;
    static JdbiHistoryRepository history;

    @BeforeAll
    static void open() {
        history = new JdbiHistoryRepository(db.jdbi());
    }

    private static JdbiCustomerRepository operator(String name) {
        return new JdbiCustomerRepository(db.jdbi(), name, name + "-" + UUID.randomUUID());
    }

    private static Customer customer(String ref) {
        return operator("Setup").create(aCustomer().with(CustomerField.EXTERNAL_REF, ref).build());
    }

    private static CustomerData creditLimit(Customer read, String amount) {
        return read.data().with(CustomerField.CREDIT_LIMIT, new BigDecimal(amount));
    }

    @Test
    void twoOverwritesFromTheSameReadLetTheSecondWinAndLoseTheFirstWithoutAnyError() {
        Customer c = customer("LWW-1");
        JdbiCustomerRepository alice = operator("Alice");
        JdbiCustomerRepository bob = operator("Bob");
        Customer aliceRead = alice.find(c.id()).orElseThrow();
        Customer bobRead = bob.find(c.id()).orElseThrow();

        // Both add to the credit limit they read (1000): Alice +100, Bob +50.
        SaveOutcome first = alice.overwrite(c.id(), creditLimit(aliceRead, "1100"));
        SaveOutcome second = bob.overwrite(c.id(), creditLimit(bobRead, "1050"));

        assertThat(first).isInstanceOf(SaveOutcome.Saved.class);
        assertThat(second).isInstanceOf(SaveOutcome.Saved.class);
        assertThat(((SaveOutcome.Saved) second).saved().version()).isEqualTo(3);
        Customer now = operator("Reader").find(c.id()).orElseThrow();
        assertThat(now.version()).isEqualTo(3);
        assertThat(now.updatedBy()).isEqualTo("Bob");
        assertThat(now.data().creditLimit()).isEqualByComparingTo("1050"); // Alice's +100 is gone
        assertThat(history.history(c.id())).extracting(HistoryEntry::op, HistoryEntry::version,
                HistoryEntry::changedBy, e -> e.after().map(CustomerData::creditLimit).orElseThrow().intValueExact())
                .containsExactly(
                        tuple(HistoryEntry.Op.INSERT, 1L, "Setup", 1000),
                        tuple(HistoryEntry.Op.UPDATE, 2L, "Alice", 1100),
                        tuple(HistoryEntry.Op.UPDATE, 3L, "Bob", 1050));
        // Bob's write replaced Alice's value, not the one he had read: the history shows what was lost.
        assertThat(history.history(c.id()).get(2).before().orElseThrow().creditLimit()).isEqualByComparingTo("1100");
    }

    @Test
    void theSameTwoWritesAsVersionedSavesMakeTheSecondAConflict() {
        // The contrast the trainer draws: with the version check the second writer learns of the first.
        Customer c = customer("LWW-2");
        JdbiCustomerRepository alice = operator("Alice");
        JdbiCustomerRepository bob = operator("Bob");

        alice.overwrite(c.id(), creditLimit(c, "1100"));
        SaveOutcome versioned = bob.save(c.id(), c.version(), creditLimit(c, "1050"));

        assertThat(versioned).isInstanceOf(SaveOutcome.Conflict.class);
        assertThat(operator("Reader").find(c.id()).orElseThrow().data().creditLimit()).isEqualByComparingTo("1100");
    }

    @Test
    void anotherSessionsLeaseRefusesTheOverwriteAndNothingIsWritten() {
        Customer c = customer("LWW-3");
        String carolsSession = "Carol-" + UUID.randomUUID();
        AcquireOutcome granted = new JdbiLeaseRepository(db.jdbi(), "Carol", carolsSession).acquire(c.id(), 60_000);
        assertThat(granted).isInstanceOf(AcquireOutcome.Granted.class);

        SaveOutcome outcome = operator("Bob").overwrite(c.id(), creditLimit(c, "1050"));

        assertThat(outcome).isInstanceOfSatisfying(SaveOutcome.Locked.class, locked -> {
            assertThat(locked.holder().holder()).isEqualTo("Carol");
            assertThat(locked.holder().sessionId()).isEqualTo(carolsSession);
        });
        Customer now = operator("Reader").find(c.id()).orElseThrow();
        assertThat(now.version()).isEqualTo(1);
        assertThat(now.data().creditLimit()).isEqualByComparingTo("1000");
        assertThat(history.history(c.id())).extracting(HistoryEntry::op).containsExactly(HistoryEntry.Op.INSERT);
    }

    @Test
    void theWritersOwnLeaseDoesNotBlockItsOverwrite() {
        Customer c = customer("LWW-4");
        String session = "Alice-" + UUID.randomUUID();
        new JdbiLeaseRepository(db.jdbi(), "Alice", session).acquire(c.id(), 60_000);

        SaveOutcome outcome = new JdbiCustomerRepository(db.jdbi(), "Alice", session)
                .overwrite(c.id(), creditLimit(c, "1100"));

        assertThat(outcome).isInstanceOf(SaveOutcome.Saved.class);
        assertThat(operator("Reader").find(c.id()).orElseThrow().data().creditLimit()).isEqualByComparingTo("1100");
    }

    @Test
    void overwriteOfADeletedCustomerIsAConflictWithNothingThere() {
        Customer c = customer("LWW-5");
        JdbiCustomerRepository alice = operator("Alice");
        assertThat(alice.delete(c.id(), 1)).isEqualTo(new DeleteOutcome.Deleted(c.id()));

        SaveOutcome outcome = operator("Bob").overwrite(c.id(), creditLimit(c, "1050"));

        assertThat(outcome).isEqualTo(new SaveOutcome.Conflict(Optional.empty()));
        assertThat(alice.find(c.id())).isEmpty();
    }

    @Test
    void invalidValuesAreRejectedBeforeAnythingIsWritten() {
        Customer c = customer("LWW-6");

        assertThatThrownBy(() -> operator("Bob").overwrite(c.id(), c.data().with(CustomerField.EMAIL, "not-an-email")))
                .isInstanceOf(InvalidCustomerException.class)
                .satisfies(e -> assertThat(((InvalidCustomerException) e).errors().get(0).field())
                        .isEqualTo(CustomerField.EMAIL));
        assertThat(operator("Reader").find(c.id()).orElseThrow().version()).isEqualTo(1);
    }
}
