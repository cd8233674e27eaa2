package org.lockstep.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.lockstep.server.Database;
import org.lockstep.domain.Presence;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.TestDatabases;

/**
 * Heartbeats of many clients at once, each of whose rows had expired (a room of laptops waking up, a network
 * partition healing): every heartbeat both revives its own rows and clears others' expired ones. Found by
 * {@code bench operators} with 100 clients: clearing others' rows in the same transaction as reviving one's own
 * deadlocked ("deadlock detected"; retried once, so a heartbeat was lost only when the retry deadlocked too). Every
 * heartbeat must succeed and leave its rows alive, and the server must count no deadlock on the database.
 */
@DatabaseTest
class PresenceHeartbeatContentionTest {

    static final int CLIENTS = 12;
    static final int CUSTOMERS = 20;
    static final int ROUNDS = 20;

    Database db;
    final List<Database> machines = new ArrayList<>();

    @BeforeEach
    void open() {
        String name = TestDatabases.freshName();
        TestDatabases.Server s = TestDatabases.server();
        db = Database.open(s.url(name), s.user(), s.password(), "presence test");
        // One pool per client, as on separate machines: every heartbeat has a connection of its own at once.
        for (int i = 0; i < CLIENTS; i++) {
            machines.add(Database.open(s.url(name), s.user(), s.password(), "presence test client " + i));
        }
    }

    @AfterEach
    void close() {
        machines.forEach(Database::close);
        db.close(); // again after the test's own close: harmless
    }

    @Test
    void concurrentHeartbeatsOverExpiredRowsAllSucceed() throws Exception {
        Map<Long, Presence.State> open = LongStream.rangeClosed(1, CUSTOMERS).boxed()
                .collect(Collectors.toMap(id -> id, id -> Presence.State.VIEWING));
        List<JdbiPresenceRepository> clients = new ArrayList<>();
        for (int i = 0; i < CLIENTS; i++) {
            clients.add(new JdbiPresenceRepository(machines.get(i).jdbi(), "op" + i, "session-" + i,
                    Duration.ofSeconds(30)));
        }
        ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
        try {
            for (int round = 0; round < ROUNDS; round++) {
                // Every client's rows expired a moment ago.
                // Every client's rows expired a moment ago, interleaved on the pages as heartbeats over time leave
                // them.
                db.jdbi().useHandle(h -> h.execute("DELETE FROM presence"));
                db.jdbi().useHandle(h -> h.createUpdate("""
                        INSERT INTO presence (session_id, user_name, customer_id, state, expires_at)
                        SELECT 'session-' || s, 'op' || s, c, 'viewing', clock_timestamp() - interval '1 second'
                        FROM generate_series(1, :customers) AS c, generate_series(0, :clients - 1) AS s
                        ORDER BY c, s
                        """).bind("customers", CUSTOMERS).bind("clients", CLIENTS).execute());
                CyclicBarrier together = new CyclicBarrier(CLIENTS);
                List<Future<?>> beats = new ArrayList<>();
                for (JdbiPresenceRepository c : clients) {
                    beats.add(pool.submit(() -> {
                        together.await();
                        c.heartbeat(open);
                        return null;
                    }));
                }
                for (Future<?> beat : beats) {
                    beat.get(); // a deadlock surfaces here as "The database refused the request: deadlock detected"
                }
                int alive = db.jdbi().withHandle(h -> h.createQuery(
                        "SELECT count(*) FROM presence WHERE expires_at > clock_timestamp()").mapTo(Integer.class)
                        .one());
                assertThat(alive).isEqualTo(CLIENTS * CUSTOMERS);
            }
        } finally {
            pool.shutdownNow();
        }
        String name = db.jdbi().withHandle(h -> h.createQuery("SELECT current_database()").mapTo(String.class).one());
        // A backend reports its deadlocks to the statistics when it exits, at the latest: close the pools first.
        machines.forEach(Database::close);
        db.close();
        await().atMost(Duration.ofSeconds(30)).until(() -> admin(name,
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()")
                == 0);
        assertThat(admin(name, "SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()"))
                .isZero();
    }

    static long admin(String database, String sql) throws Exception {
        TestDatabases.Server s = TestDatabases.server();
        try (Connection c = DriverManager.getConnection(s.url(database), s.adminUser(), s.adminPassword());
                Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
