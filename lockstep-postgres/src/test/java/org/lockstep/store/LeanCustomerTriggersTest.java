package org.lockstep.store;

import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.transfer.CustomerBulkStore;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.lockstep.server.Database;
import org.lockstep.domain.ChangeEvent;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.HistoryEntry;
import org.lockstep.domain.SaveOutcome;
import org.lockstep.testing.db.HeardChanges;
import org.lockstep.testing.db.TestDatabases;

/**
 * The customer triggers of V16 (as V19 reorganised them) on a real PostgreSQL: history with the new row only for an
 * UPDATE, and notifications — one per row for small statements, one {@code MANY} for large ones and for an import, and
 * Lockstep's own saves announced by the client after their commit.
 */
@DatabaseTest
class LeanCustomerTriggersTest {

    Database db;
    HeardChanges other;

    @BeforeEach
    void open() {
        String url = TestDatabases.freshUrl();
        TestDatabases.Server s = TestDatabases.server();
        db = Database.open(url, s.user(), s.password(), "trigger test");
        other = HeardChanges.listening(url, s.user(), s.password());
    }

    @AfterEach
    void close() {
        other.close();
        db.close();
    }

    private List<ChangeEvent> customerEvents() {
        return other.customers();
    }

    /** Inserts {@code n} customers with one statement, as a script would; returns their ids. */
    private List<Long> insertWithOneStatement(int n, String prefix) {
        return db.jdbi().withHandle(h -> h.createQuery("INSERT INTO customer (company, external_ref) "
                + "SELECT 'Bulk ' || g, :prefix || g FROM generate_series(1, :n) g RETURNING id")
                .bind("prefix", prefix).bind("n", n).mapTo(Long.class).list());
    }

    @ParameterizedTest(name = "{0} rows in one UPDATE: {1} notification(s), MANY: {2}")
    @CsvSource({"1, 1, false", "50, 50, false", "51, 1, true", "3000, 1, true"})
    void aStatementOverMoreThan50RowsSendsOneManyEventInsteadOfOnePerRow(int rows, int notifications,
            boolean many) {
        List<Long> ids = insertWithOneStatement(rows, "T-" + rows + "-");
        await().atMost(Duration.ofSeconds(10)).until(() -> customerEvents().size() == notifications);
        other.clear();

        int updated = db.jdbi().withHandle(h -> h.createUpdate("UPDATE customer SET city = 'Lyon' WHERE id = ANY(:ids)")
                .bindArray("ids", Long.class, ids).execute());

        await().atMost(Duration.ofSeconds(10)).until(() -> customerEvents().size() == notifications);
        assertThat(updated).isEqualTo(rows);
        assertThat(customerEvents()).allMatch(e -> e.isManyCustomers() == many);
        if (many) {
            assertThat(customerEvents().get(0).version()).isEqualTo(rows);
            assertThat(customerEvents().get(0).op()).isEqualTo("MANY");
        } else {
            assertThat(customerEvents()).extracting(ChangeEvent::id).containsExactlyInAnyOrderElementsOf(ids);
            assertThat(customerEvents()).extracting(ChangeEvent::version).containsOnly(2L);
        }
        // Every row still has its history entry, whatever the notification.
        long historyRows = db.jdbi().withHandle(h -> h.createQuery("SELECT count(*) FROM customer_history "
                + "WHERE op = 'UPDATE' AND customer_id = ANY(:ids)").bindArray("ids", Long.class, ids)
                .mapTo(Long.class).one());
        assertThat(historyRows).isEqualTo(rows);
    }

    @Test
    void aLockstepSaveIsAnnouncedOnceAfterItsCommitWithItsSessionAndNewVersion() {
        JdbiCustomerRepository alice = new JdbiCustomerRepository(db.jdbi(), "Alice", "alice-session");
        Customer c = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "T-SAVE").build());
        await().atMost(Duration.ofSeconds(10)).until(() -> customerEvents().size() == 1);

        SaveOutcome saved = alice.save(c.id(), 1, c.data().with(CustomerField.CITY, "Nantes"));
        SaveOutcome conflict = alice.save(c.id(), 1, c.data().with(CustomerField.CITY, "Brest"));

        await().atMost(Duration.ofSeconds(10)).until(() -> customerEvents().size() == 2);
        assertThat(saved).isInstanceOf(SaveOutcome.Saved.class);
        assertThat(conflict).isInstanceOf(SaveOutcome.Conflict.class);
        ChangeEvent e = customerEvents().get(1);
        assertThat(e.id()).isEqualTo(c.id());
        assertThat(e.version()).isEqualTo(2);
        assertThat(e.op()).isEqualTo("UPDATE");
        assertThat(e.sessionId()).contains("alice-session");
        // The conflict announced nothing: a third event never comes, even once a later write's event has arrived.
        db.jdbi().useHandle(h -> h.execute("UPDATE customer SET city = city WHERE id = ?", c.id()));
        await().atMost(Duration.ofSeconds(10)).until(() -> customerEvents().size() == 3);
        assertThat(customerEvents().get(2).version()).isEqualTo(3);
    }

    @Test
    void anImportAnnouncesOneManyEventForAllItsRowsAtItsCommit() {
        CustomerBulkStore bulk = new JdbiCustomerBulkStore(db.jdbi(), "Importer", "import-session");
        List<CustomerBulkStore.ImportRow> rows = IntStream.rangeClosed(1, 120).mapToObj(
                i -> new CustomerBulkStore.ImportRow(i, null, aCustomer().with(CustomerField.EXTERNAL_REF, "T-IMP-" + i)
                        .build().normalized()))
                .toList();

        CustomerBulkStore.ImportCounts counts = bulk.write(CustomerBulkStore.ImportKey.EXTERNAL_REF, rows.iterator());

        await().atMost(Duration.ofSeconds(10)).until(() -> !customerEvents().isEmpty());
        assertThat(counts.inserted()).isEqualTo(120);
        assertThat(customerEvents()).hasSize(1);
        assertThat(customerEvents().get(0).isManyCustomers()).isTrue();
        assertThat(customerEvents().get(0).version()).isEqualTo(120);
        assertThat(customerEvents().get(0).sessionId()).contains("import-session");
    }

    @Test
    void anUpdateKeepsOnlyItsNewRowAndTheHistoryStillShowsWhatEachVersionReplaced() {
        JdbiCustomerRepository alice = new JdbiCustomerRepository(db.jdbi(), "Alice");
        JdbiHistoryRepository history = new JdbiHistoryRepository(db.jdbi());
        Customer c = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "T-HIST").with(CustomerField.CITY,
                "Nantes").build());
        alice.save(c.id(), 1, c.data().with(CustomerField.CITY, "Brest"));
        alice.save(c.id(), 2, c.data().with(CustomerField.CITY, "Rennes"));
        alice.delete(c.id(), 3);

        List<String> oldRows = db.jdbi().withHandle(h -> h.createQuery("SELECT coalesce(old_row->>'city', '-') "
                + "FROM customer_history WHERE customer_id = :id ORDER BY id").bind("id", c.id())
                .mapTo(String.class).list());
        List<HistoryEntry> all = history.history(c.id());
        List<HistoryEntry> lastTwo = history.between(c.id(), 2, 3);

        // Stored: no old row for the UPDATEs; the DELETE keeps the row it deleted.
        assertThat(oldRows).containsExactly("-", "-", "-", "Rennes");
        assertThat(all).extracting(e -> e.before().map(d -> d.city()).orElse("-"),
                e -> e.after().map(d -> d.city()).orElse("-"))
                .containsExactly(org.assertj.core.groups.Tuple.tuple("-", "Nantes"),
                        org.assertj.core.groups.Tuple.tuple("Nantes", "Brest"),
                        org.assertj.core.groups.Tuple.tuple("Brest", "Rennes"),
                        org.assertj.core.groups.Tuple.tuple("Rennes", "-"));
        // A range that starts mid-history still finds what its first entry replaced.
        assertThat(lastTwo).extracting(HistoryEntry::version).containsExactly(3L, 3L);
        assertThat(lastTwo.get(0).before().orElseThrow().city()).isEqualTo("Brest");
        assertThat(history.valuesAt(c.id(), 2).orElseThrow().city()).isEqualTo("Brest");
    }

    @Test
    void anUpdateRowWrittenBeforeV16KeepsItsOwnOldRow() {
        JdbiCustomerRepository alice = new JdbiCustomerRepository(db.jdbi(), "Alice");
        JdbiHistoryRepository history = new JdbiHistoryRepository(db.jdbi());
        Customer c = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "T-OLD").with(CustomerField.CITY,
                "Nantes").build());
        alice.save(c.id(), 1, c.data().with(CustomerField.CITY, "Brest"));
        // As V9's trigger wrote it: both rows, the old one differing from the previous entry (e.g. a gap).
        db.jdbi().useHandle(h -> h.createUpdate("UPDATE customer_history SET old_row = jsonb_set(new_row, '{city}', "
                + "'\"Quimper\"') WHERE customer_id = :id AND version = 2").bind("id", c.id()).execute());

        assertThat(history.history(c.id()).get(1).before().orElseThrow().city()).isEqualTo("Quimper");
    }
}
