package org.lockstep.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.lockstep.domain.AcquireOutcome;
import org.lockstep.domain.ChangeEvent;
import org.lockstep.domain.ChangeFeed;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.SaveOutcome;
import org.lockstep.store.JdbiCustomerRepository;
import org.lockstep.store.JdbiLeaseRepository;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.Pg15Cluster;

/**
 * The failover drill (issue 14), without Docker: a primary and a streaming synchronous standby of the OS packages'
 * PostgreSQL 15 ({@code synchronous_standby_names = '*'}, {@code synchronous_commit = on}), two Lockstep clients on a
 * multi-host URL with {@code targetServerType=primary}. The primary is stopped hard and the standby promoted; then
 * every save acknowledged before is there, the client's unsaved edits save, the live feed resumes (after asking for a
 * resync), and the lease granted before either still fences its holder's saves or refuses them — its fencing token
 * never goes backwards on the new primary.
 */
@DatabaseTest
class FailoverDrillTest {

    Pg15Cluster primary;
    Pg15Cluster standby;
    final List<Database> clients = new ArrayList<>();
    final List<ChangeFeed> feeds = new ArrayList<>();

    @BeforeEach
    void primaryAndSynchronousStandby() throws Exception {
        assumeTrue(Pg15Cluster.installed(), "PostgreSQL 15 server programs are not installed (apt-get install "
                + "postgresql-15; .ci/run installs them): the failover drill is skipped");
        primary = Pg15Cluster.primary("primary", "synchronous_standby_names = '*'", "synchronous_commit = on",
                "max_connections = 40");
        standby = primary.standby("standby1");
        try (Connection c = DriverManager.getConnection(primary.url("postgres"), Pg15Cluster.SUPERUSER, null);
                Statement s = c.createStatement()) {
            s.execute("CREATE ROLE lockstep_app LOGIN");
            s.execute("CREATE DATABASE lockstep OWNER lockstep_app");
        }
        // Synchronous from here on: a commit on the primary returns only once the standby has it on disk.
        await("the standby streaming synchronously").atMost(Duration.ofSeconds(30)).until(
                () -> "sync".equals(query(primary.url("postgres"), "SELECT sync_state FROM pg_stat_replication")));
    }

    @AfterEach
    void stop() {
        feeds.forEach(ChangeFeed::close);
        clients.forEach(Database::close);
        if (standby != null) {
            standby.close();
        }
        if (primary != null) {
            primary.close();
        }
    }

    String multiHostUrl() {
        return "jdbc:postgresql://127.0.0.1:" + primary.port() + ",127.0.0.1:" + standby.port()
                + "/lockstep?targetServerType=primary";
    }

    Database client(String name) {
        Database db = Database.open(multiHostUrl(), "lockstep_app", null, "Lockstep drill (" + name + ")");
        clients.add(db);
        return db;
    }

    @Test
    void promotedStandbyHasEveryAcknowledgedSaveAndClientsCarryOn() throws Exception {
        Database a = client("alice");
        Database b = client("bob");
        JdbiCustomerRepository alice = new JdbiCustomerRepository(a.jdbi(), "Alice", "alice-session");
        JdbiCustomerRepository bob = new JdbiCustomerRepository(b.jdbi(), "Bob", "bob-session");
        JdbiLeaseRepository aliceLeases = new JdbiLeaseRepository(a.jdbi(), "Alice", "alice-session");
        JdbiLeaseRepository bobLeases = new JdbiLeaseRepository(b.jdbi(), "Bob", "bob-session");

        List<ChangeEvent> bobHeard = new CopyOnWriteArrayList<>();
        AtomicInteger bobResyncs = new AtomicInteger();
        ChangeFeed bobFeed = b.changeFeed(new ChangeFeed.Listener() {
            @Override
            public void changes(List<ChangeEvent> batch) {
                bobHeard.addAll(batch);
            }

            @Override
            public void resync() {
                bobResyncs.incrementAndGet();
            }
        });
        feeds.add(bobFeed);
        bobFeed.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> bobFeed.status() == ChangeFeed.Status.LIVE);

        // Before: saves acknowledged to Alice, a lease she holds, and Bob's edits not saved yet.
        Customer shared = alice.create(aCustomer().build());
        Customer leased = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "EXT-2").build());
        long acknowledged = shared.version();
        for (int i = 0; i < 5; i++) {
            SaveOutcome out = alice.save(shared.id(), acknowledged,
                    aCustomer().with(CustomerField.CITY, "Before " + i).build());
            acknowledged = ((SaveOutcome.Saved) out).saved().version();
        }
        long token = ((AcquireOutcome.Granted) aliceLeases.acquire(leased.id(), 600_000)).lease().token();
        Customer bobsBase = bob.find(shared.id()).orElseThrow();
        CustomerData bobsEdits = bobsBase.data().with(CustomerField.PHONE, "+49 30 1234567");

        primary.stopHard();
        standby.promote();

        // The pool reconnects to the new primary (pgjdbc tries the hosts in turn for targetServerType=primary).
        await("the pool on the new primary").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500))
                .ignoreExceptions().until(() -> alice.find(shared.id()).isPresent());
        Customer after = alice.find(shared.id()).orElseThrow();
        assertThat(after.version()).isEqualTo(acknowledged);
        assertThat(after.data().get(CustomerField.CITY)).isEqualTo("Before 4");

        // The feed reconnects and asks for a resync (notifications sent while it was away are gone).
        await("the feed live again").atMost(Duration.ofSeconds(60))
                .until(() -> bobResyncs.get() >= 1 && bobFeed.status() == ChangeFeed.Status.LIVE);

        // Bob's unsaved edits were made on the last acknowledged version: they save on the new primary.
        SaveOutcome bobsSave = bob.save(shared.id(), bobsBase.version(), bobsEdits);
        assertThat(bobsSave).isInstanceOf(SaveOutcome.Saved.class);
        long bobsVersion = ((SaveOutcome.Saved) bobsSave).saved().version();
        assertThat(bobsVersion).isEqualTo(acknowledged + 1);
        SaveOutcome aliceNext = alice.save(shared.id(), bobsVersion,
                bobsEdits.with(CustomerField.CITY, "After failover"));
        long aliceVersion = ((SaveOutcome.Saved) aliceNext).saved().version();
        await("the live feed resumed").atMost(Duration.ofSeconds(10)).until(() -> bobHeard.stream()
                .anyMatch(e -> e.id() == shared.id() && e.version() == aliceVersion));

        // The lease granted before the failover: still Alice's (it was committed synchronously), so Bob is refused
        // and Alice's save under her token succeeds; a later grant's token is larger than hers.
        assertThat(bobLeases.acquire(leased.id(), 60_000)).isInstanceOf(AcquireOutcome.HeldByOther.class);
        assertThat(bob.save(leased.id(), leased.version(), aCustomer().with(CustomerField.EXTERNAL_REF, "EXT-2")
                .with(CustomerField.CITY, "Bob's").build())).isInstanceOf(SaveOutcome.Locked.class);
        SaveOutcome underLease = alice.saveUnderLease(leased.id(), leased.version(),
                aCustomer().with(CustomerField.EXTERNAL_REF, "EXT-2").with(CustomerField.CITY, "Alice's").build(),
                token);
        assertThat(underLease).isInstanceOf(SaveOutcome.Saved.class);
        assertThat(aliceLeases.release(leased.id(), token)).isTrue();
        assertThat(bobLeases.acquire(leased.id(), 60_000)).isInstanceOfSatisfying(AcquireOutcome.Granted.class,
                g -> assertThat(g.lease().token()).isGreaterThan(token));
        assertThat(query(standby.url("lockstep"), "SELECT pg_is_in_recovery()::text")).isEqualTo("false");
    }

    static String query(String url, String sql) throws Exception {
        try (Connection c = DriverManager.getConnection(url, Pg15Cluster.SUPERUSER, null);
                Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            return rs.next() ? rs.getString(1) : null;
        }
    }
}
