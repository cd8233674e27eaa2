package org.lockstep.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.groups.Tuple.tuple;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.CustomerRepository;
import org.lockstep.domain.HistoryEntry;
import org.lockstep.domain.HistoryRepository;
import org.lockstep.domain.InvalidCustomerException;
import org.lockstep.domain.SaveOutcome;
import org.lockstep.domain.StoreUnavailableException;

/**
 * What every {@link HistoryRepository} promises about the history that customer writes leave, run against
 * {@code JdbiHistoryRepository} on PostgreSQL (in lockstep-postgres, where the triggers write it) and against the
 * {@link InMemoryHistoryRepository} of {@link InMemoryCustomerRepository} (here): when the fake drifts from the store,
 * a case fails for one of the two. Each case gets two clients of one store, Alice and Bob, the store's history and
 * customers of its own, so a store may be shared by the cases of a class.
 *
 * <p>Times are the store's clock: the cases compare them with the times the store stamped on the customers and with
 * each other, never with the test's clock. The timeline's {@link HistoryRepository#story} is not part of the contract:
 * the fake does not keep it (it says so by throwing), and {@code TimelineFromTheDatabaseTest} tests the store's.
 */
public abstract class HistoryRepositoryContractTest {

    CustomerRepository alice;
    CustomerRepository bob;
    HistoryRepository history;

    /** A new client of the one store every client of this test shares, acting as {@code user}. */
    protected abstract CustomerRepository client(String user);

    /** The history of that store. */
    protected abstract HistoryRepository history();

    @BeforeEach
    void aliceBobAndTheHistory() {
        alice = client("Alice");
        bob = client("Bob");
        history = history();
    }

    /** A valid customer with an external ref of its own (the column is unique in the shared database). */
    private static CustomerData customer() {
        return aCustomer().with(CustomerField.EXTERNAL_REF, "H-" + UUID.randomUUID().toString().substring(0, 12))
                .build();
    }

    private static Customer saved(SaveOutcome outcome) {
        assertThat(outcome).isInstanceOf(SaveOutcome.Saved.class);
        return ((SaveOutcome.Saved) outcome).saved();
    }

    /** Saves {@code city} over the customer's current version, as {@code writer}. */
    private static Customer saveCity(CustomerRepository writer, Customer now, String city) {
        return saved(writer.save(now.id(), now.version(), now.data().with(CustomerField.CITY, city)));
    }

    @Test
    void aCreateIsAnInsertOfVersionOneByItsUserWithTheValuesCreated() {
        Customer created = alice.create(customer());

        List<HistoryEntry> entries = history.history(created.id());

        assertThat(entries).extracting(HistoryEntry::customerId, HistoryEntry::version, HistoryEntry::op,
                HistoryEntry::changedBy).containsExactly(tuple(created.id(), 1L, HistoryEntry.Op.INSERT, "Alice"));
        HistoryEntry insert = entries.get(0);
        assertThat(insert.before()).isEmpty();
        assertThat(insert.after().orElseThrow().sameValues(created.data())).isTrue();
        assertThat(insert.changedAt()).isEqualTo(created.updatedAt());
    }

    @Test
    void aSaveIsAnUpdateOfTheNewVersionByItsUserWithTheValuesBeforeAndAfter() {
        Customer created = alice.create(customer());

        Customer v2 = saveCity(bob, created, "Curitiba");

        List<HistoryEntry> entries = history.history(created.id());
        assertThat(entries).extracting(HistoryEntry::version, HistoryEntry::op, HistoryEntry::changedBy)
                .containsExactly(tuple(1L, HistoryEntry.Op.INSERT, "Alice"), tuple(2L, HistoryEntry.Op.UPDATE, "Bob"));
        HistoryEntry update = entries.get(1);
        assertThat(update.before().orElseThrow().sameValues(created.data())).isTrue();
        assertThat(update.after().orElseThrow().sameValues(v2.data())).isTrue();
        assertThat(update.after().orElseThrow().city()).isEqualTo("Curitiba");
        assertThat(update.changedAt()).isEqualTo(v2.updatedAt()).isAfterOrEqualTo(entries.get(0).changedAt());
    }

    @Test
    void anOverwriteIsAnUpdateTooWhoseBeforeIsTheSaveItLost() {
        Customer created = alice.create(customer());
        Customer bobs = saveCity(bob, created, "Curitiba");

        Customer alices = saved(alice.overwrite(created.id(), created.data().with(CustomerField.PHONE, "+55 2")));

        HistoryEntry last = history.history(created.id()).get(2);
        assertThat(last.version()).isEqualTo(3);
        assertThat(last.op()).isEqualTo(HistoryEntry.Op.UPDATE);
        assertThat(last.changedBy()).isEqualTo("Alice");
        assertThat(last.before().orElseThrow().sameValues(bobs.data())).isTrue();
        assertThat(last.after().orElseThrow().sameValues(alices.data())).isTrue();
        assertThat(last.after().orElseThrow().city()).isEqualTo(created.data().city()); // Bob's city is lost
    }

    @Test
    void aRestoreIsAnUpdateThatNamesTheVersionItRestoredAndAPlainSaveNamesNone() {
        Customer created = alice.create(customer());
        Customer v2 = saveCity(bob, created, "Curitiba");
        Customer v3 = saveCity(bob, v2, "Manaus");

        Customer v4 = saved(alice.restoring(2).save(created.id(), v3.version(), v2.data()));

        assertThat(history.history(created.id())).extracting(HistoryEntry::version, HistoryEntry::op,
                HistoryEntry::changedBy, HistoryEntry::restoredFrom).containsExactly(
                        tuple(1L, HistoryEntry.Op.INSERT, "Alice", OptionalLong.empty()),
                        tuple(2L, HistoryEntry.Op.UPDATE, "Bob", OptionalLong.empty()),
                        tuple(3L, HistoryEntry.Op.UPDATE, "Bob", OptionalLong.empty()),
                        tuple(4L, HistoryEntry.Op.UPDATE, "Alice", OptionalLong.of(2)));
        assertThat(history.valuesAt(created.id(), 4).orElseThrow().sameValues(v2.data())).isTrue();
        assertThat(v4.data().city()).isEqualTo("Curitiba");
        // The store it came from still saves plainly.
        saveCity(alice, v4, "Recife");
        assertThat(history.history(created.id()).get(4).restoredFrom()).isEmpty();
    }

    @Test
    void aRestoreOfAVersionTheCustomerNeverHadIsRefusedAndWritesNothing() {
        Customer created = alice.create(customer());
        Customer v2 = saveCity(bob, created, "Curitiba");

        assertThatThrownBy(() -> alice.restoring(7).save(created.id(), v2.version(), created.data()))
                .isInstanceOf(StoreUnavailableException.class);
        assertThatThrownBy(() -> alice.restoring(3).overwrite(created.id(), created.data()))
                .as("not even the version this save would make").isInstanceOf(StoreUnavailableException.class);

        assertThat(history.history(created.id())).extracting(HistoryEntry::version).containsExactly(1L, 2L);
        assertThat(alice.find(created.id()).orElseThrow().version()).isEqualTo(2);
    }

    @Test
    void aDeleteIsTheVersionDeletedByItsUserWithItsValuesAndIsTheDeletion() {
        Customer created = alice.create(customer());
        Customer v2 = saveCity(alice, created, "Curitiba");

        bob.delete(created.id(), 2);

        List<HistoryEntry> entries = history.history(created.id());
        assertThat(entries).extracting(HistoryEntry::version, HistoryEntry::op, HistoryEntry::changedBy)
                .containsExactly(tuple(1L, HistoryEntry.Op.INSERT, "Alice"),
                        tuple(2L, HistoryEntry.Op.UPDATE, "Alice"), tuple(2L, HistoryEntry.Op.DELETE, "Bob"));
        HistoryEntry delete = entries.get(2);
        assertThat(delete.before().orElseThrow().sameValues(v2.data())).isTrue();
        assertThat(delete.after()).isEmpty();
        assertThat(delete.changedAt()).isAfterOrEqualTo(v2.updatedAt());
        assertThat(history.deletion(created.id())).contains(delete);
    }

    @Test
    void writesThatChangeNothingLeaveNoHistory() {
        Customer created = alice.create(customer());
        saveCity(alice, created, "Curitiba");

        assertThat(bob.save(created.id(), 1, created.data().with(CustomerField.PHONE, "+55 1")))
                .isInstanceOf(SaveOutcome.Conflict.class);
        bob.delete(created.id(), 1);
        assertThatThrownBy(() -> bob.save(created.id(), 2,
                created.data().with(CustomerField.CREDIT_LIMIT, new BigDecimal("-1"))))
                .isInstanceOf(InvalidCustomerException.class);
        assertThat(bob.saveUnderLease(created.id(), 2, created.data(), 42)).isInstanceOf(SaveOutcome.LeaseLost.class);
        bob.deleteUnderLease(created.id(), 2, 42);

        assertThat(history.history(created.id())).extracting(HistoryEntry::version, HistoryEntry::op)
                .containsExactly(tuple(1L, HistoryEntry.Op.INSERT), tuple(2L, HistoryEntry.Op.UPDATE));
        assertThat(history.deletion(created.id())).isEmpty();
    }

    @Test
    void valuesAtAVersionAreWhatItsChangeLeftEvenOnceTheCustomerIsDeleted() {
        Customer created = alice.create(customer());
        Customer v2 = saveCity(bob, created, "Curitiba");
        Customer v3 = saveCity(alice, v2, "Manaus");
        alice.delete(created.id(), 3);

        assertThat(history.valuesAt(created.id(), 1).orElseThrow().sameValues(created.data())).isTrue();
        assertThat(history.valuesAt(created.id(), 2).orElseThrow().city()).isEqualTo("Curitiba");
        assertThat(history.valuesAt(created.id(), 3).orElseThrow().sameValues(v3.data())).isTrue();
        assertThat(history.valuesAt(created.id(), 4)).isEmpty();
        assertThat(history.valuesAt(created.id(), 0)).isEmpty();
    }

    @Test
    void betweenIsTheChangesAfterTheFirstVersionUpToAndIncludingTheSecondOldestFirst() {
        Customer created = alice.create(customer());
        Customer v2 = saveCity(bob, created, "Curitiba");
        Customer v3 = saveCity(alice, v2, "Manaus");
        Customer v4 = saveCity(bob, v3, "Recife");
        alice.delete(created.id(), 4);

        assertThat(history.between(created.id(), 1, 3)).extracting(HistoryEntry::version, HistoryEntry::changedBy)
                .containsExactly(tuple(2L, "Bob"), tuple(3L, "Alice"));
        assertThat(history.between(created.id(), 0, 1)).extracting(HistoryEntry::op)
                .containsExactly(HistoryEntry.Op.INSERT);
        assertThat(history.between(created.id(), 3, 3)).isEmpty();
        assertThat(history.between(created.id(), 3, 4)).extracting(HistoryEntry::version, HistoryEntry::op)
                .containsExactly(tuple(4L, HistoryEntry.Op.UPDATE), tuple(4L, HistoryEntry.Op.DELETE));
        // The first entry of a range still has the values before it: its predecessor is outside the range.
        HistoryEntry first = history.between(created.id(), 2, 4).get(0);
        assertThat(first.before().orElseThrow().sameValues(v2.data())).isTrue();
        assertThat(first.after().orElseThrow().sameValues(v3.data())).isTrue();
        assertThat(history.between(created.id(), 3, 4).get(0).after().orElseThrow().sameValues(v4.data())).isTrue();
    }

    @Test
    void aCustomerThatExistsAndAnIdNeverUsedHaveNoDeletionAndTheLatterNoHistory() {
        Customer created = alice.create(customer());
        long neverUsed = Long.MAX_VALUE;

        assertThat(history.deletion(created.id())).isEmpty();
        assertThat(history.deletion(neverUsed)).isEmpty();
        assertThat(history.history(neverUsed)).isEmpty();
        assertThat(history.valuesAt(neverUsed, 1)).isEmpty();
        assertThat(history.between(neverUsed, 0, Long.MAX_VALUE)).isEmpty();
    }

    @Test
    void aWriterIdIsRecordedAsItsUser() {
        Customer created = alice.create(customer());

        saveCity(alice.asWriter("alice/editor-7"), created, "Curitiba");

        assertThat(history.history(created.id()).get(1).changedBy()).isEqualTo("Alice");
    }

    @Test
    void theHistoryOfACustomerHoldsNoneOfAnothers() {
        Customer a = alice.create(customer());
        Customer b = bob.create(customer());
        saveCity(bob, a, "Curitiba");
        saveCity(alice, b, "Manaus");
        bob.delete(b.id(), 2);

        assertThat(history.history(a.id())).extracting(HistoryEntry::customerId).containsOnly(a.id()).hasSize(2);
        assertThat(history.history(b.id())).extracting(HistoryEntry::customerId).containsOnly(b.id()).hasSize(3);
        assertThat(history.deletion(a.id())).isEmpty();
        assertThat(history.deletion(b.id()).map(HistoryEntry::changedBy)).isEqualTo(Optional.of("Bob"));
    }
}
