package org.lockstep.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.lockstep.domain.AcquireOutcome;
import org.lockstep.domain.ChangeEvent;
import org.lockstep.domain.ChangeFeed;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.SaveOutcome;
import org.lockstep.store.JdbiCustomerRepository;
import org.lockstep.store.JdbiLeaseRepository;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.PgBouncer;
import org.lockstep.testing.db.PgBouncerExtension;
import org.lockstep.testing.db.TestDatabases;

/**
 * Lockstep through PgBouncer in transaction pooling mode (issue 14): the pool goes through PgBouncer, the listener and
 * migrations to the server itself ({@link ServerUrls}). Saves, conflicts, leases and live updates work as they do on
 * a direct connection, and many clients share PgBouncer's few server connections — with statements that would be
 * prepared on the server after five runs on a direct connection.
 */
@DatabaseTest
class ThroughPgBouncerTest {

    static final int SERVER_POOL = 2;
    @RegisterExtension
    static final PgBouncerExtension bouncer = new PgBouncerExtension(50, SERVER_POOL, PgBouncer.REFUSING_OPTIONS);

    String database;
    final List<Database> clients = new ArrayList<>();

    @BeforeEach
    void freshDatabase() throws Exception {
        database = TestDatabases.freshName();
        // What docs/admin/team-roles.sql does for the database (here for the test's role in it): a pool through
        // PgBouncer sends no session settings, so the server's settings bound its statements.
        admin("ALTER ROLE \"" + TestDatabases.server().user() + "\" IN DATABASE " + database
                + " SET statement_timeout = '10s'");
        admin("ALTER ROLE \"" + TestDatabases.server().user() + "\" IN DATABASE " + database
                + " SET lock_timeout = '4s'");
    }

    @AfterEach
    void closeClients() {
        clients.forEach(Database::close);
    }

    Database client(String name) {
        TestDatabases.Server s = TestDatabases.server();
        Database db =
                Database.open(new ServerUrls(bouncer.get().url(database), s.url(database)), s.user(), s.password(),
                        "Lockstep via PgBouncer (" + name + ")");
        clients.add(db);
        return db;
    }

    @Test
    void poolThroughPgBouncerSendsNoStartupOptionsAndPreparesNothingOnTheServer() {
        TestDatabases.Server s = TestDatabases.server();
        ServerUrls urls = new ServerUrls(bouncer.get().url(database), s.url(database));
        assertThat(urls.poolJdbcUrl()).endsWith("?prepareThreshold=0");
        // A direct-mode pool sends its timeouts as startup options, which PgBouncer 1.18 refuses: the listen URL is
        // what tells Lockstep there is a pooler in between.
        // README's pgbouncer.ini and no --listen-url: one sentence that says what to do, with PgBouncer's words in it.
        assertThatThrownBy(() -> Database.open(bouncer.get().url(database), s.user(), s.password(), "direct mode"))
                .isInstanceOf(IllegalStateException.class).hasMessage("The database URL leads to a connection pooler"
                        + " (PgBouncer), which refuses Lockstep's session settings (FATAL: unsupported startup"
                        + " parameter: options). Give the database server itself as well, with --listen-url (or"
                        + " LOCKSTEP_LISTEN_URL): Lockstep then sends the pooler no settings and listens for changes on"
                        + " the server (docs/admin-guide.md, \"PgBouncer\").");
        Database a = client("a");
        String bound = a.jdbi().withHandle(h -> h.createQuery("SHOW statement_timeout").mapTo(String.class).one());
        assertThat(bound).isEqualTo("10s");
    }

    @Test
    void savesAndConflictsWorkThroughPgBouncer() {
        JdbiCustomerRepository alice = new JdbiCustomerRepository(client("alice").jdbi(), "Alice");
        JdbiCustomerRepository bob = new JdbiCustomerRepository(client("bob").jdbi(), "Bob");
        Customer created = alice.create(aCustomer().build());
        long version = created.version();
        // Twenty saves: pgjdbc would prepare the statement on the server from the fifth run on (prepareThreshold 5).
        for (int i = 0; i < 20; i++) {
            JdbiCustomerRepository who = i % 2 == 0 ? alice : bob;
            SaveOutcome out =
                    who.save(created.id(), version, aCustomer().with(CustomerField.CITY, "City " + i).build());
            assertThat(out).isInstanceOf(SaveOutcome.Saved.class);
            version = ((SaveOutcome.Saved) out).saved().version();
        }
        SaveOutcome stale = bob.save(created.id(), version - 1, aCustomer().with(CustomerField.CITY, "Lost").build());
        assertThat(stale).isInstanceOfSatisfying(SaveOutcome.Conflict.class,
                c -> assertThat(c.theirs().orElseThrow().data().get(CustomerField.CITY)).isEqualTo("City 19"));
        assertThat(alice.find(created.id()).orElseThrow().version()).isEqualTo(version);
    }

    @Test
    void leasesWorkThroughPgBouncer() {
        Database a = client("alice");
        Database b = client("bob");
        JdbiCustomerRepository alice = new JdbiCustomerRepository(a.jdbi(), "Alice", "alice-session");
        JdbiCustomerRepository bob = new JdbiCustomerRepository(b.jdbi(), "Bob", "bob-session");
        JdbiLeaseRepository aliceLeases = new JdbiLeaseRepository(a.jdbi(), "Alice", "alice-session");
        JdbiLeaseRepository bobLeases = new JdbiLeaseRepository(b.jdbi(), "Bob", "bob-session");
        Customer c = alice.create(aCustomer().build());

        AcquireOutcome granted = aliceLeases.acquire(c.id(), 30_000);
        assertThat(granted).isInstanceOf(AcquireOutcome.Granted.class);
        long token = ((AcquireOutcome.Granted) granted).lease().token();
        assertThat(bobLeases.acquire(c.id(), 30_000)).isInstanceOfSatisfying(AcquireOutcome.HeldByOther.class,
                h -> assertThat(h.holder().holder()).isEqualTo("Alice"));
        assertThat(bob.save(c.id(), c.version(), aCustomer().with(CustomerField.CITY, "Bob's").build()))
                .isInstanceOf(SaveOutcome.Locked.class);
        assertThat(alice.saveUnderLease(c.id(), c.version(), aCustomer().with(CustomerField.CITY, "Alice's").build(),
                token)).isInstanceOf(SaveOutcome.Saved.class);
        assertThat(aliceLeases.release(c.id(), token)).isTrue();
        assertThat(bobLeases.acquire(c.id(), 30_000)).isInstanceOfSatisfying(AcquireOutcome.Granted.class,
                g -> assertThat(g.lease().token()).isGreaterThan(token));
        assertThat(bob.find(c.id()).orElseThrow().data().get(CustomerField.CITY)).isEqualTo("Alice's");
    }

    @Test
    void liveUpdatesListenOnTheServerWhileSavesGoThroughPgBouncer() {
        Database a = client("alice");
        Database b = client("bob");
        JdbiCustomerRepository alice = new JdbiCustomerRepository(a.jdbi(), "Alice", "alice-session");
        Customer c = alice.create(aCustomer().build());
        List<ChangeEvent> heard = new CopyOnWriteArrayList<>();
        try (ChangeFeed feed = b.changeFeed(heard::addAll)) {
            feed.start();
            await().atMost(Duration.ofSeconds(10)).until(() -> feed.status() == ChangeFeed.Status.LIVE);
            SaveOutcome out = alice.save(c.id(), c.version(), aCustomer().with(CustomerField.CITY, "Live").build());
            long version = ((SaveOutcome.Saved) out).saved().version();
            await().atMost(Duration.ofSeconds(10)).until(() -> heard.stream()
                    .anyMatch(e -> e.table().equals("customer") && e.id() == c.id() && e.version() == version));
            assertThat(heard).filteredOn(e -> e.id() == c.id() && e.version() == version)
                    .allSatisfy(e -> assertThat(e.sessionId()).contains("alice-session"));
        }
    }

    @Test
    void manyClientsSharePgBouncersFewServerConnections() throws Exception {
        int clientCount = 6;
        List<JdbiCustomerRepository> repos = new ArrayList<>();
        for (int i = 0; i < clientCount; i++) {
            repos.add(new JdbiCustomerRepository(client("op" + i).jdbi(), "Operator " + i));
        }
        ExecutorService pool = Executors.newFixedThreadPool(clientCount);
        try {
            List<Future<Long>> finals = new ArrayList<>();
            for (JdbiCustomerRepository repo : repos) {
                finals.add(pool.submit(() -> {
                    Customer c = repo.create(aCustomer().with(CustomerField.EXTERNAL_REF, null).build());
                    long version = c.version();
                    for (int i = 0; i < 10; i++) {
                        SaveOutcome out = repo.save(c.id(), version,
                                aCustomer().with(CustomerField.EXTERNAL_REF, null)
                                        .with(CustomerField.CITY, "Round " + i).build());
                        version = ((SaveOutcome.Saved) out).saved().version();
                    }
                    return version;
                }));
            }
            for (Future<Long> f : finals) {
                assertThat(f.get()).isEqualTo(11L);
            }
        } finally {
            pool.shutdownNow();
        }
        // Eighteen pooled client connections at most (6 clients × 3), and the server saw PgBouncer's two.
        assertThat(serverConnections()).isLessThanOrEqualTo(SERVER_POOL);
    }

    /** Client backends on the test database now, as the server counts them. */
    int serverConnections() throws Exception {
        TestDatabases.Server s = TestDatabases.server();
        try (Connection c = DriverManager.getConnection(s.url("postgres"), s.adminUser(), s.adminPassword());
                Statement st = c.createStatement();
                var rs = st.executeQuery("SELECT count(*) FROM pg_stat_activity WHERE datname = '" + database + "'"
                        + " AND backend_type = 'client backend'")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    static void admin(String sql) throws Exception {
        TestDatabases.Server s = TestDatabases.server();
        try (Connection c = DriverManager.getConnection(s.url("postgres"), s.adminUser(), s.adminPassword());
                Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }
}
