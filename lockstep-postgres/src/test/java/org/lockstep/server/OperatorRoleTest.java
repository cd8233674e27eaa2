package org.lockstep.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

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
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.lockstep.domain.AcquireOutcome;
import org.lockstep.domain.ChangeEvent;
import org.lockstep.domain.ChangeFeed;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.Presence;
import org.lockstep.domain.SaveOutcome;
import org.lockstep.store.JdbiCustomerRepository;
import org.lockstep.store.JdbiLeaseRepository;
import org.lockstep.store.JdbiPresenceRepository;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.PsqlScript;
import org.lockstep.testing.db.TestDatabases;

/**
 * The administrators' SQL of docs/admin-guide.md ("Roles and privileges"), run from its files as the guide says:
 * {@code docs/admin/team-roles.sql} as a superuser, Lockstep's first start as the owner role (it migrates), then
 * {@code docs/admin/team-grants.sql} as the owner. What the files promise is read back from the database: the
 * operators' role has no power beyond logging in, gets the statement bounds a pooled connection needs, may read and
 * write every table but only read the migrations' history, cannot change the schema or run programs, and runs the
 * client — saves, conflicts, leases, presence and live updates. The roles and the database get names of this run
 * (roles belong to the whole server, which other tests share); nothing else of the files is changed.
 */
@DatabaseTest
class OperatorRoleTest {

    static final Path ROLES_SQL = Path.of("..", "docs", "admin", "team-roles.sql");
    static final Path GRANTS_SQL = Path.of("..", "docs", "admin", "team-grants.sql");

    static final String SUFFIX = ProcessHandle.current().pid() + "_" + System.nanoTime() % 1_000_000;
    static final String OWNER = "lk_owner_" + SUFFIX;
    static final String OPERATOR = "lk_operator_" + SUFFIX;
    static final String DATABASE = "lk_roles_" + SUFFIX;
    static final Map<String, String> NAMES = Map.of("lockstep_owner", OWNER, "lockstep_operator", OPERATOR, "lockstep",
            DATABASE);
    static final String OWNER_PASSWORD = "owner-secret";
    static final String OPERATOR_PASSWORD = "operator 'secret'";

    static TestDatabases.Server server;

    @BeforeAll
    static void setUpAsTheGuideSays() throws Exception {
        server = TestDatabases.server();
        List<String> roles = PsqlScript.read(ROLES_SQL).renaming(NAMES).run(server, "postgres", server.adminUser(),
                server.adminPassword(), Map.of("owner_password", OWNER_PASSWORD, "operator_password",
                        OPERATOR_PASSWORD));
        assertThat(roles).hasSizeGreaterThan(5);
        try (Database migrated = Database.open(server.url(DATABASE), OWNER, OWNER_PASSWORD, "Lockstep owner")) {
            int applied = migrated.jdbi().withHandle(h -> h.createQuery("SELECT count(*) FROM flyway_schema_history")
                    .mapTo(Integer.class).one());
            assertThat(applied).isPositive();
        }
        List<String> grants = PsqlScript.read(GRANTS_SQL).renaming(NAMES).run(server, DATABASE, OWNER,
                OWNER_PASSWORD, Map.of());
        assertThat(grants).hasSizeGreaterThan(3);
    }

    @AfterAll
    static void dropThem() throws Exception {
        try (Connection c = admin("postgres"); Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + DATABASE + " WITH (FORCE)");
            s.execute("DROP ROLE IF EXISTS " + OPERATOR);
            s.execute("DROP ROLE IF EXISTS " + OWNER);
        }
    }

    @Test
    void theOperatorsRoleHasNoPowerBeyondLoggingIn() throws Exception {
        // Login, and none of the powers AppRoleSetup takes away from the embedded server's lockstep_app (booleans
        // as PostgreSQL writes them in text: t, f).
        List<String> powers = strings("postgres", "SELECT concat_ws(',', rolcanlogin, rolsuper, rolcreaterole,"
                + " rolcreatedb, rolreplication, rolbypassrls) FROM pg_roles WHERE rolname = '" + OPERATOR + "'");

        assertThat(powers).containsExactly("t,f,f,f,f,f");
    }

    @Test
    void aLoginAsTheOperatorGetsTheBoundsLockstepSendsOnADirectConnection() throws Exception {
        try (Connection c = operator(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT current_setting('statement_timeout'),"
                        + " current_setting('lock_timeout'), current_setting('idle_in_transaction_session_timeout')")) {
            rs.next();
            assertThat(List.of(rs.getString(1), rs.getString(2), rs.getString(3))).containsExactly("10s", "4s",
                    "1min");
        }
    }

    @Test
    void theOperatorsReadAndWriteEveryTableAndOnlyReadTheMigrationsHistory() throws Exception {
        List<String> tables = strings(DATABASE, "SELECT relname || ' ' || concat_ws(',',"
                + " has_table_privilege('" + OPERATOR + "', oid, 'SELECT'),"
                + " has_table_privilege('" + OPERATOR + "', oid, 'INSERT'),"
                + " has_table_privilege('" + OPERATOR + "', oid, 'UPDATE'),"
                + " has_table_privilege('" + OPERATOR + "', oid, 'DELETE'),"
                + " has_table_privilege('" + OPERATOR + "', oid, 'TRUNCATE'))"
                + " FROM pg_class WHERE relnamespace = 'public'::regnamespace AND relkind IN ('r', 'p')"
                + " ORDER BY relname");

        assertThat(tables).hasSizeGreaterThan(10).contains("customer t,t,t,t,f",
                "customer_history t,t,t,t,f", "record_lease t,t,t,t,f",
                "flyway_schema_history t,f,f,f,f");
        assertThat(tables).filteredOn(t -> !t.startsWith("flyway_schema_history "))
                .allSatisfy(t -> assertThat(t).endsWith(" t,t,t,t,f"));
        assertThat(strings(DATABASE, "SELECT relname || ' ' || has_sequence_privilege('" + OPERATOR
                + "', oid, 'USAGE') FROM pg_class WHERE relnamespace = 'public'::regnamespace AND relkind = 'S'"))
                .isNotEmpty().allSatisfy(s -> assertThat(s).endsWith(" true"));
    }

    @Test
    void nobodyButTheOwnerCreatesInThePublicSchema() throws Exception {
        assertThat(strings(DATABASE, "SELECT concat_ws(',', has_schema_privilege('" + OWNER + "', 'public', 'CREATE'),"
                + " has_schema_privilege('" + OPERATOR + "', 'public', 'CREATE'),"
                + " has_schema_privilege('" + OPERATOR + "', 'public', 'USAGE'))")).containsExactly("t,f,t");
        // PUBLIC (grantee 0) holds nothing on the schema: a role the administrator adds later cannot create in it.
        assertThat(strings(DATABASE, "SELECT count(*) FROM pg_namespace, aclexplode(nspacl) a"
                + " WHERE nspname = 'public' AND a.grantee = 0")).containsExactly("0");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"CREATE TABLE intruder (id int)", "DROP TABLE customer", "TRUNCATE customer",
            "ALTER TABLE customer ADD COLUMN intruder int", "DELETE FROM flyway_schema_history",
            "INSERT INTO flyway_schema_history (installed_rank, description, type, script, installed_by, execution_time,"
                    + " success) VALUES (999, 'intruder', 'SQL', 'V999__intruder.sql', 'me', 0, true)",
            "COPY customer TO PROGRAM 'true'", "CREATE SCHEMA intruder"})
    void theOperatorsCannotChangeTheSchemaOrRunPrograms(String sql) throws Exception {
        try (Connection c = operator(); Statement s = c.createStatement()) {
            assertThatThrownBy(() -> s.execute(sql)).isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).as("%s", e.getMessage())
                            .isEqualTo("42501"));
        }
    }

    @Test
    void whatTheOwnerCreatesLaterTheOperatorsGetAndRunningTheGrantsAgainChangesNothing() throws Exception {
        String privileges = "SELECT relname || ' ' || coalesce(relacl::text, '') FROM pg_class"
                + " WHERE relnamespace = 'public'::regnamespace AND relkind IN ('r', 'p', 'S') ORDER BY relname";
        List<String> before = strings(DATABASE, privileges);
        PsqlScript.read(GRANTS_SQL).renaming(NAMES).run(server, DATABASE, OWNER, OWNER_PASSWORD, Map.of());
        assertThat(strings(DATABASE, privileges)).isEqualTo(before);

        // A table of the next version's migrations, created by the owner as Flyway would.
        try (Connection c = DriverManager.getConnection(server.url(DATABASE), OWNER, OWNER_PASSWORD);
                Statement s = c.createStatement()) {
            s.execute("CREATE TABLE next_version (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, note text)");
        }
        try (Connection c = operator(); Statement s = c.createStatement()) {
            s.execute("INSERT INTO next_version (note) VALUES ('written by an operator')");
            try (ResultSet rs = s.executeQuery("SELECT note FROM next_version")) {
                rs.next();
                assertThat(rs.getString(1)).isEqualTo("written by an operator");
            }
        }
    }

    @Test
    void theOperatorsRoleRunsTheClientOnTheSchemaItsOwnerMigrated() throws Exception {
        try (Database alice = Database.open(server.url(DATABASE), OPERATOR, OPERATOR_PASSWORD, "Lockstep (Alice)");
                Database bob = Database.open(server.url(DATABASE), OPERATOR, OPERATOR_PASSWORD, "Lockstep (Bob)")) {
            JdbiCustomerRepository aliceRepo = new JdbiCustomerRepository(alice.jdbi(), "Alice", "alice-session");
            JdbiCustomerRepository bobRepo = new JdbiCustomerRepository(bob.jdbi(), "Bob", "bob-session");
            List<ChangeEvent> heard = new CopyOnWriteArrayList<>();
            try (ChangeFeed feed = bob.changeFeed(heard::addAll)) {
                feed.start();
                await().atMost(Duration.ofSeconds(10)).until(() -> feed.status() == ChangeFeed.Status.LIVE);
                Customer c = aliceRepo.create(aCustomer().build());
                SaveOutcome saved = aliceRepo.save(c.id(), c.version(),
                        aCustomer().with(CustomerField.CITY, "Porto").build());
                assertThat(saved).isInstanceOf(SaveOutcome.Saved.class);
                assertThat(bobRepo.save(c.id(), c.version(), aCustomer().with(CustomerField.CITY, "Lost").build()))
                        .isInstanceOf(SaveOutcome.Conflict.class);
                long version = ((SaveOutcome.Saved) saved).saved().version();
                await().atMost(Duration.ofSeconds(10)).until(() -> heard.stream()
                        .anyMatch(e -> e.id() == c.id() && e.version() == version));

                JdbiLeaseRepository leases = new JdbiLeaseRepository(bob.jdbi(), "Bob", "bob-session");
                assertThat(leases.acquire(c.id(), 30_000)).isInstanceOf(AcquireOutcome.Granted.class);
                JdbiPresenceRepository presence = new JdbiPresenceRepository(alice.jdbi(), "Alice",
                        "alice-session", JdbiPresenceRepository.DEFAULT_TTL);
                presence.heartbeat(Map.of(c.id(), Presence.State.EDITING));
                assertThat(presence.present()).anySatisfy(p -> assertThat(p.customerId()).isEqualTo(c.id()));
            }
        }
    }

    static Connection admin(String database) throws SQLException {
        return DriverManager.getConnection(server.url(database), server.adminUser(), server.adminPassword());
    }

    static Connection operator() throws SQLException {
        return DriverManager.getConnection(server.url(DATABASE), OPERATOR, OPERATOR_PASSWORD);
    }

    /** The first column of every row of {@code sql}, run as the administrator in {@code database}. */
    static List<String> strings(String database, String sql) throws SQLException {
        List<String> values = new ArrayList<>();
        try (Connection c = admin(database); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                values.add(rs.getString(1));
            }
        }
        return values;
    }
}
