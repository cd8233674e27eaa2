package org.lockstep.shell;

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
import javafx.scene.control.TableView;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.lockstep.config.LockstepConfig;
import org.lockstep.ui.guihandles.Fx;
import org.lockstep.server.Database;
import org.lockstep.server.PostgresClient;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.TestDatabases;
import org.lockstep.testing.fx.WindowTest;
import org.lockstep.ui.UiContext;
import org.lockstep.ui.list.ListIds;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;

/**
 * Idle means idle on the server too (issue 30): the desktop application as an operator starts it — its pool, change
 * feed, presence heartbeat, main window with the list and its lock column — left alone, holds at most two server
 * connections (its listener and the one pooled connection the heartbeat keeps warm), sampled every 2 s for a minute,
 * and never reads the lease table on a timer: the lock icons follow the change feed. Before, the list read every
 * lease every 2 s, which kept a second pooled connection from its idle timeout: three connections.
 */
@WindowTest
@DatabaseTest
@Timeout(300)
class IdleClientConnectionsTest {

    final FxRobot robot = new FxRobot();

    @Test
    void anIdleDesktopHoldsTwoConnectionsForAMinuteAndReadsNoLeasesOnATimer(@TempDir Path dataDir)
            throws Exception {
        String url = TestDatabases.freshUrlWithCredentials();
        LockstepConfig config = new LockstepConfig(Optional.of(url), dataDir, "Alice");
        Database db = Database.open(config, "Lockstep");
        String database = db.jdbi().withHandle(h -> h.createQuery("SELECT current_database()").mapTo(String.class)
                .one());
        LockstepApplication.useContext(new UiContext("Alice", () -> UiContext.Backend.of(
                PostgresClient.of(db, "Alice", db::close), Duration.ofSeconds(60), Duration.ofMinutes(15), null)));
        LockstepApplication app = (LockstepApplication) FxToolkit.setupApplication(LockstepApplication::new);
        try {
            // Looked up on the FX thread, whose scene graph it is (a lookup from here can walk a list as it changes).
            await("the first page").atMost(Duration.ofSeconds(60)).until(() -> Fx.call(() -> robot.lookup(
                    "#" + ListIds.CUSTOMER_TABLE).tryQuery().map(t -> !((TableView<?>) t).getItems().isEmpty())
                    .orElse(false)));
            // The connection the pool keeps may have last run the start's one read of the leases (the list's lock
            // column) until the heartbeat's next query lands on it: the minute starts once it has, so that a lease
            // read seen in it is one made while idle.
            await("the idle pool shrinking to the heartbeat's connection").atMost(Duration.ofSeconds(90))
                    .pollInterval(Duration.ofSeconds(1)).until(() -> {
                        Sample s = sample(database);
                        return s.total() <= 2 && s.leaseReads() == 0;
                    });

            List<Sample> samples = new ArrayList<>();
            await("a minute of idle samples").during(Duration.ofSeconds(60)).atMost(Duration.ofSeconds(75))
                    .pollInterval(Duration.ofSeconds(2)).until(() -> {
                        Sample s = sample(database);
                        samples.add(s);
                        return s.total() <= 2 && s.leaseReads() == 0;
                    });

            assertThat(samples).hasSizeGreaterThanOrEqualTo(25).allSatisfy(s -> {
                assertThat(s.listening()).as("the change feed's connection").isEqualTo(1);
                assertThat(s.pooled()).as("pooled connections").isLessThanOrEqualTo(1);
                assertThat(s.leaseReads()).as("connections whose last query read the leases").isZero();
            });
        } finally {
            FxToolkit.cleanupApplication(app);
            FxToolkit.cleanupStages();
        }
    }

    /**
     * One look at the server: the client's pooled connections and its listener, and how many of its connections last
     * ran a query of the lease table.
     */
    record Sample(int pooled, int listening, int leaseReads) {
        int total() {
            return pooled + listening;
        }
    }

    private static Sample sample(String database) throws Exception {
        TestDatabases.Server s = TestDatabases.server();
        try (Connection c = DriverManager.getConnection(s.url("postgres"), s.adminUser(), s.adminPassword());
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT count(*) FILTER (WHERE application_name = 'Lockstep (Alice)'),"
                        + " count(*) FILTER (WHERE application_name = 'Lockstep live updates'),"
                        + " count(*) FILTER (WHERE application_name LIKE 'Lockstep%' AND query ILIKE '%FROM record_lease%')"
                        + " FROM pg_stat_activity WHERE datname = '" + database + "'")) {
            rs.next();
            return new Sample(rs.getInt(1), rs.getInt(2), rs.getInt(3));
        }
    }
}
