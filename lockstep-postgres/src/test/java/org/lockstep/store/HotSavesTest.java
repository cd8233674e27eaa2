package org.lockstep.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.SaveOutcome;
import org.lockstep.server.Database;
import org.lockstep.synthetic.SyntheticCustomers;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.FreshDatabase;

/**
 * Issue 29: a save that changes no searched or sorted field is a heap-only update (HOT) of the customer's row, which
 * writes no index entry; the Updated order's table (V24) holds every customer's last write whoever writes. Read back
 * from the real database: pg_stat_user_tables' counts, and the tables themselves.
 */
@DatabaseTest
class HotSavesTest {

    @FreshDatabase
    static Database db;
    static JdbiCustomerRepository repository;
    static SyntheticCustomers generator = new SyntheticCustomers(29);

    @BeforeAll
    static void setUp() {
        repository = new JdbiCustomerRepository(db.jdbi(), "alice");
    }

    /** The customer table's updates and heap-only updates, as the statistics have them. */
    private record Updates(long all, long hot) {
    }

    private static Updates updates() {
        return db.jdbi().withHandle(h -> {
            h.execute("SELECT pg_stat_clear_snapshot()");
            return h.createQuery("SELECT n_tup_upd, n_tup_hot_upd FROM pg_stat_user_tables"
                    + " WHERE relid = 'customer'::regclass").map(
                            (rs, ctx) -> new Updates(rs.getLong(1),
                                    rs.getLong(2)))
                    .one();
        });
    }

    /**
     * The counts once every earlier write has reached them: a server process reports its counts when it goes idle, at
     * most once a second (PostgreSQL docs 27.2), so the counts are read until they stay the same over 1.5 s.
     */
    private static Updates settled() {
        java.util.concurrent.atomic.AtomicReference<Updates> last = new java.util.concurrent.atomic.AtomicReference<>(
                updates());
        Awaitility.await().atMost(Duration.ofSeconds(30)).pollDelay(Duration.ofMillis(1_500))
                .pollInterval(Duration.ofMillis(1_500)).until(() -> updates().equals(last.getAndSet(updates())));
        return last.get();
    }

    /**
     * The counts once {@code more} updates after {@code before} have reached them: a server process reports its
     * counts when it goes idle, at most once a second.
     */
    private static Updates after(Updates before, long more) {
        return Awaitility.await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100))
                .until(HotSavesTest::updates, u -> u.all() >= before.all() + more);
    }

    private static Customer saved(SaveOutcome outcome) {
        assertThat(outcome).isInstanceOf(SaveOutcome.Saved.class);
        return ((SaveOutcome.Saved) outcome).saved();
    }

    @Test
    void aSaveOfAPhoneANoteAndACreditLimitIsHeapOnly() {
        Customer c = repository.create(generator.customer(1).with(CustomerField.EXTERNAL_REF, "HOT-1"));
        Updates before = settled();

        Customer v2 = saved(repository.save(c.id(), c.version(), c.data().with(CustomerField.PHONE, "+49 30 1234567")));
        Customer v3 = saved(repository.save(v2.id(), v2.version(), v2.data().with(CustomerField.NOTES, "Calls back")
                .with(CustomerField.CREDIT_LIMIT, new java.math.BigDecimal("2500.00"))));
        Updates now = after(before, 2);

        assertThat(v3.version()).isEqualTo(3);
        assertThat(now.all() - before.all()).isEqualTo(2);
        assertThat(now.hot() - before.hot()).isEqualTo(2);
    }

    @Test
    void aSaveOfASearchedFieldIsNotHeapOnlyAndTheSearchFindsTheNewValue() {
        Customer c = repository.create(generator.customer(2).with(CustomerField.EXTERNAL_REF, "HOT-2"));
        Updates before = settled();

        saved(repository.save(c.id(), c.version(), c.data().with(CustomerField.CITY, "Qxyzville")));
        Updates now = after(before, 1);

        assertThat(now.all() - before.all()).isEqualTo(1);
        assertThat(now.hot() - before.hot()).isZero();
        assertThat(repository.count("qxyzv", 5_000).count()).isEqualTo(1);
        assertThat(repository.count("qx", 5_000).count()).isEqualTo(1);
    }

    @Test
    void theUpdatedOrderHoldsEveryCustomersLastWriteWhoeverWrites() {
        Customer a = repository.create(generator.customer(3).with(CustomerField.EXTERNAL_REF, "HOT-3"));
        Customer b = repository.create(generator.customer(4).with(CustomerField.EXTERNAL_REF, "HOT-4"));
        Customer gone = repository.create(generator.customer(5).with(CustomerField.EXTERNAL_REF, "HOT-5"));
        saved(repository.save(a.id(), a.version(), a.data().with(CustomerField.PHONE, "+1 555 0100")));
        // Another writer: a plain UPDATE, as psql sends it, and a bulk one.
        db.jdbi().useHandle(h -> h.execute("UPDATE customer SET notes = 'by hand' WHERE id = ?", b.id()));
        db.jdbi().useHandle(h -> h.execute("UPDATE customer SET fax = NULL WHERE id IN (?, ?)", a.id(), b.id()));
        assertThat(repository.delete(gone.id(), gone.version())).isNotNull();

        List<String> customers = db.jdbi().withHandle(h -> h.createQuery(
                "SELECT id || ' ' || updated_at FROM customer ORDER BY updated_at, id").mapTo(String.class).list());
        List<String> order = db.jdbi().withHandle(h -> h.createQuery(
                "SELECT id || ' ' || updated_at FROM customer_updated ORDER BY updated_at, id").mapTo(String.class)
                .list());

        assertThat(order).isEqualTo(customers).isNotEmpty();
    }
}
