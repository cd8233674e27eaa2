package org.lockstep.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

import java.util.List;
import java.util.Map;
import java.util.UUID;
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
import org.lockstep.domain.DeleteOutcome;
import org.lockstep.domain.Lease;
import org.lockstep.domain.LeaseEvent;
import org.lockstep.domain.NotPermittedException;
import org.lockstep.domain.Presence;
import org.lockstep.domain.SaveOutcome;
import org.lockstep.store.JdbiCustomerRepository;
import org.lockstep.store.JdbiHistoryRepository;
import org.lockstep.store.JdbiLeaseRepository;
import org.lockstep.store.JdbiMessageRepository;
import org.lockstep.store.JdbiPresenceRepository;
import org.lockstep.store.LeaseSecrets;
import org.lockstep.testing.CustomerBuilder;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.TeamServer;

/**
 * A team server set up as docs/admin-guide.md ("Roles and privileges") says, from its files: {@code
 * docs/admin/team-roles.sql} as a superuser, Lockstep's first start as the owner (it migrates and grants), then
 * {@code docs/admin/add-operator.sql} for Alice and Bob, and a supervisor, Sam. Then the operators attack it as issue
 * 26 found it open, from psql (plain JDBC here) and from a Lockstep client that claims what it is not: every write
 * to a customer under another's lease is refused, naming the holder, unless it proves the lease with the holder's
 * secret; the audit trail and the leases cannot be written but through the owner's functions; the name recorded is
 * the login's; only a supervisor breaks a lock. What matters is read back from the database. The roles and the
 * database get names of this run (roles belong to the whole server, which other tests share).
 */
@DatabaseTest
class TeamServerTrustTest {

    static final long TTL_MS = 60_000;

    static TeamServer team;
    static String ALICE; // the logins, named for this run
    static String BOB;
    static String SAM;
    static String OWNER;
    static String DATABASE;
    static Database owner;
    static Database alice;
    static Database bob;
    static Database sam;

    @BeforeAll
    static void setUpAsTheGuideSays() throws Exception {
        team = TeamServer.create();
        ALICE = team.alice();
        BOB = team.bob();
        SAM = team.sam();
        OWNER = team.owner();
        DATABASE = team.database();
        owner = team.open(OWNER);
        alice = team.open(ALICE);
        bob = team.open(BOB);
        sam = team.open(SAM);
    }

    @AfterAll
    static void dropThem() throws Exception {
        for (Database db : new Database[]{alice, bob, sam, owner}) {
            if (db != null) {
                db.close();
            }
        }
        if (team != null) {
            team.close();
        }
    }

    // --- a lease binds every writer -------------------------------------------------------------------------------

    @Test
    void aPlainUpdateOrDeleteUnderAnothersLeaseIsRefusedNamingTheHolderAndNothingChanges() throws Exception {
        Customer c = customerLeasedByAlice("Lisbon");

        for (String sql : List.of("UPDATE customer SET city = 'Forged' WHERE id = ?",
                "DELETE FROM customer WHERE id = ?",
                "UPDATE customer SET city = 'Forged' WHERE id >= ?")) {
            try (Connection b = login(BOB); PreparedStatement p = b.prepareStatement(sql)) {
                p.setLong(1, c.id());
                assertThatThrownBy(p::executeUpdate).isInstanceOf(SQLException.class)
                        .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("LS423"))
                        .hasMessageContaining("locked for editing by " + ALICE);
            }
        }
        assertThat(cityOf(c.id())).isEqualTo("Lisbon");
        assertThat(versionOf(c.id())).isEqualTo(c.version());
    }

    @Test
    void theLeasesSessionAndTokenThatEveryoneReadsProveNothing() throws Exception {
        Customer c = customerLeasedByAlice("Lisbon");
        String session;
        long token;
        try (Connection b = login(BOB); Statement s = b.createStatement();
                ResultSet rs =
                        s.executeQuery("SELECT session_id, token FROM record_lease WHERE record_id = " + c.id())) {
            rs.next();
            session = rs.getString(1);
            token = rs.getLong(2);
        }

        // As psql: pass as Alice's session with her token, and as Lockstep's fenced and unleased writers.
        for (String guard : List.of("", "fenced", "unleased")) {
            try (Connection b = login(BOB); Statement s = b.createStatement()) {
                b.setAutoCommit(false);
                s.execute("SELECT set_config('lockstep.session', '" + session + "', true),"
                        + " set_config('lockstep.token', '" + token + "', true),"
                        + " set_config('lockstep.user', 'Alice', true),"
                        + " set_config('lockstep.secret', '" + session + "', true),"
                        + " set_config('lockstep.guard', '" + guard + "', true)");
                if (guard.isEmpty()) {
                    assertThatThrownBy(
                            () -> s.executeUpdate("UPDATE customer SET city = 'Forged' WHERE id = " + c.id()))
                            .isInstanceOf(SQLException.class).hasMessageContaining("locked for editing by " + ALICE);
                } else {
                    assertThat(s.executeUpdate("UPDATE customer SET city = 'Forged' WHERE id = " + c.id())).isZero();
                }
                b.rollback();
            }
        }
        // As a Lockstep client that claims Alice's session (and name) with a key of its own.
        JdbiCustomerRepository pretender = new JdbiCustomerRepository(bob.jdbi(), "Alice", session,
                LeaseSecrets.random());
        assertThat(
                pretender.saveUnderLease(c.id(), c.version(), newCustomer().with(CustomerField.CITY, "Forged").build(),
                        token))
                .isInstanceOf(SaveOutcome.LeaseLost.class);
        assertThat(pretender.deleteUnderLease(c.id(), c.version(), token)).isNotInstanceOf(DeleteOutcome.Deleted.class);
        assertThat(pretender.save(c.id(), c.version(), newCustomer().with(CustomerField.CITY, "Forged").build()))
                .isInstanceOf(SaveOutcome.Locked.class);

        assertThat(cityOf(c.id())).isEqualTo("Lisbon");
    }

    @Test
    void theHolderSavesUnderItsLeaseAndIsRecordedAsItsLoginWhateverNameItGives() throws Exception {
        String session = "alice-" + System.nanoTime();
        LeaseSecrets key = LeaseSecrets.random();
        JdbiCustomerRepository repo = new JdbiCustomerRepository(alice.jdbi(), "Queen of Sheba", session, key);
        Customer c = repo.create(newCustomer().with(CustomerField.CITY, "Lisbon").build());
        Lease lease = ((AcquireOutcome.Granted) new JdbiLeaseRepository(alice.jdbi(), "Queen of Sheba", session, key)
                .acquire(c.id(), TTL_MS)).lease();

        SaveOutcome saved = repo.saveUnderLease(c.id(), c.version(), newCustomer().with(CustomerField.CITY, "Porto")
                .build(), lease.token());

        assertThat(saved).isInstanceOf(SaveOutcome.Saved.class);
        assertThat(cityOf(c.id())).isEqualTo("Porto");
        assertThat(new JdbiHistoryRepository(owner.jdbi()).history(c.id())).extracting(h -> h.changedBy())
                .containsOnly(ALICE);
        assertThat(new JdbiLeaseRepository(bob.jdbi(), BOB, "bob").holder(c.id()))
                .hasValueSatisfying(h -> assertThat(h.holder()).isEqualTo(ALICE));
    }

    // --- operators are who they log in as --------------------------------------------------------------------------

    @Test
    void aClaimedNameIsRecordedAsTheLoginInHistoryLeasesMessagesAndPresence() throws Exception {
        String session = "bob-" + System.nanoTime();
        JdbiCustomerRepository repo = new JdbiCustomerRepository(bob.jdbi(), ALICE, session, LeaseSecrets.random());
        Customer c = repo.create(newCustomer().build());
        assertThat(c.updatedBy()).isEqualTo(BOB);
        JdbiLeaseRepository leases = new JdbiLeaseRepository(bob.jdbi(), ALICE, session, LeaseSecrets.random());
        assertThat(leases.acquire(c.id(), TTL_MS)).isInstanceOf(AcquireOutcome.Granted.class);
        new JdbiMessageRepository(bob.jdbi(), ALICE, session).send("alice-anywhere", c.id(), "It is me, Alice");
        new JdbiPresenceRepository(bob.jdbi(), ALICE, session, JdbiPresenceRepository.DEFAULT_TTL)
                .heartbeat(Map.of(c.id(), Presence.State.EDITING));

        assertThat(strings("SELECT changed_by FROM customer_history WHERE customer_id = " + c.id())).containsOnly(BOB);
        assertThat(strings("SELECT holder || ' ' || actor FROM lease_event WHERE record_id = " + c.id()))
                .containsExactly(BOB + " " + BOB);
        assertThat(strings("SELECT from_user FROM message WHERE customer_id = " + c.id())).containsExactly(BOB);
        assertThat(strings("SELECT user_name FROM presence WHERE customer_id = " + c.id())).containsExactly(BOB);
        assertThat(strings("SELECT updated_by FROM customer WHERE id = " + c.id())).containsExactly(BOB);
    }

    @Test
    void aPlainWriterIsRecordedAsItsLoginEvenWhenItSetsTheClientsName() throws Exception {
        Customer c = new JdbiCustomerRepository(alice.jdbi(), ALICE).create(newCustomer().build());
        try (Connection b = login(BOB); Statement s = b.createStatement()) {
            b.setAutoCommit(false);
            s.execute("SELECT set_config('lockstep.user', '" + ALICE + "', true)");
            s.executeUpdate("UPDATE customer SET city = 'Faro' WHERE id = " + c.id());
            b.commit();
        }
        assertThat(strings("SELECT changed_by FROM customer_history WHERE customer_id = " + c.id()
                + " ORDER BY version")).containsExactly(ALICE, BOB);
    }

    // --- only a supervisor breaks a lock ---------------------------------------------------------------------------

    @Test
    void onlyASupervisorBreaksALockAndTheBreakIsRecordedAsThem() throws Exception {
        Customer c = customerLeasedByAlice("Lisbon");
        JdbiLeaseRepository bobs = new JdbiLeaseRepository(bob.jdbi(), BOB, "bob-" + System.nanoTime());

        assertThatThrownBy(() -> bobs.breakLease(c.id())).isInstanceOf(NotPermittedException.class)
                .hasMessageContaining("Only a supervisor");
        try (Connection b = login(BOB); Statement s = b.createStatement()) {
            assertThatThrownBy(() -> s.execute("SELECT lockstep_lease_end(" + c.id() + ", NULL, NULL, 'broken', 'x')"))
                    .isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("42501"));
        }
        assertThat(bobs.holder(c.id())).hasValueSatisfying(h -> assertThat(h.holder()).isEqualTo(ALICE));

        JdbiLeaseRepository sams = new JdbiLeaseRepository(sam.jdbi(), "Anyone", "sam-" + System.nanoTime());
        assertThat(sams.breakLease(c.id())).hasValueSatisfying(h -> assertThat(h.holder()).isEqualTo(ALICE));
        assertThat(sams.holder(c.id())).isEmpty();
        assertThat(sams.events(c.id())).filteredOn(e -> e.kind() == LeaseEvent.Kind.BROKEN)
                .extracting(LeaseEvent::actor).containsExactly(SAM);
        // Now the lock is gone, Bob's plain UPDATE goes through, recorded as Bob.
        try (Connection b = login(BOB); Statement s = b.createStatement()) {
            assertThat(s.executeUpdate("UPDATE customer SET city = 'Braga' WHERE id = " + c.id())).isOne();
        }
        assertThat(cityOf(c.id())).isEqualTo("Braga");
    }

    // --- the audit trail and the leases are written only by the owner's functions ----------------------------------

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"UPDATE customer_history SET changed_by = 'nobody'", "DELETE FROM customer_history",
            "INSERT INTO customer_history (customer_id, version, op, changed_by, changed_at, new_row)"
                    + " VALUES (1, 99, 'UPDATE', 'nobody', now(), '{}')",
            "UPDATE lease_event SET actor = 'nobody'", "DELETE FROM lease_event",
            "DELETE FROM conflict_event", "UPDATE customer_conflict SET customer_id = 0", "DELETE FROM client_request",
            "INSERT INTO message (from_user, from_session, to_session, customer_id, text)"
                    + " VALUES ('Alice', 'a', 'b', 1, 'forged')",
            "UPDATE message SET text = 'forged'", "DELETE FROM message",
            "UPDATE record_lease SET session_id = 'mine', expires_at = now() + interval '1 day'",
            "DELETE FROM record_lease", "TRUNCATE customer_history", "DELETE FROM flyway_schema_history",
            "DELETE FROM customer_updated", "UPDATE customer_updated SET updated_at = now()",
            "INSERT INTO customer_updated VALUES (now(), 1)",
            "CREATE TABLE intruder (id int)", "DROP TABLE customer", "TRUNCATE customer",
            "ALTER TABLE customer DISABLE TRIGGER USER", "ALTER TABLE customer ADD COLUMN intruder int",
            "COPY customer TO PROGRAM 'true'", "CREATE SCHEMA intruder",
            "CREATE FUNCTION lockstep_operator_name(claimed text) RETURNS text LANGUAGE sql AS $$ SELECT 'x' $$"})
    void operatorsCannotRewriteTheAuditTrailTheLeasesOrTheSchema(String sql) throws Exception {
        try (Connection c = login(BOB); Statement s = c.createStatement()) {
            assertThatThrownBy(() -> s.execute(sql)).isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).as("%s", e.getMessage())
                            .isIn("42501", "42P07", "42723"));
        }
    }

    @Test
    void whatTheOperatorsMayDoToEachTableIsReadAndWriteCustomersAndOnlyReadTheTrail() throws Exception {
        List<String> tables = strings("SELECT relname || ' ' || concat_ws(',',"
                + " has_table_privilege('" + BOB + "', oid, 'SELECT'),"
                + " has_table_privilege('" + BOB + "', oid, 'INSERT'),"
                + " has_table_privilege('" + BOB + "', oid, 'UPDATE'),"
                + " has_table_privilege('" + BOB + "', oid, 'DELETE'),"
                + " has_table_privilege('" + BOB + "', oid, 'TRUNCATE'))"
                + " FROM pg_class WHERE relnamespace = 'public'::regnamespace AND relkind IN ('r', 'p')");

        assertThat(tables).contains("customer t,t,t,t,f", "presence t,t,t,t,f", "customer_history t,f,f,f,f",
                "lease_event t,f,f,f,f", "conflict_event t,f,f,f,f", "customer_conflict t,f,f,f,f",
                "client_request t,f,f,f,f", "message t,f,f,f,f", "record_lease t,f,f,f,f", "customer_updated t,f,f,f,f",
                "flyway_schema_history t,f,f,f,f");
    }

    @Test
    void aWriteGrantedByHandOnTheTrailIsTakenBackAtTheNextMigrateAndRunningItAgainChangesNothing() throws Exception {
        try (Connection c = DriverManager.getConnection(team.url(), OWNER, TeamServer.PASSWORD);
                Statement s = c.createStatement()) {
            // What an older Lockstep's team-grants.sql, or a hurried administrator, left behind.
            s.execute("GRANT UPDATE, DELETE ON customer_history, record_lease TO " + BOB);
        }
        String privileges = "SELECT relname || ' ' || coalesce(relacl::text, '') FROM pg_class"
                + " WHERE relnamespace = 'public'::regnamespace AND relkind IN ('r', 'p', 'S') ORDER BY relname";

        Database.open(team.url(), OWNER, TeamServer.PASSWORD, "Lockstep owner again").close();
        List<String> once = strings(privileges);
        Database.open(team.url(), OWNER, TeamServer.PASSWORD, "Lockstep owner again").close();

        assertThat(strings("SELECT has_table_privilege('" + BOB + "', 'customer_history', 'UPDATE')"
                + " OR has_table_privilege('" + BOB + "', 'record_lease', 'DELETE')")).containsExactly("f");
        assertThat(strings(privileges)).isEqualTo(once);
    }

    @Test
    void ownersClientsStartingTogetherAllComeUpTheirGrantsOneAtATime() throws Exception {
        try (Connection c = DriverManager.getConnection(team.url(), OWNER, TeamServer.PASSWORD);
                Statement s = c.createStatement()) {
            s.execute("GRANT DELETE ON lease_event TO " + BOB); // so that the next starts have grants to make
        }
        java.util.concurrent.ExecutorService starts = java.util.concurrent.Executors.newFixedThreadPool(4);
        try {
            List<java.util.concurrent.Future<?>> all = new java.util.ArrayList<>();
            for (int i = 0; i < 4; i++) {
                all.add(starts.submit(() -> {
                    Database.open(team.url(), OWNER, TeamServer.PASSWORD, "Lockstep owner together").close();
                    return null;
                }));
            }
            for (java.util.concurrent.Future<?> f : all) {
                f.get(60, java.util.concurrent.TimeUnit.SECONDS);
            }
        } finally {
            starts.shutdownNow();
        }
        assertThat(strings("SELECT has_table_privilege('" + BOB + "', 'lease_event', 'DELETE')")).containsExactly("f");
    }

    // --- the client runs on these roles ----------------------------------------------------------------------------

    @Test
    void theOperatorsRunTheClientSavesConflictsLiveUpdatesAndPresence() throws Exception {
        JdbiCustomerRepository aliceRepo = new JdbiCustomerRepository(alice.jdbi(), ALICE, "alice-session");
        JdbiCustomerRepository bobRepo = new JdbiCustomerRepository(bob.jdbi(), BOB, "bob-session");
        List<ChangeEvent> heard = new CopyOnWriteArrayList<>();
        try (ChangeFeed feed = bob.changeFeed(heard::addAll)) {
            feed.start();
            await().atMost(Duration.ofSeconds(10)).until(() -> feed.status() == ChangeFeed.Status.LIVE);
            Customer c = aliceRepo.create(newCustomer().build());
            SaveOutcome saved =
                    aliceRepo.save(c.id(), c.version(), newCustomer().with(CustomerField.CITY, "Porto").build());
            assertThat(saved).isInstanceOf(SaveOutcome.Saved.class);
            assertThat(bobRepo.save(c.id(), c.version(), newCustomer().with(CustomerField.CITY, "Lost").build()))
                    .isInstanceOf(SaveOutcome.Conflict.class);
            long version = ((SaveOutcome.Saved) saved).saved().version();
            await().atMost(Duration.ofSeconds(10)).until(() -> heard.stream()
                    .anyMatch(e -> e.id() == c.id() && e.version() == version));
            assertThat(strings("SELECT detected_by FROM customer_conflict WHERE customer_id = " + c.id()))
                    .containsExactly(BOB);

            JdbiPresenceRepository presence = new JdbiPresenceRepository(alice.jdbi(), ALICE, "alice-session",
                    JdbiPresenceRepository.DEFAULT_TTL);
            presence.heartbeat(Map.of(c.id(), Presence.State.EDITING));
            assertThat(new JdbiPresenceRepository(bob.jdbi(), BOB, "bob-session", JdbiPresenceRepository.DEFAULT_TTL)
                    .present()).anySatisfy(p -> assertThat(p.customerId()).isEqualTo(c.id()));
        }
    }

    @Test
    void theOperatorsRoleHasNoPowerBeyondLoggingInAndGetsTheStatementBounds() throws Exception {
        try (Connection c = admin("postgres"); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT concat_ws(',', rolcanlogin, rolsuper, rolcreaterole,"
                        + " rolcreatedb, rolreplication, rolbypassrls) FROM pg_roles WHERE rolname = '" + BOB + "'")) {
            rs.next();
            assertThat(rs.getString(1)).isEqualTo("t,f,f,f,f,f");
        }
        try (Connection c = login(BOB); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT current_setting('statement_timeout'),"
                        + " current_setting('lock_timeout'), current_setting('idle_in_transaction_session_timeout')")) {
            rs.next();
            assertThat(List.of(rs.getString(1), rs.getString(2), rs.getString(3))).containsExactly("10s", "4s",
                    "1min");
        }
    }

    @Test
    void anOperatorsClientOnADatabaseItsOwnerHasNotMigratedSaysWhoMustDoIt() throws Exception {
        String fresh = DATABASE + "_fresh";
        try (Connection c = admin("postgres"); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + fresh + " OWNER " + OWNER);
        }
        try {
            try (Connection c = DriverManager.getConnection(team.server().url(fresh), team.server().adminUser(),
                    team.server().adminPassword()); Statement s = c.createStatement()) {
                s.execute("REVOKE ALL ON SCHEMA public FROM PUBLIC");
                s.execute("GRANT USAGE ON SCHEMA public TO lockstep_operators");
            }
            assertThatThrownBy(
                    () -> Database.open(team.server().url(fresh), BOB, TeamServer.PASSWORD, "Lockstep (Bob)"))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("only the schema's owner may do")
                    .hasMessageContaining("signed in as " + BOB);
        } finally {
            try (Connection c = admin("postgres"); Statement s = c.createStatement()) {
                s.execute("DROP DATABASE IF EXISTS " + fresh + " WITH (FORCE)");
            }
        }
    }

    /** A new customer in {@code city}, with Alice holding its lease under a key only her client has. */
    private static Customer customerLeasedByAlice(String city) {
        String session = "alice-" + System.nanoTime();
        LeaseSecrets key = LeaseSecrets.random();
        Customer c = new JdbiCustomerRepository(alice.jdbi(), ALICE, session, key)
                .create(newCustomer().with(CustomerField.CITY, city).build());
        AcquireOutcome granted = new JdbiLeaseRepository(alice.jdbi(), ALICE, session, key).acquire(c.id(), TTL_MS);
        assertThat(granted).isInstanceOf(AcquireOutcome.Granted.class);
        return c;
    }

    /** A customer of its own external reference (the database holds each once). */
    private static CustomerBuilder newCustomer() {
        return aCustomer().with(CustomerField.EXTERNAL_REF, "TS-" + UUID.randomUUID());
    }

    private static String cityOf(long id) throws SQLException {
        return strings("SELECT city FROM customer WHERE id = " + id).get(0);
    }

    private static long versionOf(long id) throws SQLException {
        return Long.parseLong(strings("SELECT version FROM customer WHERE id = " + id).get(0));
    }

    static Connection admin(String database) throws SQLException {
        return team.admin(database);
    }

    static Connection login(String role) throws SQLException {
        return team.login(role);
    }

    static List<String> strings(String sql) throws SQLException {
        return team.strings(sql);
    }
}
