package org.lockstep.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import org.jdbi.v3.core.Handle;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.lockstep.server.Database;
import org.lockstep.domain.ChangeEvent;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.FreshDatabase;

/** Marks of the customer history and what changed after them, including writes that committed out of id order. */
@DatabaseTest
class MissedChangesTest {

    @FreshDatabase
    Database db;
    JdbiCustomerRepository alice;
    MissedChanges missed;

    @BeforeEach
    void open() {
        alice = new JdbiCustomerRepository(db.jdbi(), "Alice");
        missed = new MissedChanges(db.jdbi());
    }

    @Test
    void afterAMarkEachChangedCustomerIsListedOnceWithItsCurrentVersionDeletionsIncluded() {
        Customer kept = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "M-KEPT").build());
        Customer changed = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "M-CHANGED").build());
        Customer deleted = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "M-DELETED").build());
        MissedChanges.Mark mark = missed.markAfter(MissedChanges.Mark.BEGINNING);

        alice.save(changed.id(), 1, changed.data().with(CustomerField.CITY, "Lyon"));
        alice.save(changed.id(), 2, changed.data().with(CustomerField.CITY, "Lille"));
        alice.delete(deleted.id(), 1);
        Customer created = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "M-NEW").build());

        assertThat(missed.customersChangedSince(mark)).extracting(ChangeEvent::id, ChangeEvent::version,
                ChangeEvent::op).containsExactly(
                        org.assertj.core.groups.Tuple.tuple(changed.id(), 3L, "UPDATE"),
                        org.assertj.core.groups.Tuple.tuple(deleted.id(), 1L, "DELETE"),
                        org.assertj.core.groups.Tuple.tuple(created.id(), 1L, "INSERT"));
        assertThat(missed.customersChangedSince(mark)).noneMatch(e -> e.id() == kept.id());
        assertThat(missed.customersChangedSince(missed.markAfter(mark))).isEmpty();
    }

    @Test
    void aWriteStillUncommittedWhenTheMarkIsTakenIsListedOnceItCommits() {
        Customer slow = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "M-SLOW").build());
        Customer quick = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "M-QUICK").build());
        MissedChanges.Mark before = missed.markAfter(MissedChanges.Mark.BEGINNING);
        try (Handle open = db.jdbi().open()) {
            open.begin();
            // Takes the lower history id, and keeps it uncommitted while a later write commits.
            open.execute("UPDATE customer SET city = 'Slow' WHERE id = ?", slow.id());
            alice.save(quick.id(), 1, quick.data().with(CustomerField.CITY, "Quick"));
            MissedChanges.Mark mark = missed.markAfter(before);
            assertThat(mark.holes()).hasSize(1);
            assertThat(mark.holes().get(0)).isLessThan(mark.lastId());
            open.commit();

            assertThat(missed.customersChangedSince(mark)).extracting(ChangeEvent::id, ChangeEvent::version)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple(slow.id(), 2L));
            assertThat(missed.markAfter(mark).holes()).isEmpty();
        }
    }

    @Test
    void aRolledBackWriteLeavesAHoleThatListsNothing() {
        Customer c = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "M-ROLLBACK").build());
        MissedChanges.Mark before = missed.markAfter(MissedChanges.Mark.BEGINNING);
        db.jdbi().useHandle(h -> {
            h.begin();
            h.execute("UPDATE customer SET city = 'Never' WHERE id = ?", c.id());
            h.rollback();
        });
        alice.save(c.id(), 1, c.data().with(CustomerField.CITY, "Kept"));

        MissedChanges.Mark mark = missed.markAfter(before);

        assertThat(mark.holes()).hasSize(1);
        assertThat(missed.customersChangedSince(mark)).isEmpty();
        assertThat(missed.customersChangedSince(before)).extracting(ChangeEvent::version).containsExactly(2L);
    }

    @Test
    void aLongTransactionThatCommitsDuringTheGapIsListedHoweverManyChangesCommittedWhileItRan() {
        // A watch marks the history while an import (or a psql session) holds a change uncommitted, and more changes
        // than any fixed window commit meanwhile (a 20,000-row generate); the long one commits while the watch is
        // away. Its customer must be listed: nothing changed in the gap goes unseen.
        Customer slow = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "M-LONG").build());
        MissedChanges.Mark before = missed.markAfter(MissedChanges.Mark.BEGINNING);
        try (Handle open = db.jdbi().open()) {
            open.begin();
            open.execute("UPDATE customer SET city = 'Long' WHERE id = ?", slow.id());
            int burst = MissedChanges.HOLE_WINDOW + 1;
            db.jdbi().useHandle(h -> h.execute("INSERT INTO customer (company) SELECT 'Burst ' || n"
                    + " FROM generate_series(1, ?) n", burst));
            MissedChanges.Mark mark = missed.markAfter(before);
            open.commit();

            assertThat(missed.customersChangedSince(mark)).extracting(ChangeEvent::id, ChangeEvent::version)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple(slow.id(), 2L));
        }
    }
}
