package org.lockstep.cli;

import org.lockstep.server.Database;
import org.lockstep.server.EmbeddedServer;
import org.lockstep.config.LockstepConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.jdbi.v3.core.statement.UnableToExecuteStatementException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.lockstep.domain.AcquireOutcome;
import org.lockstep.store.JdbiCustomerRepository;
import org.lockstep.store.JdbiLeaseRepository;
import org.lockstep.testing.db.DatabaseTest;

/**
 * The embedded server's security: the application is not a superuser, its passwords are owner-only, and a stale
 * {@code postmaster.pid} naming some other process is never trusted nor signalled. Real server, real processes, one
 * data directory for the class.
 */
@DatabaseTest
class EmbeddedServerSecurityTest {

    @TempDir
    static Path dataDir;

    @AfterAll
    static void stopServer() {
        server().stop();
    }

    @Test
    void theApplicationConnectsAsAnOperatorThatIsNotASuperuserAndOwnsNothing() {
        try (Database db = Database.open(config(), "security test", false)) {
            String user = db.jdbi().withHandle(h -> h.createQuery("SELECT current_user").mapTo(String.class).one());
            boolean superuser = db.jdbi().withHandle(h -> h.createQuery(
                    "SELECT rolsuper FROM pg_roles WHERE rolname = current_user").mapTo(Boolean.class).one());
            List<String> owners = db.jdbi().withHandle(h -> h.createQuery("""
                    SELECT DISTINCT pg_get_userbyid(relowner) FROM pg_class
                    WHERE relnamespace = 'public'::regnamespace AND relkind IN ('r', 'S')""")
                    .mapTo(String.class).list());
            // The migrations ran as the owner, pg_trgm included (a trusted extension, PostgreSQL 13 and later).
            long trgm = db.jdbi().withHandle(h -> h.createQuery(
                    "SELECT count(*) FROM pg_extension WHERE extname = 'pg_trgm'").mapTo(Long.class).one());
            // The one operator at the machine names its operators and is its own supervisor, but cannot be the owner.
            String rights = db.jdbi().withHandle(h -> h.createQuery("""
                    SELECT concat_ws(',', pg_has_role(current_user, 'lockstep_shared_login', 'MEMBER'),
                                     pg_has_role(current_user, 'lockstep_supervisors', 'MEMBER'),
                                     pg_has_role(current_user, 'lockstep_owner', 'MEMBER'),
                                     has_table_privilege('customer_history', 'UPDATE'),
                                     has_table_privilege('lease_event', 'DELETE'),
                                     has_schema_privilege('public', 'CREATE'))""").mapTo(String.class).one());

            assertThat(user).isEqualTo(EmbeddedServer.APP_ROLE);
            assertThat(superuser).isFalse();
            assertThat(owners).containsExactly(EmbeddedServer.OWNER_ROLE);
            assertThat(trgm).isEqualTo(1);
            assertThat(rights).isEqualTo("t,t,f,f,f,f");
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"UPDATE customer_history SET changed_by = 'nobody'", "DELETE FROM lease_event",
            "TRUNCATE customer_history", "SET ROLE lockstep_owner", "ALTER TABLE customer DISABLE TRIGGER USER"})
    void theApplicationsLoginCannotRewriteTheAuditTrail(String sql) {
        try (Database db = Database.open(config(), "security test", false)) {
            assertThatThrownBy(() -> db.jdbi().useHandle(h -> h.execute(sql)))
                    .isInstanceOf(UnableToExecuteStatementException.class)
                    .cause().isInstanceOf(SQLException.class)
                    .extracting(e -> ((SQLException) e).getSQLState()).isEqualTo("42501");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "COPY (SELECT 1) TO PROGRAM 'true'",
            "COPY (SELECT 1) TO '%s'",
            "COPY customer FROM PROGRAM 'id'",
            "SELECT pg_read_file('/etc/hostname')"})
    void theApplicationCannotRunProgramsNorTouchFilesOnTheServer(String sql) {
        Path target = dataDir.resolve("written-by-the-server");
        try (Database db = Database.open(config(), "security test", false)) {
            assertThatThrownBy(() -> db.jdbi().useHandle(h -> h.execute(sql.formatted(target))))
                    .isInstanceOf(UnableToExecuteStatementException.class)
                    .cause().isInstanceOf(SQLException.class)
                    .hasMessageContaining("permission denied")
                    .extracting(e -> ((SQLException) e).getSQLState()).isEqualTo("42501"); // insufficient_privilege
        }
        assertThat(target).doesNotExist();
    }

    @Test
    void bothPasswordFilesAreOwnerOnly() throws IOException {
        server().ensureRunning();

        for (String name : List.of("password", "app-password")) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dataDir.resolve(name))))
                    .as(name).isEqualTo("rw-------");
        }
        assertThat(server().ensureRunning().password()).isEqualTo(Files.readString(dataDir.resolve("app-password")));
    }

    @Test
    void dbStatusNamesTheRoleClientsConnectAs() {
        server().ensureRunning();
        StringWriter out = new StringWriter();
        int exit = Launcher.run(new PrintWriter(out), new PrintWriter(new StringWriter()),
                "--data-dir", dataDir.toString(), "db", "status");

        assertThat(exit).isEqualTo(ExitCodes.OK);
        assertThat(out.toString()).contains("running: yes")
                .contains("role: lockstep_app (not a superuser; the superuser lockstep only sets the server up)");
        assertThat(server().status().role()).isEqualTo(EmbeddedServer.APP_ROLE);
        assertThat(server().status().roleIsSuperuser()).isFalse();
    }

    static Stream<Arguments> decoys() {
        return Stream.of(
                // Its command line says postgres, and it even runs in the cluster's directory; its executable is sleep.
                Arguments.of("a sleep named postgres in pgdata", List.of("bash", "-c", "exec -a postgres sleep 300"),
                        true),
                // Its executable is named postgres, but its working directory is not this cluster's.
                Arguments.of("a program called postgres elsewhere", List.of("COPY_OF_SLEEP", "300"), false),
                // Its executable is named postgres and it runs in the cluster's directory (a server process left
                // behind, or a program started there under that name): it did not start when the file's did.
                Arguments.of("a program called postgres in pgdata", List.of("COPY_OF_SLEEP", "300"), true));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("decoys")
    void aDecoyNamedInAStalePostmasterPidIsNeitherTrustedNorSignalled(String name, List<String> command,
            boolean inPgData) throws Exception {
        EmbeddedServer server = server();
        server.ensureRunning();
        long crashed = server.status().pid();
        ProcessHandle.of(crashed).ifPresent(ProcessHandle::destroyForcibly); // kill -9: postmaster.pid stays
        await().atMost(Duration.ofSeconds(30))
                .until(() -> ProcessHandle.of(crashed).map(p -> !p.isAlive()).orElse(true));
        Path pidFile = dataDir.resolve("pgdata/postmaster.pid");
        // The decoy starts well after the crashed postmaster did, as a process that took its pid later would.
        long fileStart = Long.parseLong(Files.readAllLines(pidFile).get(2).strip());
        await().atMost(Duration.ofSeconds(30)).until(() -> java.time.Instant.now().getEpochSecond() > fileStart + 4);
        Process decoy = startDecoy(command, inPgData);
        try {
            List<String> lines = new ArrayList<>(Files.readAllLines(pidFile));
            lines.set(0, Long.toString(decoy.pid()));
            Files.write(pidFile, lines);

            assertThat(server.status().running()).isFalse();
            assertThat(server.stop()).isFalse();
            assertThat(server.stopIfUnused()).isFalse();
            assertThat(server.restartAfterCrash()).isPresent(); // a crash: started again, beside the decoy
            assertThat(server.ensureRunning().port()).isPositive();

            EmbeddedServer.Status status = server.status();
            assertThat(status.running()).isTrue();
            assertThat(status.pid()).isNotIn(decoy.pid(), crashed);
            assertThat(decoy.isAlive()).isTrue();
            try (Database db = Database.open(config(), "security test", false)) {
                int one = db.jdbi().withHandle(h -> h.createQuery("SELECT 1").mapTo(Integer.class).one());
                assertThat(one).isEqualTo(1);
            }
            assertThat(decoy.isAlive()).isTrue();
        } finally {
            decoy.destroyForcibly();
        }
    }

    @Test
    void aDataDirectoryOfAnOlderLockstepIsUpgradedInPlaceWithItsDataIntact(@TempDir Path oldDir) throws Exception {
        EmbeddedServer server = new EmbeddedServer(oldDir, cacheDir());
        try {
            makeOldLayout(server, oldDir);
            EmbeddedServer.Status before = server.status();
            assertThat(before.role()).isEqualTo(EmbeddedServer.ADMIN_ROLE);
            assertThat(before.roleIsSuperuser()).isTrue();
            server.stop();

            try (Database db = Database.open(LockstepConfig.resolve(null, oldDir, "Upgrader", Map.of()), "upgrade",
                    false)) {
                List<String> companies = db.jdbi().withHandle(h -> h.createQuery(
                        "SELECT company FROM customer ORDER BY id").mapTo(String.class).list());
                List<String> notMine = db.jdbi().withHandle(h -> h.createQuery("""
                        SELECT c.relname FROM pg_class c
                        WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'S', 'v', 'm')
                          AND c.relowner <> 'lockstep_owner'::regrole
                        UNION ALL
                        SELECT p.proname FROM pg_proc p
                        WHERE p.pronamespace = 'public'::regnamespace AND p.proowner <> 'lockstep_owner'::regrole
                          AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_proc'::regclass
                                          AND d.objid = p.oid AND d.deptype = 'e')""")
                        .mapTo(String.class).list());
                String historyOwner = db.jdbi().withHandle(h -> h.createQuery(
                        "SELECT pg_get_userbyid(relowner) FROM pg_class WHERE relname = 'flyway_schema_history'")
                        .mapTo(String.class).one());
                String dbOwner = db.jdbi().withHandle(h -> h.createQuery(
                        "SELECT pg_get_userbyid(datdba) FROM pg_database WHERE datname = current_database()")
                        .mapTo(String.class).one());
                boolean superuser = db.jdbi().withHandle(h -> h.createQuery(
                        "SELECT rolsuper FROM pg_roles WHERE rolname = current_user").mapTo(Boolean.class).one());
                // The login can keep working: a lease (its token from the owner's sequence) and a new customer.
                long created = new JdbiCustomerRepository(db.jdbi(), "Upgrader").create(aCustomer().build()).id();
                AcquireOutcome lease = new JdbiLeaseRepository(db.jdbi(), "Upgrader", "upgrade-session")
                        .acquire(created, 60_000);
                // Later migrations may add trusted extensions: the database's owner may (PostgreSQL docs, CREATE
                // EXTENSION: "trusted … can be installed by any user who has CREATE privilege on the current database").
                String unaccented;
                try (Connection owner = db.ownerConnection().orElseThrow(); Statement s = owner.createStatement()) {
                    s.execute("CREATE EXTENSION IF NOT EXISTS unaccent");
                    try (ResultSet rs = s.executeQuery("SELECT unaccent('Zürich')")) {
                        rs.next();
                        unaccented = rs.getString(1);
                    }
                }

                assertThat(companies).containsExactly("Kept Ltd");
                assertThat(notMine).isEmpty();
                assertThat(historyOwner).isEqualTo(EmbeddedServer.OWNER_ROLE);
                assertThat(dbOwner).isEqualTo(EmbeddedServer.OWNER_ROLE);
                assertThat(superuser).isFalse();
                assertThat(lease).isInstanceOf(AcquireOutcome.Granted.class);
                assertThat(unaccented).isEqualTo("Zurich");
            }
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(oldDir.resolve("app-password"))))
                    .isEqualTo("rw-------");
            assertThat(server.status().role()).isEqualTo(EmbeddedServer.APP_ROLE);
        } finally {
            server.stop();
        }
    }

    /**
     * What Lockstep before the role split left: the {@code lockstep} database made and migrated by the superuser,
     * which owns every table, sequence, function and the Flyway history, and wrote the data; no application role.
     */
    private static void makeOldLayout(EmbeddedServer server, Path dir) throws Exception {
        server.ensureRunning();
        EmbeddedServer.Endpoint admin = server.adminEndpoint();
        try (Connection c = DriverManager.getConnection(admin.jdbcUrl("postgres"), admin.user(), admin.password());
                Statement s = c.createStatement()) {
            s.execute("DROP DATABASE " + EmbeddedServer.DATABASE);
            s.execute("CREATE DATABASE " + EmbeddedServer.DATABASE);
            s.execute("DROP ROLE " + EmbeddedServer.APP_ROLE);
        }
        Files.delete(dir.resolve("app-password"));
        try (Database old = Database.open(admin.jdbcUrl(), admin.user(), admin.password(), "older Lockstep")) {
            old.jdbi().useHandle(h -> h.execute("INSERT INTO customer (company) VALUES ('Kept Ltd')"));
            String owner = old.jdbi().withHandle(h -> h.createQuery(
                    "SELECT pg_get_userbyid(relowner) FROM pg_class WHERE relname = 'customer'")
                    .mapTo(String.class).one());
            assertThat(owner).isEqualTo(EmbeddedServer.ADMIN_ROLE);
        }
    }

    private static Process startDecoy(List<String> command, boolean inPgData) throws IOException {
        List<String> cmd = new ArrayList<>(command);
        Path workDir = dataDir.resolve("pgdata");
        if (!inPgData) {
            workDir = Files.createDirectories(dataDir.resolve("elsewhere"));
        }
        if (cmd.get(0).equals("COPY_OF_SLEEP")) {
            Path copy = Files.createDirectories(dataDir.resolve("bin")).resolve("postgres");
            Files.copy(Path.of("/bin/sleep"), copy, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            Files.setPosixFilePermissions(copy, PosixFilePermissions.fromString("rwx------"));
            cmd.set(0, copy.toString());
        }
        return new ProcessBuilder(cmd).directory(workDir.toFile()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    }

    private static EmbeddedServer server() {
        return new EmbeddedServer(dataDir, cacheDir());
    }

    private static LockstepConfig config() {
        return LockstepConfig.resolve(null, dataDir, "Tester", Map.of());
    }

    private static Path cacheDir() {
        return LockstepConfig.cacheDir(System.getenv());
    }
}
