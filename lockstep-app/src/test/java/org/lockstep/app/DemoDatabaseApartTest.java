package org.lockstep.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.lockstep.config.LockstepConfig;
import org.lockstep.server.Database;
import org.lockstep.server.EmbeddedServer;
import org.lockstep.shell.DemoApplication;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.fx.WindowTest;
import org.lockstep.ui.DemoClients;
import org.lockstep.ui.FxTaskExecutor;
import org.lockstep.ui.demo.DemoSession;
import org.lockstep.ui.demo.OpenDemo;
import org.lockstep.ui.demo.Scenarios;
import org.lockstep.ui.guihandles.Fx;
import org.testfx.api.FxToolkit;

/**
 * Issue 27: the trainer demo keeps its customers in a database of its own on the embedded server, {@code lockstep_demo},
 * as the application wires it — {@code lockstep demo} ({@link DesktopApp#openDemoDatabase}) and Tools → Trainer demo
 * ({@link DesktopApp#demoBeside}). After the demo's windows ran a scenario, the operators' database (read back from the
 * server) holds what it held, its 59 sample customers and no DEMO customer; the demo's database holds the scenario's
 * customer; and the next launch starts that database afresh, so the customer gets the same id again. One data
 * directory, one embedded server for the class.
 */
@WindowTest(closeWindowsAfterEachTest = false)
@DatabaseTest
@Timeout(300)
class DemoDatabaseApartTest {

    private static final Duration TTL = Duration.ofSeconds(15);

    @TempDir
    static Path dataDir;
    static LockstepConfig config;
    static FxTaskExecutor executor;

    @BeforeAll
    static void configure() {
        config = LockstepConfig.resolve(null, dataDir, "Ana", Map.of()); // the operator at this machine
        executor = new FxTaskExecutor(1);
    }

    @AfterAll
    static void stopServer() throws Exception {
        FxToolkit.cleanupStages();
        executor.closeAndWait(Duration.ofSeconds(10));
        server().stop();
    }

    @Test
    void aScenarioRunInTheDemoLeavesTheOperatorsDatabaseAsItWas() throws Exception {
        try (Database operators = Database.open(config, "operators")) {
            List<String> customersBefore = rows(EmbeddedServer.DATABASE, "SELECT id || ' ' || external_ref || ' v'"
                    + " || version FROM customer ORDER BY id");
            List<String> trailBefore = rows(EmbeddedServer.DATABASE, "SELECT (SELECT count(*) FROM customer_history)"
                    + " || ' ' || (SELECT count(*) FROM conflict_event)");

            DemoApplication.Opened opened = DesktopApp.openDemoDatabase(config, TTL);
            DemoSession demo = OpenDemo.open(opened.clients(), executor);
            try {
                runAllOf(demo, 2); // optimistic, different fields: two saves and a merge
            } finally {
                OpenDemo.close(demo);
                opened.shutdown().run();
            }

            assertThat(customersBefore).hasSize(59);
            assertThat(rows(EmbeddedServer.DATABASE, "SELECT id || ' ' || external_ref || ' v' || version"
                    + " FROM customer ORDER BY id")).isEqualTo(customersBefore);
            assertThat(rows(EmbeddedServer.DATABASE, "SELECT external_ref FROM customer WHERE external_ref LIKE"
                    + " 'DEMO-%' UNION ALL SELECT changed_by FROM customer_history WHERE changed_by IN"
                    + " ('Alice', 'Bob', 'Trainer')")).isEmpty();
            assertThat(rows(EmbeddedServer.DATABASE, "SELECT (SELECT count(*) FROM customer_history) || ' '"
                    + " || (SELECT count(*) FROM conflict_event)")).isEqualTo(trailBefore);
            assertThat(rows(EmbeddedServer.DEMO_DATABASE, "SELECT external_ref || ' v' || version || ' '"
                    + " || updated_by FROM customer WHERE external_ref LIKE 'DEMO-%'"))
                    .containsExactly("DEMO-2 v3 Bob");
            assertThat(rows(EmbeddedServer.DEMO_DATABASE, "SELECT count(*) FROM customer")).containsExactly("60");
        }
    }

    @Test
    void eachLaunchStartsTheDemosDatabaseAfreshSoTheScenariosCustomerKeepsItsId() throws Exception {
        DemoApplication.Opened first = DesktopApp.openDemoDatabase(config, TTL);
        DemoSession demo = OpenDemo.open(first.clients(), executor);
        String firstLaunch;
        try {
            runAllOf(demo, 1);
            firstLaunch = rows(EmbeddedServer.DEMO_DATABASE, "SELECT id FROM customer WHERE external_ref = 'DEMO-1'")
                    .get(0);
        } finally {
            OpenDemo.close(demo);
            first.shutdown().run();
        }

        // Tools → Trainer demo opens the demo's database when the demo opens and closes it with the demo.
        DemoClients fromTheEditor = DesktopApp.demoBeside(config, TTL, null);
        demo = OpenDemo.open(fromTheEditor, executor);
        try {
            runAllOf(demo, 1);
            assertThat(rows(EmbeddedServer.DEMO_DATABASE, "SELECT id || ' v' || version FROM customer"
                    + " WHERE external_ref = 'DEMO-1'")).containsExactly(firstLaunch + " v3");
            // Nothing of the first launch is left: its history went with its database.
            assertThat(rows(EmbeddedServer.DEMO_DATABASE, "SELECT count(DISTINCT customer_id) FROM customer_history"
                    + " WHERE customer_id > 59")).containsExactly("1");
        } finally {
            OpenDemo.close(demo);
        }
        assertThat(rows(EmbeddedServer.DEMO_DATABASE, "SELECT count(*) FROM pg_stat_activity"
                + " WHERE datname = current_database() AND pid <> pg_backend_pid()"))
                .as("the demo's connections, closed with the demo").containsExactly("0");
    }

    @Test
    void aDemoStartingWhileAnotherRunsSharesItsDatabaseInsteadOfCuttingItOff() throws Exception {
        DemoApplication.Opened running = DesktopApp.openDemoDatabase(config, TTL);
        EmbeddedServer.Endpoint admin = server().adminEndpoint();
        // A session on the demo's database, as the running demo's operators' live feeds hold theirs.
        try (Connection another = DriverManager.getConnection(admin.jdbcUrl(EmbeddedServer.DEMO_DATABASE),
                admin.user(), admin.password())) {
            running.clients().records().reset(Scenarios.all().get(0).start());

            DemoApplication.Opened second = DesktopApp.openDemoDatabase(config, TTL);
            second.shutdown().run();

            assertThat(another.isValid(5)).isTrue();
            assertThat(rows(EmbeddedServer.DEMO_DATABASE, "SELECT count(*) FROM customer"
                    + " WHERE external_ref = 'DEMO-1'")).containsExactly("1");
        } finally {
            running.shutdown().run();
        }
    }

    /** Chooses scenario {@code number} and runs all its steps in the demo's windows. */
    private static void runAllOf(DemoSession demo, int number) throws Exception {
        Fx.run(() -> demo.trainer().selectedProperty().set(demo.trainer().scenarios().get(number - 1)));
        CompletableFuture<Void> run = Fx.call(() -> demo.trainer().runAll());
        try {
            run.get(120, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError("The scenario failed: " + Fx.call(() -> demo.trainer().errorProperty().get()), e);
        }
        assertThat(Fx.call(() -> demo.trainer().errorProperty().get())).isEmpty();
    }

    /** The first column of {@code sql}'s rows in {@code database}, read as the server's superuser. */
    private static List<String> rows(String database, String sql) throws SQLException {
        EmbeddedServer.Endpoint admin = server().adminEndpoint();
        try (Connection c = DriverManager.getConnection(admin.jdbcUrl(database), admin.user(), admin.password());
                Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            List<String> values = new ArrayList<>();
            while (rs.next()) {
                values.add(rs.getString(1));
            }
            return values;
        }
    }

    private static EmbeddedServer server() {
        return new EmbeddedServer(dataDir, LockstepConfig.cacheDir(System.getenv()));
    }
}
