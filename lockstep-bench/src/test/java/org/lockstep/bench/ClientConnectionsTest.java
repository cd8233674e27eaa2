package org.lockstep.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.lockstep.server.Database;
import org.lockstep.config.LockstepConfig;
import org.lockstep.domain.Customer;
import org.lockstep.store.JdbiCustomerRepository;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.TestDatabases;

/**
 * How many server connections one operator's client holds (issue 14), counted in {@code pg_stat_activity} by
 * application name: the client opened as the desktop application opens it ({@link Database#open(LockstepConfig,
 * String)}, its change feed and presence heartbeat). Busy, it holds at most its pool's {@value Database#POOL_SIZE}
 * and its listener; idle, at most its listener and one pooled connection (the heartbeat's).
 */
@DatabaseTest
class ClientConnectionsTest {

    @Test
    void anIdleClientHoldsItsListenerAndAtMostOnePooledConnection() throws Exception {
        String url = TestDatabases.freshUrlWithCredentials();
        LockstepConfig config = new LockstepConfig(Optional.of(url), Path.of("target", "connections-test"), "Alice");
        Database db = Database.open(config, "Lockstep");
        String database = db.jdbi().withHandle(h -> h.createQuery("SELECT current_database()").mapTo(String.class)
                .one());
        ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor();
        try (OperatorClient client = new OperatorClient(db, "Alice", timers, OperatorClient.newStartTimes())) {
            await().atMost(Duration.ofSeconds(10)).until(client::live);
            JdbiCustomerRepository repo = new JdbiCustomerRepository(db.jdbi(), "Alice");
            List<Long> ids = new ArrayList<>();
            for (Customer c : repo.page(org.lockstep.domain.CustomerPageRequest.first(""))) {
                ids.add(c.id());
            }
            // Busy: the editor's three background calls at once, over and over.
            ExecutorService three = Executors.newFixedThreadPool(3);
            List<Future<?>> calls = new ArrayList<>();
            for (int i = 0; i < 30; i++) {
                long id = ids.get(i % ids.size());
                calls.add(three.submit(() -> client.work(id, 1_000_000, false, new SplittableRandom())));
            }
            int busiest = 0;
            while (calls.stream().anyMatch(f -> !f.isDone())) {
                busiest = Math.max(busiest, connections(database, "Lockstep (Alice)"));
            }
            three.shutdown();
            assertThat(three.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
            System.out.printf("client connections busy: at most %d pooled + %d listening%n", busiest,
                    connections(database, "Lockstep live updates"));
            assertThat(busiest).isLessThanOrEqualTo(Database.POOL_SIZE);
            assertThat(client.counts().errors).isZero();
            assertThat(connections(database, "Lockstep live updates")).isEqualTo(1);

            // Idle: the pool closes what the heartbeat does not use.
            await("the idle pool shrinking").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(1))
                    .until(() -> connections(database, "Lockstep (Alice)") <= 1);
            int idle = connections(database, "Lockstep live updates") + connections(database, "Lockstep (Alice)");
            System.out.printf("client connections idle: %d in all%n", idle);
            assertThat(idle).isBetween(1, 2);
        } finally {
            timers.shutdownNow(); // the heartbeat's timer is the caller's to end (issue 27)
            assertThat(timers.awaitTermination(5, TimeUnit.SECONDS)).isTrue();
        }
    }

    /** The server's connections to {@code database} with this application name. */
    static int connections(String database, String application) throws Exception {
        TestDatabases.Server s = TestDatabases.server();
        try (Connection c = DriverManager.getConnection(s.url("postgres"), s.adminUser(), s.adminPassword());
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT count(*) FROM pg_stat_activity WHERE datname = '" + database
                        + "' AND application_name = '" + application.replace("'", "''") + "'")) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
