package org.lockstep.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.server.admin.PrivilegeCheck;
import org.lockstep.store.JdbiCustomerRepository;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.TeamServer;

/**
 * A third attack on a team server set up as the guide says (issue 26; {@link TeamServerTrustTest} and
 * {@link TeamServerLoopholesTest} hold the first two). Each test is a fault of its whole kind, failing until it is
 * closed: a hand-made grant that {@code admin check} calls clean and {@code admin setup}'s migrate leaves in place
 * (TRIGGER on an audit table runs an operator's code as the owner; TRUNCATE, TRIGGER, REFERENCES on customer;
 * UPDATE on a sequence; pg_write_all_data), a deleted customer's number taken again by the one who drew it, and the
 * conflict report's lab count inflated at will. Each test has a server of its own, as the grants it makes are the
 * fault.
 */
@DatabaseTest
class TeamServerThirdAttackTest {

    static final String SECRET = "a-secret-of-at-least-thirty-two-characters";

    TeamServer team;
    Database alice;

    @BeforeEach
    void setUpAsTheGuideSays() throws Exception {
        team = TeamServer.create();
        alice = team.open(team.alice());
    }

    @AfterEach
    void dropIt() throws Exception {
        if (alice != null) {
            alice.close();
        }
        if (team != null) {
            team.close();
        }
    }

    // --- admin check clean means no operator holds more than Lockstep grants -------------------------------------

    /**
     * Whatever an administrator granted by hand, once {@code admin setup}'s migrate has run again and
     * {@code admin check} reports nothing, Bob holds exactly what he held before (what Alice, an untouched operator,
     * holds): on every table, column, sequence, function, the schema, the database and the predefined roles. Today
     * each of these grants survives the migrate and the check calls the server clean.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
            "GRANT ALL ON lease_event TO %s", // setup takes INSERT, UPDATE, DELETE, TRUNCATE back; TRIGGER stays
            "GRANT TRIGGER ON record_lease TO %s",
            "GRANT TRIGGER ON customer_history TO %s",
            "GRANT TRUNCATE, TRIGGER, REFERENCES ON customer TO %s",
            "GRANT ALL ON customer TO lockstep_operators",
            "GRANT UPDATE ON SEQUENCE customer_id_seq TO %s",
            "GRANT USAGE, UPDATE ON SEQUENCE lease_token_seq TO lockstep_operators",
            "GRANT pg_write_all_data TO %s"})
    void whenAdminCheckIsCleanNoOperatorHoldsMoreThanAnother(String grant) throws Exception {
        String bob = team.bob();
        List<String> before = privileges(bob);
        assertThat(before).isEqualTo(privileges(team.alice()));
        try (Connection c = team.admin(team.database()); Statement s = c.createStatement()) {
            s.execute(grant.formatted(bob));
        }

        // admin setup's part in the database: migrate as the owner, whose afterMigrate takes hand-made grants back.
        Database.open(team.url(), team.owner(), TeamServer.PASSWORD, "Lockstep owner again").close();

        List<PrivilegeCheck.Finding> findings;
        try (Connection c = team.admin(team.database())) {
            findings = PrivilegeCheck.findings(c);
        }
        if (findings.isEmpty()) {
            List<String> gained = new ArrayList<>(privileges(bob));
            gained.removeAll(before);
            assertThat(gained).as("what Bob holds beyond an operator's, with admin check clean after %s",
                    grant.formatted(bob)).isEmpty();
        }
    }

    /**
     * The concrete harm of the kind above: {@code GRANT ALL ON lease_event TO bob}, then {@code admin setup} (it
     * reports the grants taken back) and {@code admin check} (clean). Bob's trigger on lease_event, on a function in
     * his own pg_temp, runs inside the owner's {@code SECURITY DEFINER} lease functions, so as the owner: it rewrites
     * the history. The history must stay as written.
     */
    @Test
    void anOperatorsTriggerOnAnAuditTableNeverRunsAsTheOwner() throws Exception {
        Customer c = aliceCreates("Lisbon");
        try (Connection a = team.admin(team.database()); Statement s = a.createStatement()) {
            s.execute("GRANT ALL ON lease_event TO " + team.bob());
        }
        Database.open(team.url(), team.owner(), TeamServer.PASSWORD, "Lockstep owner again").close();

        try (Connection b = team.login(team.bob()); Statement s = b.createStatement()) {
            try {
                s.execute("CREATE FUNCTION pg_temp.rewrite() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
                        + " UPDATE customer_history SET changed_by = 'forged as ' || current_user WHERE customer_id = "
                        + c.id() + "; RETURN NULL; END $$");
                s.execute("CREATE TRIGGER rewrite AFTER INSERT OR UPDATE ON lease_event"
                        + " FOR EACH STATEMENT EXECUTE FUNCTION pg_temp.rewrite()");
                s.execute("SELECT * FROM lockstep_lease_acquire(" + c.id() + ", 'x', 'bob-s', '" + SECRET
                        + "', 60000)");
            } catch (SQLException refused) {
                // Refused at any step is what should happen.
            }
            assertThat(team.strings("SELECT changed_by FROM customer_history WHERE customer_id = " + c.id()))
                    .containsOnly(team.alice());
        }
    }

    // --- ids cannot be chosen ---------------------------------------------------------------------------------------

    /**
     * {@code lockstep_check_new_id} takes the session's {@code currval} for the new row's id. Bob creates a customer,
     * deletes it, and inserts a new row under the deleted number: it passes, joins the deleted customer's history
     * (INSERT, DELETE, INSERT) and starts again at version 1, which a stale editor's base version matches.
     */
    @Test
    void aDeletedCustomersNumberIsNeverTakenAgain() throws Exception {
        try (Connection b = team.login(team.bob()); Statement s = b.createStatement()) {
            long id;
            try (ResultSet rs = s.executeQuery("INSERT INTO customer (company) VALUES ('Mine') RETURNING id")) {
                rs.next();
                id = rs.getLong(1);
            }
            s.executeUpdate("DELETE FROM customer WHERE id = " + id);
            assertThatThrownBy(() -> s.executeUpdate("INSERT INTO customer (id, company) VALUES (" + id
                    + ", 'Resurrected')")).isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("LS422"));
            assertThat(team.strings("SELECT op FROM customer_history WHERE customer_id = " + id
                    + " ORDER BY changed_at")).containsExactly("INSERT", "DELETE");
        }
    }

    // --- the conflict report's counts ---------------------------------------------------------------------------------

    /**
     * The admin guide: "lockstep_record_event(…, 1000000) refused: … an event counts 1". A lab event's count is
     * taken as given, with no lab run behind it, so any operator puts a million given-up purchases on any customer
     * into the conflict report.
     */
    @Test
    void anOperatorCannotInflateTheReportWithALabEventOfTheirOwn() throws Exception {
        try (Connection b = team.login(team.bob()); Statement s = b.createStatement()) {
            assertThatThrownBy(() -> s.execute(
                    "SELECT lockstep_record_event('lab_retries_exhausted', 1, 'x', 's', NULL, NULL, 1000000)"))
                    .isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("22023"));
        }
        assertThat(team.strings("SELECT coalesce(sum(count), 0) FROM conflict_event")).containsExactly("0");
    }

    // ------------------------------------------------------------------------------------------------------------------

    /** Every privilege {@code login} has in the team's database, one line each, in a stable order. */
    private List<String> privileges(String login) throws SQLException {
        String tablePrivileges = "'SELECT', 'INSERT', 'UPDATE', 'DELETE', 'TRUNCATE', 'REFERENCES', 'TRIGGER'"
                + (Integer.parseInt(team.strings("SHOW server_version_num").get(0)) >= 170000 ? ", 'MAINTAIN'" : "");
        String l = "'" + login.replace("'", "''") + "'";
        List<String> all = new ArrayList<>();
        all.addAll(team.strings("SELECT c.relname || ' ' || p FROM pg_class c, unnest(ARRAY[" + tablePrivileges
                + "]) p WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p', 'v')"
                + " AND has_table_privilege(" + l + ", c.oid, p) ORDER BY 1"));
        all.addAll(team.strings("SELECT c.relname || '.' || a.attname || ' ' || p FROM pg_class c"
                + " JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped,"
                + " unnest(ARRAY['INSERT', 'UPDATE', 'REFERENCES']) p"
                + " WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p')"
                + " AND has_column_privilege(" + l + ", c.oid, a.attnum, p) ORDER BY 1"));
        all.addAll(team.strings("SELECT c.relname || ' ' || p FROM pg_class c, unnest(ARRAY['USAGE', 'SELECT',"
                + " 'UPDATE']) p WHERE c.relnamespace = 'public'::regnamespace AND c.relkind = 'S'"
                + " AND has_sequence_privilege(" + l + ", c.oid, p) ORDER BY 1"));
        all.addAll(team.strings("SELECT p.oid::regprocedure::text FROM pg_proc p"
                + " WHERE p.pronamespace = 'public'::regnamespace AND has_function_privilege(" + l
                + ", p.oid, 'EXECUTE') ORDER BY 1"));
        all.addAll(team.strings("SELECT 'schema ' || p FROM unnest(ARRAY['CREATE', 'USAGE']) p"
                + " WHERE has_schema_privilege(" + l + ", 'public', p) ORDER BY 1"));
        all.addAll(team.strings("SELECT 'database ' || p FROM unnest(ARRAY['CREATE', 'TEMP', 'CONNECT']) p"
                + " WHERE has_database_privilege(" + l + ", current_database(), p) ORDER BY 1"));
        all.addAll(team.strings("SELECT 'member of ' || r.rolname FROM pg_roles r WHERE r.rolname LIKE 'pg\\_%'"
                + " AND pg_has_role(" + l + ", r.oid, 'USAGE') ORDER BY 1"));
        return all;
    }

    private Customer aliceCreates(String city) {
        return new JdbiCustomerRepository(alice.jdbi(), team.alice(), "alice-" + UUID.randomUUID())
                .create(aCustomer().with(CustomerField.EXTERNAL_REF, "LH-" + UUID.randomUUID())
                        .with(CustomerField.CITY, city).build());
    }
}
