package org.lockstep.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.lockstep.server.Database;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.HistoryEntry;
import org.lockstep.domain.SaveOutcome;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.FreshDatabase;

@DatabaseTest
class HistoryTest {

    @FreshDatabase
    static Database db;
    static JdbiCustomerRepository alice;
    static JdbiHistoryRepository history;

    @BeforeAll
    static void open() {
        alice = new JdbiCustomerRepository(db.jdbi(), "Alice");
        history = new JdbiHistoryRepository(db.jdbi());
    }

    @Test
    void everyAppWriteIsRecordedWithTheLockstepUserAndTheValues() {
        Customer c = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "H-1").build());
        JdbiCustomerRepository bob = new JdbiCustomerRepository(db.jdbi(), "Bob");
        bob.save(c.id(), 1, c.data().with(CustomerField.CITY, "Belo Horizonte"));
        alice.delete(c.id(), 2);

        List<HistoryEntry> entries = history.history(c.id());

        assertThat(entries).extracting(HistoryEntry::op, HistoryEntry::version, HistoryEntry::changedBy)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(HistoryEntry.Op.INSERT, 1L, "Alice"),
                        org.assertj.core.groups.Tuple.tuple(HistoryEntry.Op.UPDATE, 2L, "Bob"),
                        org.assertj.core.groups.Tuple.tuple(HistoryEntry.Op.DELETE, 2L, "Alice"));
        assertThat(entries.get(1).before().orElseThrow().city()).isEqualTo("São José dos Campos");
        assertThat(entries.get(1).after().orElseThrow().city()).isEqualTo("Belo Horizonte");
        assertThat(entries.get(1).after().orElseThrow().creditLimit()).isEqualByComparingTo("1000");
        assertThat(history.valuesAt(c.id(), 1).orElseThrow().city()).isEqualTo("São José dos Campos");
        assertThat(history.between(c.id(), 1, 2)).extracting(HistoryEntry::op)
                .containsExactly(HistoryEntry.Op.UPDATE, HistoryEntry.Op.DELETE);
    }

    @Test
    void aBulkUpdateFromPsqlRaisesEveryVersionAndIsRecordedUnderTheDatabaseRole() {
        Customer a = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "H-BULK-1").build());
        Customer b = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "H-BULK-2").build());
        String role = db.jdbi().withHandle(h -> h.createQuery("SELECT session_user").mapTo(String.class).one());

        // What a script or psql does: no version, no updated_by, no Lockstep user.
        db.jdbi().useHandle(
                h -> h.execute("UPDATE customer SET city = 'Porto Alegre' WHERE external_ref LIKE 'H-BULK-%'"));

        Customer a2 = alice.find(a.id()).orElseThrow();
        assertThat(a2.version()).isEqualTo(2);
        assertThat(a2.updatedBy()).isEqualTo(role);
        assertThat(a2.updatedAt()).isAfter(a.updatedAt());
        assertThat(alice.find(b.id()).orElseThrow().version()).isEqualTo(2);
        HistoryEntry last = history.history(a.id()).get(1);
        assertThat(last.changedBy()).isEqualTo(role);
        assertThat(last.after().orElseThrow().city()).isEqualTo("Porto Alegre");
        // The editor that loaded version 1 cannot slip past the script's change.
        assertThat(alice.save(a.id(), 1, a.data())).isInstanceOf(SaveOutcome.Conflict.class);
    }

    @Test
    void aWriterCannotSetTheVersionBackOrSkipIt() {
        Customer c = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "H-VER").build());

        db.jdbi().useHandle(h -> h.execute("UPDATE customer SET version = 1 WHERE id = ?", c.id()));
        db.jdbi().useHandle(h -> h.execute("UPDATE customer SET version = 99 WHERE id = ?", c.id()));

        assertThat(alice.find(c.id()).orElseThrow().version()).isEqualTo(3);
    }
}
