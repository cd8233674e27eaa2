package org.lockstep.server;

import org.lockstep.config.LockstepConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lockstep.domain.ChangeEvent;
import org.lockstep.domain.ChangeFeed;
import org.lockstep.store.JdbiCustomerRepository;
import org.lockstep.testing.db.ClientProcess;
import org.lockstep.testing.CustomerBuilder;
import org.lockstep.testing.db.DatabaseTest;

/**
 * The embedded server shared by Lockstep processes on one data directory: real JVMs, real PostgreSQL, real
 * {@code kill -9}.
 */
@DatabaseTest
class EmbeddedServerTest {

    @TempDir
    Path dataDir;

    private final List<Client> clients = new ArrayList<>();

    @AfterEach
    void cleanUp() {
        clients.forEach(c -> c.process.destroyForcibly());
        new EmbeddedServer(dataDir, cacheDir()).stop();
    }

    @Test
    void twoProcessesStartingAtOnceShareOneServerAndSurviveEachOthersKill() throws Exception {
        Client a = start();
        Client b = start();
        a.awaitReady();
        b.awaitReady();
        EmbeddedServer.Status status = new EmbeddedServer(dataDir, cacheDir()).status();
        assertThat(status.running()).isTrue();
        assertThat(status.clients()).isGreaterThanOrEqualTo(2);

        a.process.destroyForcibly(); // kill -9: no shutdown hook, no goodbye
        a.process.waitFor(30, TimeUnit.SECONDS);
        // The server ends a's sessions once it notices their sockets closed; on a loaded machine that can take a
        // moment, and until then b, quitting, would rightly see another client and leave the server running.
        await().atMost(Duration.ofSeconds(30)).until(() -> sessionsOf(a) == 0);

        // Both started on an empty data directory; the sample was loaded once, not twice.
        assertThat(b.ask("count")).isEqualTo("count 59");
        assertThat(b.ask("quit")).isEqualTo("closed");
        assertThat(b.process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        // b was the last client: it stopped the server on its way out.
        assertThat(new EmbeddedServer(dataDir, cacheDir()).status().running()).isFalse();
    }

    @Test
    void aClosingClientLeavesTheServerRunningForTheOther() throws Exception {
        Client a = start();
        a.awaitReady();
        Client b = start();
        b.awaitReady();

        assertThat(a.ask("quit")).isEqualTo("closed");
        a.process.waitFor(60, TimeUnit.SECONDS);

        assertThat(new EmbeddedServer(dataDir, cacheDir()).status().running()).isTrue();
        assertThat(b.ask("count")).isEqualTo("count 59");
    }

    @Test
    void aStalePostmasterPidLeftByACrashDoesNotStopTheNextStart() throws Exception {
        EmbeddedServer server = new EmbeddedServer(dataDir, cacheDir());
        int firstPort = server.ensureRunning().port();
        long pid = server.status().pid();
        ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
        await().atMost(Duration.ofSeconds(30)).until(() -> ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true));
        Path pidFile = dataDir.resolve("pgdata/postmaster.pid");
        // Make the leftover file as misleading as possible: its pid now belongs to a live process that isn't PostgreSQL.
        List<String> lines = new ArrayList<>(Files.readAllLines(pidFile));
        lines.set(0, Long.toString(ProcessHandle.current().pid()));
        Files.write(pidFile, lines);

        assertThat(server.status().running()).isFalse();
        EmbeddedServer.Endpoint endpoint = server.ensureRunning();

        assertThat(server.status().running()).isTrue();
        assertThat(endpoint.port()).isPositive();
        try (Database db = migratedAndOpen(endpoint)) {
            int one = db.jdbi().withHandle(h -> h.createQuery("SELECT 1").mapTo(Integer.class).one());
            assertThat(one).isEqualTo(1);
        }
        assertThat(firstPort).isPositive();
    }

    @Test
    void theLoginRolesPasswordsAreOneIterationVerifiersAndAnOlderDirectorysAreMadeSoAtItsNextStart() throws Exception {
        EmbeddedServer server = new EmbeddedServer(dataDir, cacheDir());
        EmbeddedServer.Endpoint app = server.ensureRunning();
        EmbeddedServer.Endpoint admin = server.adminEndpoint();
        assertThat(verifierIterations(admin)).containsExactly("lockstep=1", "lockstep_app=1");

        // As a data directory made before: both passwords hashed as initdb and PostgreSQL do by default.
        try (Connection c = DriverManager.getConnection(admin.jdbcUrl("postgres"), admin.user(), admin.password());
                java.sql.Statement s = c.createStatement()) {
            s.execute("SET scram_iterations = 4096");
            s.execute("ALTER ROLE lockstep_app PASSWORD '" + app.password() + "'");
            s.execute("ALTER ROLE lockstep PASSWORD '" + admin.password() + "'");
        }
        assertThat(verifierIterations(admin)).containsExactly("lockstep=4096", "lockstep_app=4096");

        EmbeddedServer.Endpoint again = server.ensureRunning();

        assertThat(verifierIterations(admin)).containsExactly("lockstep=1", "lockstep_app=1");
        try (Connection c = DriverManager.getConnection(again.jdbcUrl("lockstep"), again.user(), again.password());
                ResultSet rs = c.createStatement().executeQuery("SELECT current_user")) {
            rs.next();
            assertThat(rs.getString(1)).isEqualTo("lockstep_app");
        }
    }

    /** role=iterations of each login role with a password, by name. */
    private static List<String> verifierIterations(EmbeddedServer.Endpoint admin) throws Exception {
        List<String> found = new ArrayList<>();
        try (Connection c = DriverManager.getConnection(admin.jdbcUrl("postgres"), admin.user(), admin.password());
                ResultSet rs = c.createStatement().executeQuery("SELECT rolname, substring(rolpassword FROM"
                        + " '^SCRAM-SHA-256\\$([0-9]+):') FROM pg_authid WHERE rolpassword IS NOT NULL ORDER BY 1")) {
            while (rs.next()) {
                found.add(rs.getString(1) + "=" + rs.getString(2));
            }
        }
        return found;
    }

    @Test
    void dataSurvivesARestart() {
        EmbeddedServer server = new EmbeddedServer(dataDir, cacheDir());
        EmbeddedServer.Endpoint endpoint = server.ensureRunning();
        try (Database db = migratedAndOpen(endpoint)) {
            db.jdbi().useHandle(h -> h.execute("INSERT INTO customer (company) VALUES ('Kept Ltd')"));
        }
        assertThat(server.stop()).isTrue();
        assertThat(server.stop()).isFalse();

        EmbeddedServer.Endpoint again = server.ensureRunning();
        try (Database db = migratedAndOpen(again)) {
            List<String> companies = db.jdbi().withHandle(h -> h.createQuery("SELECT company FROM customer")
                    .mapTo(String.class).list());
            assertThat(companies).containsExactly("Kept Ltd");
        }
    }

    @Test
    void aSaveThatFailedWhileTheServerWasDownSucceedsOnceItIsBack() {
        EmbeddedServer server = new EmbeddedServer(dataDir, cacheDir());
        EmbeddedServer.Endpoint endpoint = server.ensureRunning();
        try (Database db = migratedAndOpen(endpoint)) {
            var repo = new org.lockstep.store.JdbiCustomerRepository(db.jdbi(), "Alice");
            var created = repo.create(org.lockstep.testing.CustomerBuilder.aCustomer().build());
            var edited = created.data().with(org.lockstep.domain.CustomerField.CITY, "Campinas");
            server.stop();

            // The pooled connection died with the server: whether the save got there first cannot be told, and
            // the retry finds no server. Either message is true; neither claims the save failed or succeeded.
            assertThatThrownBy(() -> repo.save(created.id(), created.version(), edited))
                    .isInstanceOf(org.lockstep.domain.StoreUnavailableException.class)
                    .satisfies(e -> assertThat(e.getMessage()).satisfiesAnyOf(
                            m -> assertThat(m).startsWith("Cannot reach the database"),
                            m -> assertThat(m).contains("is unknown").contains("saving them again is safe")));

            assertThat(server.ensureRunning().port()).isEqualTo(endpoint.port());
            assertThat(repo.save(created.id(), created.version(), edited))
                    .isInstanceOf(org.lockstep.domain.SaveOutcome.Saved.class);
            assertThat(repo.find(created.id()).orElseThrow().data().city()).isEqualTo("Campinas");
        }
    }

    @Test
    void aServerKilledUnderAnOpenDatabaseIsStartedAgainByThatClientAndTheNextQuerySucceeds() throws Exception {
        LockstepConfig config = LockstepConfig.resolve(null, dataDir, "Alice", Map.of());
        try (Database db = Database.open(config, "test", false)) {
            db.jdbi().useHandle(h -> h.execute("INSERT INTO customer (company) VALUES ('Before the crash')"));
            EmbeddedServer server = db.embeddedServer().orElseThrow();
            EmbeddedServer.Status before = server.status();
            killPostmaster(before.pid());
            // The pool would find its connections dead by validating them before lending them (any connection idle
            // for half a second is); a test asks at once, so the pool is told now, as DatabaseOutage does.
            ((HikariDataSource) db.dataSource()).getHikariPoolMXBean().softEvictConnections();

            List<String> companies = db.jdbi().withHandle(h -> h.createQuery("SELECT company FROM customer")
                    .mapTo(String.class).list());

            assertThat(companies).containsExactly("Before the crash");
            EmbeddedServer.Status after = server.status();
            assertThat(after.running()).isTrue();
            assertThat(after.pid()).isNotEqualTo(before.pid());
            assertThat(after.port()).isEqualTo(before.port()); // the pool's URL stays right
        }
    }

    @Test
    void aServerKilledUnderALiveChangeFeedIsStartedAgainAndTheFeedGoesLiveAndHearsChanges() throws Exception {
        LockstepConfig config = LockstepConfig.resolve(null, dataDir, "Alice", Map.of());
        List<ChangeFeed.Status> statuses = new CopyOnWriteArrayList<>();
        List<ChangeEvent> events = new CopyOnWriteArrayList<>();
        try (Database db = Database.open(config, "test", false);
                ChangeFeed feed = db.changeFeed(new ChangeFeed.Listener() {
                    @Override
                    public void changes(List<ChangeEvent> batch) {
                        events.addAll(batch);
                    }

                    @Override
                    public void status(ChangeFeed.Status status) {
                        statuses.add(status);
                    }
                })) {
            feed.start();
            await().atMost(Duration.ofSeconds(30)).until(() -> feed.status() == ChangeFeed.Status.LIVE);
            long killed = db.embeddedServer().orElseThrow().status().pid();
            killPostmaster(killed);

            await().atMost(Duration.ofSeconds(60)).until(() -> statuses.contains(
                    ChangeFeed.Status.RECONNECTING)
                    && feed.status() == ChangeFeed.Status.LIVE);
            ((HikariDataSource) db.dataSource()).getHikariPoolMXBean().softEvictConnections();
            var created = new JdbiCustomerRepository(db.jdbi(), "Alice")
                    .create(CustomerBuilder.aCustomer().build());

            await().atMost(Duration.ofSeconds(30)).until(() -> events.stream()
                    .anyMatch(e -> e.table().equals("customer") && e.id() == created.id()));
            assertThat(statuses).containsSubsequence(ChangeFeed.Status.LIVE,
                    ChangeFeed.Status.RECONNECTING, ChangeFeed.Status.LIVE);
            assertThat(db.embeddedServer().orElseThrow().status().pid()).isNotEqualTo(killed);
        }
    }

    @Test
    void aServerStoppedOnPurposeStaysStoppedWhenAClientFindsItGone() {
        EmbeddedServer server = new EmbeddedServer(dataDir, cacheDir());
        server.ensureRunning();
        assertThat(server.stop()).isTrue();

        assertThat(server.restartAfterCrash()).isEmpty();
        assertThat(server.status().running()).isFalse();
    }

    /** kill -9 on the postmaster, then waits until it is gone; its postmaster.pid stays behind, as after a crash. */
    private static void killPostmaster(long pid) {
        ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
        await().atMost(Duration.ofSeconds(30)).until(() -> ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true));
    }

    /** How many sessions of client {@code c}'s process the server still has, asked as its superuser. */
    private long sessionsOf(Client c) throws Exception {
        int port = new EmbeddedServer(dataDir, cacheDir()).status().port();
        String password = SecretFile.read(dataDir.resolve("password")).orElseThrow();
        try (Connection db = DriverManager.getConnection(
                new EmbeddedServer.Endpoint(port, EmbeddedServer.ADMIN_ROLE, password).jdbcUrl("postgres"),
                EmbeddedServer.ADMIN_ROLE, password);
                PreparedStatement q = db.prepareStatement(
                        "SELECT count(*) FROM pg_stat_activity WHERE application_name = ?")) {
            q.setString(1, ClientProcess.applicationName(c.process.pid()));
            try (ResultSet rs = q.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private static Path cacheDir() {
        return LockstepConfig.cacheDir(System.getenv());
    }

    private Client start() throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        // The child speaks a line protocol on stdout: logback's own status lines (printed when it finds more than one
        // logback-test.xml, as a reactor build with -am puts every module's test classes on the class path) must not
        // come before "ready".
        ProcessBuilder pb = new ProcessBuilder(java,
                "-Dlogback.statusListenerClass=ch.qos.logback.core.status.NopStatusListener", "-cp",
                System.getProperty("java.class.path"), ClientProcess.class.getName(), dataDir.toString())
                .redirectError(ProcessBuilder.Redirect.INHERIT);
        Client c = new Client(pb.start());
        clients.add(c);
        return c;
    }

    private static final class Client {
        final Process process;
        final BufferedReader out;
        final PrintWriter in;

        Client(Process process) {
            this.process = process;
            this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            this.in = new PrintWriter(process.getOutputStream(), true, StandardCharsets.UTF_8);
        }

        void awaitReady() throws IOException {
            assertThat(out.readLine()).isEqualTo("ready");
        }

        String ask(String command) throws IOException {
            in.println(command);
            return out.readLine();
        }
    }

    /**
     * The application's login by URL, as a client given the endpoint: it is an operator and migrates nothing, so the
     * schema is first brought up as Lockstep's own start does (its owner, AppRoleSetup).
     */
    private Database migratedAndOpen(EmbeddedServer.Endpoint endpoint) {
        Database.open(LockstepConfig.resolve(null, dataDir, "test", Map.of()), "test", false).close();
        return Database.open(endpoint.jdbcUrl(), endpoint.user(), endpoint.password(), "test");
    }
}
