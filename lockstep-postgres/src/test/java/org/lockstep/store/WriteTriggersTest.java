package org.lockstep.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.lockstep.server.Database;
import org.lockstep.domain.AcquireOutcome;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.DeleteOutcome;
import org.lockstep.domain.Lease;
import org.lockstep.domain.SaveOutcome;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.FreshDatabase;

/**
 * The customer table's write path since V19 on a real PostgreSQL: the stored search text, the row trigger that guards
 * a Lockstep write, stamps it and records an update's history, and what other writers (psql, a script) still get.
 */
@DatabaseTest
class WriteTriggersTest {

    @FreshDatabase
    static Database db;
    static JdbiCustomerRepository alice;
    static JdbiCustomerRepository bob;
    static JdbiLeaseRepository aliceLeases;

    @BeforeAll
    static void open() {
        alice = new JdbiCustomerRepository(db.jdbi(), "Alice", "alice-session");
        bob = new JdbiCustomerRepository(db.jdbi(), "Bob", "bob-session");
        aliceLeases = new JdbiLeaseRepository(db.jdbi(), "Alice", "alice-session");
    }

    private static <T> T one(String sql, Class<T> type, long id) {
        return db.jdbi().withHandle(h -> h.createQuery(sql).bind("id", id).mapTo(type).one());
    }

    private static long historyRows(long id) {
        return one("SELECT count(*) FROM customer_history WHERE customer_id = :id", Long.class, id);
    }

    @Test
    void theSearchTextIsTheFoldedTextOfTheRowAfterEveryWriteWhoeverWrites() {
        Customer c = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "ST-1")
                .with(CustomerField.COMPANY, "Müller GmbH").with(CustomerField.CITY, "São Paulo").build());
        String created = one("SELECT search_text FROM customer WHERE id = :id", String.class, c.id());

        alice.save(c.id(), 1, c.data().with(CustomerField.COMPANY, "ΟΔΟΣ Straße"));
        String saved = one("SELECT search_text FROM customer WHERE id = :id", String.class, c.id());
        db.jdbi().useHandle(h -> h.execute("UPDATE customer SET city = 'Łódź' WHERE id = ?", c.id()));
        String byPsql = one("SELECT search_text FROM customer WHERE id = :id", String.class, c.id());

        assertThat(created).contains("muller gmbh").contains("sao paulo");
        assertThat(saved).startsWith("οδοσ strasse").contains("sao paulo");
        assertThat(byPsql).contains("lodz").doesNotContain("sao paulo");
        // One definition of the fold for rows and terms: the column equals the function applied to the row now.
        assertThat(one("SELECT search_text = customer_search_text(company, contact_name, email, city, country) "
                + "FROM customer WHERE id = :id", Boolean.class, c.id())).isTrue();
    }

    /**
     * Since V25 the search text is the row trigger's to keep, no longer a generated column: a writer who sets it,
     * alone or beside another field, on a new row or an old one, gets the text of the row's values instead.
     */
    @Test
    void noWriterCanSetTheSearchTextItself() {
        Customer c = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "ST-2").build());
        String truth =
                "SELECT search_text IS NOT DISTINCT FROM customer_search_text(company, contact_name, email, city, "
                        + "country) FROM customer WHERE id = :id";

        db.jdbi().useHandle(h -> h.execute("UPDATE customer SET search_text = 'forged' WHERE id = ?", c.id()));
        boolean afterForgedAlone = one(truth, Boolean.class, c.id());
        db.jdbi().useHandle(h -> h.execute("UPDATE customer SET search_text = 'forged', notes = 'n' WHERE id = ?",
                c.id()));
        boolean afterForgedWithANote = one(truth, Boolean.class, c.id());
        long inserted = db.jdbi().withHandle(h -> h.createQuery("""
                        INSERT INTO customer (company, search_text) VALUES ('Forge Ltd', 'forged') RETURNING id""")
                .mapTo(Long.class).one());

        assertThat(afterForgedAlone).isTrue();
        assertThat(afterForgedWithANote).isTrue();
        assertThat(one(truth, Boolean.class, inserted)).isTrue();
        assertThat(one("SELECT search_text FROM customer WHERE id = :id", String.class, inserted))
                .startsWith("forge ltd");
    }

    @Test
    void theHistoryKeepsTheValuesButNotTheSearchTextForEveryKindOfWrite() {
        Customer c = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "ST-3").build());
        alice.save(c.id(), 1, c.data().with(CustomerField.CITY, "Brest"));
        alice.delete(c.id(), 2);

        List<String> keys = db.jdbi().withHandle(h -> h.createQuery("SELECT op || ':' "
                + "|| jsonb_exists(coalesce(new_row, old_row), 'search_text') || ':' "
                + "|| (coalesce(new_row, old_row) ->> 'city') "
                + "FROM customer_history WHERE customer_id = :id ORDER BY id").bind("id", c.id())
                .mapTo(String.class).list());

        assertThat(keys).containsExactly("INSERT:false:" + c.data().city(), "UPDATE:false:Brest",
                "DELETE:false:Brest");
    }

    @Test
    void aSaveRefusedByAnotherSessionsLeaseWritesNeitherTheRowNorItsHistory() {
        Customer c = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "ST-4").build());
        Lease lease = ((AcquireOutcome.Granted) aliceLeases.acquire(c.id(), 60_000)).lease();

        SaveOutcome refused = bob.save(c.id(), 1, c.data().with(CustomerField.CITY, "Bob's city"));
        DeleteOutcome notDeleted = bob.delete(c.id(), 1);
        SaveOutcome underLease = alice.saveUnderLease(c.id(), 1, c.data().with(CustomerField.CITY, "Alice's city"),
                lease.token());

        assertThat(refused).isInstanceOf(SaveOutcome.Locked.class);
        assertThat(notDeleted).isInstanceOf(DeleteOutcome.Locked.class);
        assertThat(underLease).isInstanceOf(SaveOutcome.Saved.class);
        assertThat(alice.find(c.id()).orElseThrow().data().city()).isEqualTo("Alice's city");
        assertThat(historyRows(c.id())).isEqualTo(2); // the creation and Alice's save
    }

    @Test
    void aFencedSaveUnderAnotherTokenIsRefusedAndWritesNothing() {
        Customer c = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "ST-5").build());
        Lease lease = ((AcquireOutcome.Granted) aliceLeases.acquire(c.id(), 60_000)).lease();

        // Bob learned the token (lock listings show it): it is not his session's lease.
        SaveOutcome bobs = bob.saveUnderLease(c.id(), 1, c.data().with(CustomerField.CITY, "X"), lease.token());
        SaveOutcome stale = alice.saveUnderLease(c.id(), 1, c.data().with(CustomerField.CITY, "Y"),
                lease.token() + 1);

        assertThat(bobs).isInstanceOf(SaveOutcome.LeaseLost.class);
        assertThat(stale).isInstanceOf(SaveOutcome.LeaseLost.class);
        assertThat(alice.find(c.id()).orElseThrow().version()).isEqualTo(1);
        assertThat(historyRows(c.id())).isEqualTo(1);
    }

    @Test
    void anOptimisticSaveIsJudgedByTheLeaseRowInEveryStateItCanBeIn() {
        // A customer's lease row stays after its lease ends (released, broken) or lapses: the guard judges each state
        // by the lease's holder and expiry, and a save it lets through has exactly one history row.
        JdbiLeaseRepository bobLeases = new JdbiLeaseRepository(db.jdbi(), "Bob", "bob-session");
        Customer released = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "ST-9").build());
        Customer broken = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "ST-10").build());
        Customer lapsed = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "ST-11").build());
        Customer own = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "ST-12").build());
        Customer bobs = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "ST-13").build());
        Lease releasedLease = ((AcquireOutcome.Granted) bobLeases.acquire(released.id(), 60_000)).lease();
        assertThat(bobLeases.release(released.id(), releasedLease.token())).isTrue();
        bobLeases.acquire(broken.id(), 60_000);
        assertThat(aliceLeases.breakLease(broken.id())).isPresent();
        bobLeases.acquire(lapsed.id(), 60_000);
        // Bob's client vanished without a release: his lease ran out, its row never ended.
        db.jdbi().useHandle(h -> h.execute("UPDATE record_lease SET expires_at = clock_timestamp() - interval '1 s' "
                + "WHERE record_id = ?", lapsed.id()));
        aliceLeases.acquire(own.id(), 60_000);
        bobLeases.acquire(bobs.id(), 60_000);

        assertThat(alice.save(released.id(), 1, released.data().with(CustomerField.CITY, "A")))
                .isInstanceOf(SaveOutcome.Saved.class);
        assertThat(alice.save(broken.id(), 1, broken.data().with(CustomerField.CITY, "B")))
                .isInstanceOf(SaveOutcome.Saved.class);
        assertThat(alice.save(lapsed.id(), 1, lapsed.data().with(CustomerField.CITY, "C")))
                .isInstanceOf(SaveOutcome.Saved.class);
        assertThat(alice.save(own.id(), 1, own.data().with(CustomerField.CITY, "D")))
                .isInstanceOf(SaveOutcome.Saved.class);
        assertThat(alice.save(bobs.id(), 1, bobs.data().with(CustomerField.CITY, "E")))
                .isInstanceOf(SaveOutcome.Locked.class);

        for (Customer saved : List.of(released, broken, lapsed, own)) {
            assertThat(alice.find(saved.id()).orElseThrow().version()).isEqualTo(2);
            assertThat(one("SELECT count(*) FROM customer_history WHERE customer_id = :id AND version = 2",
                    Long.class, saved.id())).isEqualTo(1);
        }
        assertThat(alice.find(bobs.id()).orElseThrow().version()).isEqualTo(1);
        assertThat(historyRows(bobs.id())).isEqualTo(1);
    }

    @Test
    void aFencedSaveUnderALeaseThatLapsedOrEndedIsRefusedAndWritesNothing() {
        Customer lapsed = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "ST-14").build());
        Customer released = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "ST-15").build());
        Lease lapsedLease = ((AcquireOutcome.Granted) aliceLeases.acquire(lapsed.id(), 60_000)).lease();
        Lease releasedLease = ((AcquireOutcome.Granted) aliceLeases.acquire(released.id(), 60_000)).lease();
        db.jdbi().useHandle(h -> h.execute("UPDATE record_lease SET expires_at = clock_timestamp() - interval '1 s' "
                + "WHERE record_id = ?", lapsed.id()));
        aliceLeases.release(released.id(), releasedLease.token());

        assertThat(alice.saveUnderLease(lapsed.id(), 1, lapsed.data().with(CustomerField.CITY, "X"),
                lapsedLease.token())).isInstanceOf(SaveOutcome.LeaseLost.class);
        assertThat(alice.saveUnderLease(released.id(), 1, released.data().with(CustomerField.CITY, "Y"),
                releasedLease.token())).isInstanceOf(SaveOutcome.LeaseLost.class);

        assertThat(historyRows(lapsed.id())).isEqualTo(1);
        assertThat(historyRows(released.id())).isEqualTo(1);
        assertThat(alice.find(lapsed.id()).orElseThrow().version()).isEqualTo(1);
    }

    @Test
    void writersThatNameNoGuardAreStampedAndRecordedAndRefusedUnderAnothersLeaseNamingIt() {
        Customer c = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "ST-6").build());
        Customer free = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "ST-6b").build());
        aliceLeases.acquire(c.id(), 60_000);

        // psql names no guard and proves no lease: while Alice's runs, the whole statement is refused (issue 26).
        assertThatThrownBy(() -> db.jdbi()
                .useHandle(h -> h.execute("UPDATE customer SET city = 'psql' WHERE id IN (?, ?)",
                        c.id(), free.id())))
                .hasMessageContaining("customer " + c.id() + " is locked for editing by Alice until")
                .satisfies(e -> assertThat(StoreErrors.hasSqlState(e, StoreErrors.LOCKED_BY_ANOTHER)).isTrue());
        assertThat(alice.find(free.id()).orElseThrow().version()).isEqualTo(1);
        assertThat(historyRows(c.id())).isEqualTo(1);

        // Where no lease runs, the database still stamps it, whatever the writer says of itself.
        db.jdbi().useHandle(h -> h.execute("UPDATE customer SET city = 'psql', version = 99, updated_by = 'me' "
                + "WHERE id = ?", free.id()));
        Customer stored = alice.find(free.id()).orElseThrow();
        assertThat(stored.data().city()).isEqualTo("psql");
        assertThat(stored.version()).isEqualTo(2);
        assertThat(stored.updatedBy()).isNotEqualTo("me");
        assertThat(one("SELECT new_row ->> 'city' FROM customer_history WHERE customer_id = :id AND version = 2",
                String.class, free.id())).isEqualTo("psql");
    }

    @Test
    void anUpdateTheDatabaseRefusesAfterTheTriggerLeavesNoHistoryRow() {
        Customer c = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "ST-7").build());

        // The trigger writes the history row before PostgreSQL checks the row's CHECK constraints.
        assertThatThrownBy(() -> db.jdbi().useHandle(h -> h.execute(
                "UPDATE customer SET company = repeat('x', 161) WHERE id = ?", c.id())))
                .hasMessageContaining("customer_company_check");

        assertThat(historyRows(c.id())).isEqualTo(1);
        assertThat(alice.find(c.id()).orElseThrow().version()).isEqualTo(1);
    }

    @Test
    void aSavesReturnedRecordIsWhatTheDatabaseStored() {
        Customer c = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "ST-8").build());

        Customer saved = ((SaveOutcome.Saved) alice.save(c.id(), 1, c.data().with(CustomerField.NOTES,
                "Cafe\u0301 ☕ =SUM(A1)").with(CustomerField.CREDIT_LIMIT, new java.math.BigDecimal("1500.5"))))
                .saved();

        assertThat(saved).isEqualTo(alice.find(c.id()).orElseThrow());
        assertThat(saved.data().notes()).isEqualTo("Café ☕ =SUM(A1)");
    }
}
