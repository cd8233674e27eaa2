package org.lockstep.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.lockstep.server.Database;
import org.lockstep.domain.ChangeEvent;
import org.lockstep.domain.ChangeFeed;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.SaveOutcome;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.TestDatabases;

/** LISTEN/NOTIFY on a real PostgreSQL: every writer notifies, in order, and a lost listener comes back. */
@DatabaseTest
class PgChangeFeedTest {

    Database db;
    PgChangeFeed feed;
    final List<ChangeEvent> events = new CopyOnWriteArrayList<>();
    final List<ChangeFeed.Status> statuses = new CopyOnWriteArrayList<>();
    final AtomicInteger resyncs = new AtomicInteger();

    @BeforeEach
    void open() {
        String url = TestDatabases.freshUrl();
        TestDatabases.Server s = TestDatabases.server();
        db = Database.open(url, s.user(), s.password(), "feed test");
        feed = new PgChangeFeed(url, s.user(), s.password(), new ChangeFeed.Listener() {
            @Override
            public void changes(List<ChangeEvent> batch) {
                events.addAll(batch);
            }

            @Override
            public void status(ChangeFeed.Status status) {
                statuses.add(status);
            }

            @Override
            public void resync() {
                resyncs.incrementAndGet();
            }
        });
        feed.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> feed.status() == ChangeFeed.Status.LIVE);
    }

    @AfterEach
    void close() {
        feed.close();
        db.close();
    }

    private List<ChangeEvent> customerEvents() {
        return events.stream().filter(ChangeEvent::isCustomer).toList();
    }

    @Test
    void appWritesNotifyWithTheWritersSessionSoAClientKnowsItsOwnSaves() {
        JdbiCustomerRepository alice = new JdbiCustomerRepository(db.jdbi(), "Alice");
        Customer c = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "F-1").build());
        alice.save(c.id(), 1, c.data().with(CustomerField.CITY, "Lyon"));
        alice.delete(c.id(), 2);

        await().atMost(Duration.ofSeconds(10)).until(() -> customerEvents().size() == 3);
        assertThat(customerEvents()).extracting(ChangeEvent::op, ChangeEvent::version)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("INSERT", 1L),
                        org.assertj.core.groups.Tuple.tuple("UPDATE", 2L),
                        org.assertj.core.groups.Tuple.tuple("DELETE", 2L));
        assertThat(customerEvents()).allMatch(e -> e.madeBy(alice.sessionId()) && e.id() == c.id());
    }

    @Test
    void aBurstOf200ChangesInOneTransactionAnd200SeparateOnesAllArriveInOrder() {
        Customer c = new JdbiCustomerRepository(db.jdbi(), "Setup").create(aCustomer()
                .with(CustomerField.EXTERNAL_REF, "F-BURST").build());
        db.jdbi().useTransaction(h -> {
            for (int i = 0; i < 200; i++) {
                h.execute("UPDATE customer SET notes = ? WHERE id = ?", "one transaction " + i, c.id());
            }
        });
        for (int i = 0; i < 200; i++) {
            db.jdbi().useHandle(h -> h.execute("UPDATE customer SET city = city WHERE id = ?", c.id()));
        }

        await().atMost(Duration.ofSeconds(30)).until(() -> customerEvents().size() == 401);
        List<Long> versions = customerEvents().stream().map(ChangeEvent::version).toList();
        List<Long> sorted = new ArrayList<>(versions);
        Collections.sort(sorted);
        assertThat(versions).isEqualTo(sorted).doesNotHaveDuplicates();
        assertThat(versions.get(versions.size() - 1)).isEqualTo(401L);
        // Writes from psql have no Lockstep session.
        assertThat(customerEvents().get(200).sessionId()).isEmpty();
    }

    @Test
    void aTerminatedListenerReconnectsAndAsksToResyncSoASaveMadeMeanwhileIsSeen() {
        JdbiCustomerRepository alice = new JdbiCustomerRepository(db.jdbi(), "Alice");
        Customer c = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "F-KILL").build());
        await().atMost(Duration.ofSeconds(10)).until(() -> customerEvents().size() == 1);

        db.jdbi().useHandle(h -> h.createQuery("SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                + " WHERE application_name = 'Lockstep live updates' AND datname = current_database()")
                .mapTo(Boolean.class).list());
        SaveOutcome saved = alice.save(c.id(), 1, c.data().with(CustomerField.CITY, "Nantes"));

        await().atMost(Duration.ofSeconds(30)).until(() -> resyncs.get() == 1);
        assertThat(saved).isInstanceOf(SaveOutcome.Saved.class);
        assertThat(statuses).containsSubsequence(ChangeFeed.Status.LIVE, ChangeFeed.Status.RECONNECTING,
                ChangeFeed.Status.LIVE);
        assertThat(feed.status()).isEqualTo(ChangeFeed.Status.LIVE);
        // What a resync does: read again. The save made while the listener was away is there.
        assertThat(alice.find(c.id()).orElseThrow().version()).isEqualTo(2);
        alice.save(c.id(), 2, c.data().with(CustomerField.CITY, "Brest"));
        await().atMost(Duration.ofSeconds(10)).until(() -> customerEvents().stream().anyMatch(e -> e.version() == 3));
    }

    @Test
    void aSaveWithA50000CharacterNoteSucceedsAndNotifies() {
        JdbiCustomerRepository alice = new JdbiCustomerRepository(db.jdbi(), "Alice");
        Customer c = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "F-LONG").build());
        String note = "Ø".repeat(50_000);

        SaveOutcome outcome = alice.save(c.id(), 1, c.data().with(CustomerField.NOTES, note));

        assertThat(outcome).isInstanceOf(SaveOutcome.Saved.class);
        assertThat(alice.find(c.id()).orElseThrow().data().notes()).hasSize(50_000);
        await().atMost(Duration.ofSeconds(10)).until(() -> customerEvents().stream().anyMatch(e -> e.version() == 2));
    }

    @Test
    void leaseGrantsAndEndsNotifyButRenewalsDoNot() {
        Customer c = new JdbiCustomerRepository(db.jdbi(), "Setup").create(aCustomer()
                .with(CustomerField.EXTERNAL_REF, "F-LEASE").build());
        JdbiLeaseRepository leases = new JdbiLeaseRepository(db.jdbi(), "Alice", "alice-session");
        long token = ((org.lockstep.domain.AcquireOutcome.Granted) leases.acquire(c.id(), 60_000)).lease().token();
        leases.renew(c.id(), token, 60_000);
        leases.release(c.id(), token);

        await().atMost(Duration.ofSeconds(10)).until(() -> events.stream().filter(ChangeEvent::isLease).count() == 2);
        assertThat(events.stream().filter(ChangeEvent::isLease)).allMatch(e -> e.madeBy("alice-session")
                && e.version() == token);
    }
}
