package org.lockstep.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.io.StringReader;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.lockstep.domain.AcquireOutcome;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.Lease;
import org.lockstep.domain.Presence;
import org.lockstep.store.JdbiConflictReports;
import org.lockstep.store.JdbiCustomerRepository;
import org.lockstep.store.JdbiLeaseRepository;
import org.lockstep.store.JdbiPresenceRepository;
import org.lockstep.store.LeaseSecrets;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.TeamServer;
import org.postgresql.PGConnection;

/**
 * The second attack on a team server set up as the guide says (issue 26; {@link TeamServerTrustTest} holds the
 * first): each way an operator in psql got past what the database should hold, as a test of its whole kind. A
 * transaction whose snapshot predates a grant writes under it; ids chosen by hand or changed; leases that last for
 * ever or are proven by an empty secret; presence rows of others changed or made to last; the conflict report's
 * counts and events written at will. What matters is read back from the database.
 */
@DatabaseTest
class TeamServerLoopholesTest {

    static final long TTL_MS = 60_000;
    static final String SECRET = "a-secret-of-at-least-thirty-two-characters";

    static TeamServer team;
    static Database alice;
    static Database bob;

    @BeforeAll
    static void setUpAsTheGuideSays() throws Exception {
        team = TeamServer.create();
        alice = team.open(team.alice());
        bob = team.open(team.bob());
    }

    @AfterAll
    static void dropThem() throws Exception {
        for (Database db : new Database[]{alice, bob}) {
            if (db != null) {
                db.close();
            }
        }
        if (team != null) {
            team.close();
        }
    }

    // --- a snapshot older than the lock does not write under it -----------------------------------------------------

    @ParameterizedTest(name = "{0}")
    @ValueSource(ints = {Connection.TRANSACTION_REPEATABLE_READ, Connection.TRANSACTION_SERIALIZABLE})
    void aTransactionBegunBeforeTheFirstGrantCannotWriteUnderIt(int isolation) throws Exception {
        Customer c = aliceCreates("Lisbon");
        for (String write : List.of("UPDATE customer SET city = 'Forged' WHERE id = ?",
                "DELETE FROM customer WHERE id = ?")) {
            try (Connection b = team.login(team.bob())) {
                b.setAutoCommit(false);
                b.setTransactionIsolation(isolation);
                snapshot(b);
                Held held = aliceLocks(c); // committed after Bob's snapshot was taken
                assertThatThrownBy(() -> update(b, write, c.id())).isInstanceOf(SQLException.class)
                        .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("40001"))
                        .hasMessageContaining("customer " + c.id() + " was locked for editing after this transaction");
                b.rollback();
                held.release();
            }
        }
        assertThat(team.strings("SELECT city || ' ' || version FROM customer WHERE id = " + c.id()))
                .containsExactly("Lisbon " + c.version());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"released", "lapsed"})
    void aTransactionBegunBeforeALaterGrantCannotWriteUnderIt(String how) throws Exception {
        Customer c = aliceCreates("Lisbon");
        String session = "alice-" + UUID.randomUUID();
        LeaseSecrets key = LeaseSecrets.random();
        JdbiLeaseRepository leases = new JdbiLeaseRepository(alice.jdbi(), team.alice(), session, key);
        Lease first = ((AcquireOutcome.Granted) leases.acquire(c.id(), how.equals("lapsed") ? 1 : TTL_MS)).lease();
        if (how.equals("released")) {
            leases.release(c.id(), first.token());
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> team.strings(
                "SELECT expires_at <= clock_timestamp() FROM record_lease WHERE record_id = " + c.id())
                .equals(List.of("t")));
        try (Connection b = team.login(team.bob())) {
            b.setAutoCommit(false);
            b.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            snapshot(b); // sees the first grant, ended or lapsed
            assertThat(new JdbiLeaseRepository(alice.jdbi(), team.alice(), "alice-2-" + UUID.randomUUID(),
                    LeaseSecrets.random()).acquire(c.id(), TTL_MS)).isInstanceOf(AcquireOutcome.Granted.class);

            assertThatThrownBy(() -> update(b, "UPDATE customer SET city = 'Forged' WHERE id = ?", c.id()))
                    .isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("40001"));
            b.rollback();
        }
        assertThat(team.strings("SELECT city FROM customer WHERE id = " + c.id())).containsExactly("Lisbon");
    }

    @Test
    void aRepeatableReadWriteOfAFreeCustomerCommitsAndLeavesNoLeaseBehind() throws Exception {
        Customer c = aliceCreates("Lisbon");
        try (Connection b = team.login(team.bob())) {
            b.setAutoCommit(false);
            b.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            snapshot(b);
            assertThat(update(b, "UPDATE customer SET city = 'Porto' WHERE id = ?", c.id())).isOne();
            b.commit();
        }
        assertThat(team.strings("SELECT city || ' ' || version || ' ' || updated_by FROM customer WHERE id = "
                + c.id())).containsExactly("Porto " + (c.version() + 1) + " " + team.bob());
        assertThat(team.strings("SELECT count(*) FROM record_lease WHERE record_id = " + c.id()))
                .containsExactly("0");
        assertThat(team.strings("SELECT count(*) FROM customer_history WHERE customer_id = " + c.id()))
                .containsExactly("2");
    }

    // --- the database numbers customers -----------------------------------------------------------------------------

    @Test
    void anOperatorCannotChooseOrChangeACustomersNumber() throws Exception {
        Customer deleted = aliceCreates("Gone");
        try (Connection b = team.login(team.bob()); Statement s = b.createStatement()) {
            s.executeUpdate("DELETE FROM customer WHERE id = " + deleted.id());
        }
        long next = Long.parseLong(team.strings("SELECT last_value FROM customer_id_seq").get(0));
        Customer kept = aliceCreates("Kept");

        for (String sql : List.of(
                "INSERT INTO customer (id, company) VALUES (" + (next + 1000) + ", 'Squatter')",
                "INSERT INTO customer (id, company) VALUES (" + deleted.id() + ", 'Impostor')",
                "INSERT INTO customer (company) VALUES ('Fine'), ('Fine too');"
                        + " INSERT INTO customer (id, company) VALUES (" + (next + 2000) + ", 'Squatter')",
                "UPDATE customer SET id = " + (next + 3000) + " WHERE id = " + kept.id())) {
            try (Connection b = team.login(team.bob()); Statement s = b.createStatement()) {
                b.setAutoCommit(false);
                assertThatThrownBy(() -> s.execute(sql)).as(sql).isInstanceOf(SQLException.class)
                        .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("LS422"));
                b.rollback();
            }
        }
        assertThat(team.strings("SELECT count(*) FROM customer WHERE id > " + next + " + 500 OR company IN"
                + " ('Squatter', 'Impostor')")).containsExactly("0");
        assertThat(team.strings("SELECT id FROM customer WHERE id = " + kept.id()))
                .containsExactly(String.valueOf(kept.id()));
    }

    @Test
    void theDatabasesOwnNumbersServeEveryWayOfCreating() throws Exception {
        try (Connection b = team.login(team.bob()); Statement s = b.createStatement()) {
            assertThat(s.executeUpdate("INSERT INTO customer (company) VALUES ('One-' || gen_random_uuid())")).isOne();
            assertThat(
                    s.executeUpdate("INSERT INTO customer (company) SELECT 'Many-' || g FROM generate_series(1, 60) g"))
                    .isEqualTo(60);
            long copied = b.unwrap(PGConnection.class).getCopyAPI().copyIn(
                    "COPY customer (company, city) FROM STDIN WITH (FORMAT csv)",
                    new StringReader("Copied One,Faro\nCopied Two,Braga\n"));
            assertThat(copied).isEqualTo(2);
        }
        assertThat(new JdbiCustomerRepository(bob.jdbi(), team.bob()).create(aCustomer()
                .with(CustomerField.EXTERNAL_REF, "LH-" + UUID.randomUUID()).build()).id()).isPositive();
        assertThat(team.strings("SELECT count(*) FROM customer WHERE company LIKE 'Many-%' OR company LIKE 'Copied%'"))
                .containsExactly("62");
    }

    // --- a lease's terms --------------------------------------------------------------------------------------------

    @Test
    void aLeaseLastsAtMostADayAndIsProvenOnlyByALongSecret() throws Exception {
        Customer c = aliceCreates("Lisbon");
        for (String call : List.of(
                "SELECT * FROM lockstep_lease_acquire(" + c.id() + ", 'x', 'bob-s', '" + SECRET + "', 8640000000)",
                "SELECT * FROM lockstep_lease_acquire(" + c.id() + ", 'x', 'bob-s', '" + SECRET + "', -1)",
                "SELECT * FROM lockstep_lease_acquire(" + c.id() + ", 'x', 'bob-s', '', 60000)",
                "SELECT * FROM lockstep_lease_acquire(" + c.id() + ", 'x', 'bob-s', NULL, 60000)",
                "SELECT * FROM lockstep_lease_acquire(" + c.id() + ", 'x', 'bob-s', 'short', 60000)")) {
            try (Connection b = team.login(team.bob()); Statement s = b.createStatement()) {
                assertThatThrownBy(() -> s.executeQuery(call)).as(call).isInstanceOf(SQLException.class)
                        .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("22023"));
            }
        }
        assertThat(team.strings("SELECT count(*) FROM record_lease WHERE record_id = " + c.id()))
                .containsExactly("0");

        try (Connection b = team.login(team.bob()); Statement s = b.createStatement()) {
            ResultSet granted = s.executeQuery("SELECT token FROM lockstep_lease_acquire(" + c.id()
                    + ", 'x', 'bob-s', '" + SECRET + "', 60000)");
            assertThat(granted.next()).isTrue();
            long token = granted.getLong(1);
            assertThatThrownBy(() -> s.executeQuery("SELECT * FROM lockstep_lease_renew(" + c.id() + ", " + token
                    + ", '" + SECRET + "', 8640000000)")).isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("22023"));
        }
        assertThat(team.strings("SELECT expires_at < now() + interval '61 seconds' FROM record_lease WHERE record_id = "
                + c.id())).containsExactly("t");
    }

    // --- presence is the login's own ---------------------------------------------------------------------------------

    @Test
    void anOperatorChangesOnlyTheirOwnPresenceAndNoneOutlivesItsClientByMoreThanMinutes() throws Exception {
        Customer c = aliceCreates("Lisbon");
        String bobs = "bob-" + UUID.randomUUID();
        JdbiPresenceRepository bobPresence = new JdbiPresenceRepository(bob.jdbi(), team.bob(), bobs,
                JdbiPresenceRepository.DEFAULT_TTL);
        bobPresence.heartbeat(Map.of(c.id(), Presence.State.EDITING));

        try (Connection a = team.login(team.alice()); Statement s = a.createStatement()) {
            assertThat(s.executeUpdate("UPDATE presence SET state = 'viewing', expires_at = now()"
                    + " WHERE session_id = '" + bobs + "'")).isZero();
            assertThat(s.executeUpdate("DELETE FROM presence WHERE session_id = '" + bobs + "'")).isZero();
            // A row under Bob's session id is Alice's own, shown as Alice, and lasts five minutes at most.
            assertThat(s.executeUpdate("INSERT INTO presence (session_id, user_name, customer_id, state, expires_at)"
                    + " VALUES ('" + bobs + "', 'Bob', " + c.id() + ", 'viewing', now() + interval '10 years')"))
                    .isOne();
        }
        bobPresence.heartbeat(Map.of(c.id(), Presence.State.EDITING)); // Bob's own row, untouched by Alice's

        assertThat(team.strings("SELECT login || ' ' || user_name || ' ' || state || ' '"
                + " || (expires_at <= now() + interval '5 minutes') FROM presence WHERE customer_id = " + c.id()
                + " ORDER BY login")).containsExactlyInAnyOrder(team.bob() + " " + team.bob() + " editing true",
                        team.alice() + " " + team.alice() + " viewing true");
    }

    @Test
    void anyOperatorClearsOthersExpiredPresence() throws Exception {
        Customer c = aliceCreates("Lisbon");
        String bobs = "bob-" + UUID.randomUUID();
        new JdbiPresenceRepository(bob.jdbi(), team.bob(), bobs, Duration.ofMillis(1))
                .heartbeat(Map.of(c.id(), Presence.State.VIEWING));
        await().atMost(Duration.ofSeconds(5)).until(() -> team.strings(
                "SELECT count(*) FROM presence WHERE expires_at <= clock_timestamp() AND session_id = '" + bobs + "'")
                .equals(List.of("1")));

        new JdbiPresenceRepository(alice.jdbi(), team.alice(), "alice-" + UUID.randomUUID(),
                JdbiPresenceRepository.DEFAULT_TTL).heartbeat(Map.of(c.id(), Presence.State.VIEWING));

        assertThat(team.strings("SELECT count(*) FROM presence WHERE session_id = '" + bobs + "'"))
                .containsExactly("0");
    }

    @Test
    void aFunctionGrantedByHandToOneLoginIsTakenBackAtTheNextMigrate() throws Exception {
        try (Connection c = java.sql.DriverManager.getConnection(team.url(), team.owner(), TeamServer.PASSWORD);
                Statement s = c.createStatement()) {
            s.execute("GRANT EXECUTE ON FUNCTION lockstep_lease_break(bigint, text) TO " + team.bob());
            s.execute("GRANT EXECUTE ON FUNCTION lockstep_lease_end(bigint, bigint, bytea, text, text) TO "
                    + team.bob());
        }

        Database.open(team.url(), team.owner(), TeamServer.PASSWORD, "Lockstep owner again").close();

        assertThat(team.strings("SELECT has_function_privilege('" + team.bob() + "',"
                + " 'lockstep_lease_break(bigint, text)', 'EXECUTE') OR has_function_privilege('" + team.bob() + "',"
                + " 'lockstep_lease_end(bigint, bigint, bytea, text, text)', 'EXECUTE')")).containsExactly("f");
        assertThat(team.strings("SELECT has_function_privilege('" + team.sam() + "',"
                + " 'lockstep_lease_break(bigint, text)', 'EXECUTE')")).containsExactly("t");
    }

    // --- the conflict report's counts and events ----------------------------------------------------------------------

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
            "INSERT INTO customer_save_count (period, saves) VALUES (date_bin('15 minutes', now() - interval '3 days',"
                    + " timestamptz '2000-01-01 00:00+00'), 1000000)",
            "DELETE FROM customer_save_count", "UPDATE customer_save_count SET saves = 0",
            "SELECT lockstep_count_saves(date_bin('15 minutes', now(), timestamptz '2000-01-01 00:00+00'),"
                    + " date_bin('15 minutes', now(), timestamptz '2000-01-01 00:00+00') + interval '15 minutes')",
            "SELECT lockstep_count_saves(timestamptz '2000-01-01 00:00+00', timestamptz '2001-01-01 00:00+00')",
            "SELECT lockstep_record_event('merge_saved', 1, 'x', 's', 1, NULL, 1000000)",
            "SELECT lockstep_record_event('lease_wait', 1, 'x', 's', NULL, NULL, 0)"})
    void anOperatorCannotWriteTheConflictReportsCountsOrInflateAnEvent(String sql) throws Exception {
        try (Connection b = team.login(team.bob()); Statement s = b.createStatement()) {
            assertThatThrownBy(() -> s.execute(sql)).isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).as("%s", e.getMessage())
                            .isIn("42501", "22023"));
        }
    }

    @Test
    void anOperatorsReportCountsTheSettledSavesThroughTheOwnersFunction() throws Exception {
        Customer c = aliceCreates("Lisbon");
        try (Connection b = team.login(team.bob()); Statement s = b.createStatement()) {
            s.executeUpdate("UPDATE customer SET city = 'Porto' WHERE id = " + c.id());
        }

        var report = new JdbiConflictReports(bob.jdbi()).read(3, ZoneOffset.UTC);

        assertThat(report.daysList().stream().mapToLong(d -> d.saves()).sum())
                .isEqualTo(Long.parseLong(team.strings("SELECT count(*) FROM customer_history WHERE op = 'UPDATE'"
                        + " AND changed_at >= (now() AT TIME ZONE 'UTC')::date - 2").get(0)));
        // The settled quarter-hours of the days before were counted and stored, by the owner's function.
        assertThat(Long.parseLong(team.strings("SELECT count(*) FROM customer_save_count").get(0))).isPositive();
        assertThat(team.strings("SELECT has_table_privilege('" + team.bob() + "', 'customer_save_count', 'INSERT')"
                + " OR has_table_privilege('" + team.bob() + "', 'customer_save_count', 'DELETE')"))
                .containsExactly("f");
    }

    // ------------------------------------------------------------------------------------------------------------------

    private static Customer aliceCreates(String city) {
        return new JdbiCustomerRepository(alice.jdbi(), team.alice(), "alice-" + UUID.randomUUID())
                .create(aCustomer().with(CustomerField.EXTERNAL_REF, "LH-" + UUID.randomUUID())
                        .with(CustomerField.CITY, city).build());
    }

    /** Alice's lease on {@code c}, and the repository (her client's key) that can end it. */
    private record Held(JdbiLeaseRepository leases, Lease lease) {
        void release() {
            leases.release(lease.recordId(), lease.token());
        }
    }

    private static Held aliceLocks(Customer c) {
        JdbiLeaseRepository leases = new JdbiLeaseRepository(alice.jdbi(), team.alice(), "alice-" + UUID.randomUUID(),
                LeaseSecrets.random());
        AcquireOutcome granted = leases.acquire(c.id(), TTL_MS);
        assertThat(granted).isInstanceOf(AcquireOutcome.Granted.class);
        return new Held(leases, ((AcquireOutcome.Granted) granted).lease());
    }

    /** Takes the transaction's snapshot: its first query. */
    private static void snapshot(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT count(*) FROM customer")) {
            rs.next();
        }
    }

    private static int update(Connection c, String sql, long id) throws SQLException {
        try (PreparedStatement p = c.prepareStatement(sql)) {
            p.setLong(1, id);
            return p.executeUpdate();
        }
    }
}
