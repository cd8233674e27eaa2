package org.lockstep.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.lockstep.domain.Customer;
import org.lockstep.domain.StoreUnavailableException;
import org.lockstep.store.JdbiCustomerRepository;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.PgBouncer;
import org.lockstep.testing.db.Pg15Cluster;

/**
 * When the server or PgBouncer refuses a connection because it is full, the operator reads which limit was hit and
 * what to do — on starting, and on a save once the client's own connections have closed — not "Connection is not
 * available, request timed out after 5000ms". The server here allows three connections ({@code max_connections = 3},
 * none reserved for superusers).
 */
@DatabaseTest
class ServerFullTest {

    static Pg15Cluster tiny;

    @BeforeAll
    static void tinyServer() throws Exception {
        assumeTrue(Pg15Cluster.installed(), "PostgreSQL 15 server programs are not installed (apt-get install "
                + "postgresql-15; .ci/run installs them): skipped");
        tiny = Pg15Cluster.primary("tiny", "max_connections = 3", "superuser_reserved_connections = 0",
                "max_wal_senders = 0");
        try (Connection c = DriverManager.getConnection(tiny.url("postgres"), Pg15Cluster.SUPERUSER, null);
                Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE lockstep");
        }
    }

    @AfterAll
    static void stop() {
        if (tiny != null) {
            tiny.close();
        }
    }

    @Test
    void aFullServerIsNamedWhenStartingAndWhenSaving() throws Exception {
        String url = tiny.url("lockstep");
        try (Database db = Database.open(url, Pg15Cluster.SUPERUSER, null, "Lockstep full-server test")) {
            JdbiCustomerRepository repo = new JdbiCustomerRepository(db.jdbi(), "Alice");
            Customer c = repo.create(aCustomer().build());
            db.dataSource().unwrap(com.zaxxer.hikari.HikariDataSource.class).getHikariPoolMXBean()
                    .softEvictConnections(); // the pool's idle connection closes, as after 20 s idle
            List<Connection> others = new ArrayList<>();
            try {
                fill(url, others);
                assertThatThrownBy(() -> repo.find(c.id())).isInstanceOf(StoreUnavailableException.class)
                        .hasMessageContaining("max_connections").hasMessageContaining("administrator")
                        .hasMessageNotContaining("timed out");
                assertThatThrownBy(() -> Database.open(url, Pg15Cluster.SUPERUSER, null, "one too many"))
                        .isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining("max_connections").hasMessageContaining("PgBouncer");
            } finally {
                for (Connection o : others) {
                    o.close();
                }
            }
            assertThat(repo.find(c.id())).isPresent();
        }
    }

    @Test
    void aFullPgBouncerIsNamed() throws Exception {
        assumeTrue(PgBouncer.installed(), "PgBouncer is not installed (apt-get install pgbouncer): skipped");
        try (PgBouncer bouncer = PgBouncer.start("127.0.0.1", tiny.port(), Pg15Cluster.SUPERUSER, "unused", 1, 1);
                Connection holder = DriverManager.getConnection(bouncer.url("lockstep") + "?prepareThreshold=0",
                        Pg15Cluster.SUPERUSER, "unused")) {
            assertThat(holder.isValid(2)).isTrue();
            assertThatThrownBy(() -> Database.open(new ServerUrls(bouncer.url("lockstep"), tiny.url("lockstep")),
                    Pg15Cluster.SUPERUSER, "unused", "one too many"))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("max_client_conn");
        }
    }

    /** Opens connections until the server refuses one. */
    static void fill(String url, List<Connection> held) {
        while (true) {
            try {
                held.add(DriverManager.getConnection(url, Pg15Cluster.SUPERUSER, null));
            } catch (java.sql.SQLException full) {
                assertThat(full.getSQLState()).isEqualTo("53300");
                return;
            }
        }
    }
}
