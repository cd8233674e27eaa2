package org.lockstep.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lockstep.config.LockstepConfig;
import org.lockstep.testing.db.DatabaseTest;

/**
 * The embedded server's setup at each start ({@link AppRoleSetup}) on a data directory someone changed with psql as its
 * superuser: each start ends in the state a fresh data directory's first start leaves, read back from the catalogs —
 * the roles and their powers, the memberships, the databases' owners, the owners of the objects in {@code public} and
 * the {@code pg_prewarm} extension. Since the setup uses one connection to Lockstep's database, and one to
 * {@code postgres} only when that database is missing, each way the database can be missing or changed is here, and a
 * refused login is not taken for a missing database. One server for the class: each test changes it, then starts.
 */
@DatabaseTest
class AppRoleSetupPathsTest {

    @TempDir
    static Path dataDir;

    private static EmbeddedServer server;
    private static List<String> fresh;

    @BeforeAll
    static void firstStart() throws Exception {
        server = new EmbeddedServer(dataDir, LockstepConfig.cacheDir(System.getenv()));
        server.ensureRunning();
        fresh = state();
    }

    @AfterAll
    static void stop() {
        server.stop();
    }

    @Test
    void aFreshDataDirectoryIsSetUpAsAnOperatorsServer() {
        assertThat(fresh).contains(
                "role lockstep_app login=t super=f createrole=f createdb=f replication=f bypassrls=f",
                "role lockstep_owner login=f super=f createrole=f createdb=f replication=f bypassrls=f",
                "member lockstep_app of lockstep_shared_login", "member lockstep_app of lockstep_supervisors",
                "database lockstep owned by lockstep_owner", "lockstep: extension pg_prewarm",
                "lockstep: SCHEMA public owned by pg_database_owner");
        assertThat(fresh).noneMatch(line -> line.startsWith("member lockstep_app of lockstep_owner"));
    }

    @Test
    void itsDatabaseDroppedWithPsqlIsMadeAgain() throws Exception {
        admin("postgres", "DROP DATABASE lockstep");

        server.ensureRunning();

        assertThat(state()).isEqualTo(fresh);
    }

    @Test
    void theApplicationRoleGivenPowersAndStrippedOfItsGroupsIsPutBack() throws Exception {
        admin("postgres", "ALTER ROLE lockstep_app SUPERUSER CREATEDB CREATEROLE BYPASSRLS",
                "REVOKE lockstep_shared_login, lockstep_supervisors FROM lockstep_app",
                "GRANT lockstep_owner TO lockstep_app", "ALTER DATABASE lockstep OWNER TO lockstep");

        server.ensureRunning();

        assertThat(state()).isEqualTo(fresh);
    }

    @Test
    void objectsTheSuperuserMadeInPublicGoToTheOwnerAndADroppedPrewarmComesBackAtTheSameStart() throws Exception {
        admin("lockstep", "DROP EXTENSION pg_prewarm", "ALTER SCHEMA public OWNER TO lockstep",
                "CREATE TABLE older (id bigserial PRIMARY KEY, name text)", "CREATE VIEW older_names AS SELECT name"
                        + " FROM older",
                "CREATE FUNCTION older_count() RETURNS bigint LANGUAGE sql AS"
                        + " 'SELECT count(*) FROM older'",
                "CREATE TYPE older_kind AS ENUM ('a', 'b')",
                "CREATE TABLE the_apps (id int)", "ALTER TABLE the_apps OWNER TO lockstep_app");
        try {
            server.ensureRunning();

            assertThat(state()).containsAll(fresh.stream()
                    .filter(line -> !line.startsWith("lockstep: SCHEMA public")).toList())
                    .contains("lockstep: SCHEMA public owned by lockstep_owner", "lockstep: TABLE older owned by"
                            + " lockstep_owner", "lockstep: VIEW older_names owned by lockstep_owner",
                            "lockstep: SEQUENCE older_id_seq owned by lockstep_owner",
                            "lockstep: ROUTINE older_count() owned by lockstep_owner",
                            "lockstep: TYPE older_kind owned by lockstep_owner",
                            "lockstep: TABLE the_apps owned by lockstep_owner");
        } finally {
            admin("lockstep", "DROP VIEW older_names", "DROP FUNCTION older_count()", "DROP TABLE older, the_apps",
                    "DROP TYPE older_kind", "ALTER SCHEMA public OWNER TO pg_database_owner");
        }
        assertThat(state()).isEqualTo(fresh);
    }

    @Test
    void aDroppedPrewarmIsMadeAgain() throws Exception {
        admin("lockstep", "DROP EXTENSION pg_prewarm");

        server.ensureRunning();

        assertThat(state()).isEqualTo(fresh);
    }

    @Test
    void theTrainerDemosDatabaseIsMadeAsLockstepsIs() throws Exception {
        assertThat(server.renewDemoDatabase()).isTrue();
        try {
            List<String> demo = new ArrayList<>();
            read("lockstep_demo", demo, "lockstep_demo: ");
            assertThat(demo).containsExactlyInAnyOrder("lockstep_demo: extension pg_prewarm",
                    "lockstep_demo: SCHEMA public owned by pg_database_owner");
            assertThat(databases()).contains("database lockstep_demo owned by lockstep_owner");
        } finally {
            admin("postgres", "DROP DATABASE lockstep_demo");
        }
    }

    @Test
    void aSuperuserPasswordTheServerRefusesIsSaidAsSuchAndMakesNothing() throws Exception {
        Path file = dataDir.resolve("password");
        String password = Files.readString(file);
        admin("postgres", "DROP DATABASE lockstep");
        Files.writeString(file, "not-" + password);
        try {
            assertThatThrownBy(server::ensureRunning).isInstanceOf(IllegalStateException.class)
                    .hasMessageStartingWith("The embedded PostgreSQL started but refused a connection: ")
                    .hasMessageContaining("password authentication failed for user \"lockstep\"");
        } finally {
            Files.writeString(file, password);
        }
        assertThat(databases()).doesNotContain("database lockstep owned by lockstep_owner");

        server.ensureRunning();

        assertThat(state()).isEqualTo(fresh);
    }

    /** The cluster's roles, memberships and databases, then what {@code lockstep} holds; one line each, sorted. */
    private static List<String> state() throws SQLException {
        List<String> lines = new ArrayList<>();
        try (Connection c = connect("postgres"); Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("""
                    SELECT format('role %s login=%s super=%s createrole=%s createdb=%s replication=%s bypassrls=%s',
                                  rolname, rolcanlogin, rolsuper, rolcreaterole, rolcreatedb, rolreplication,
                                  rolbypassrls)
                    FROM pg_roles WHERE rolname LIKE 'lockstep%'
                    UNION ALL
                    SELECT format('member %s of %s', pg_get_userbyid(member), pg_get_userbyid(roleid))
                    FROM pg_auth_members WHERE pg_get_userbyid(member) LIKE 'lockstep%'
                    ORDER BY 1""")) {
                while (rs.next()) {
                    lines.add(rs.getString(1));
                }
            }
        }
        lines.addAll(databases());
        read("lockstep", lines, "lockstep: ");
        return lines;
    }

    private static List<String> databases() throws SQLException {
        List<String> lines = new ArrayList<>();
        try (Connection c = connect("postgres"); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT format('database %s owned by %s', datname,"
                        + " pg_get_userbyid(datdba)) FROM pg_database WHERE datname LIKE 'lockstep%' ORDER BY 1")) {
            while (rs.next()) {
                lines.add(rs.getString(1));
            }
        }
        return lines;
    }

    /** The extensions of {@code database}, and the owners of its schema {@code public} and what is in it. */
    private static void read(String database, List<String> lines, String prefix) throws SQLException {
        try (Connection c = connect(database); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("""
                        SELECT 'extension ' || extname FROM pg_extension WHERE extname <> 'plpgsql'
                        UNION ALL
                        SELECT format('SCHEMA public owned by %s', pg_get_userbyid(nspowner))
                        FROM pg_namespace WHERE nspname = 'public'
                        UNION ALL
                        SELECT format('%s %s owned by %s', CASE relkind WHEN 'S' THEN 'SEQUENCE' WHEN 'v' THEN 'VIEW'
                                      WHEN 'i' THEN 'INDEX' ELSE 'TABLE' END, relname, pg_get_userbyid(relowner))
                        FROM pg_class WHERE relnamespace = 'public'::regnamespace
                        UNION ALL
                        SELECT format('ROUTINE %s owned by %s', p.oid::regprocedure, pg_get_userbyid(proowner))
                        FROM pg_proc p WHERE pronamespace = 'public'::regnamespace
                          AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_proc'::regclass
                                          AND d.objid = p.oid AND d.deptype = 'e')
                        UNION ALL
                        SELECT format('TYPE %s owned by %s', typname, pg_get_userbyid(typowner))
                        FROM pg_type WHERE typnamespace = 'public'::regnamespace AND typtype IN ('e', 'd')
                        ORDER BY 1""")) {
            while (rs.next()) {
                lines.add(prefix + rs.getString(1));
            }
        }
    }

    private static void admin(String database, String... statements) throws SQLException {
        try (Connection c = connect(database); Statement s = c.createStatement()) {
            for (String sql : statements) {
                s.execute(sql);
            }
        }
    }

    private static Connection connect(String database) throws SQLException {
        EmbeddedServer.Endpoint admin = server.adminEndpoint();
        return DriverManager.getConnection(admin.jdbcUrl(database), admin.user(), admin.password());
    }
}
