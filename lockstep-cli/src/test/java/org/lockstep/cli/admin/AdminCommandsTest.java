package org.lockstep.cli.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.lockstep.cli.ExitCodes;
import org.lockstep.cli.Launcher;
import org.lockstep.domain.AcquireOutcome;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.NotPermittedException;
import org.lockstep.server.Database;
import org.lockstep.store.JdbiCustomerRepository;
import org.lockstep.store.JdbiLeaseRepository;
import org.lockstep.store.LeaseSecrets;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.TestDatabases;

/**
 * README's "Set a team server up", line by line, from an empty server to two operators and a supervisor, through the
 * {@code lockstep admin} commands; then what they are for: one operator's UPDATE under the other's lock is refused,
 * the supervisor breaks it; setup run again changes nothing; awkward names; {@code check} finds hand-made grants and
 * is clean once setup runs again. Roles belong to the whole server, which other tests share: the owner, the logins and
 * the database get names of this run (the README's {@code lockstep_owner}, {@code lockstep}, {@code alice} …
 * replaced), and are dropped at the end. Values are read back from the catalogs.
 */
@DatabaseTest
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AdminCommandsTest {

    static final Path README = Path.of("..", "README.md");
    static final String PASSWORD = "op 'secret' \"pw\"";
    static final ObjectMapper JSON = new ObjectMapper();
    static final String SUFFIX = ProcessHandle.current().pid() + "_" + System.nanoTime() % 1_000_000_000L;
    static final String OWNER = "lk_owner_" + SUFFIX;
    static final String DATABASE = "lk_admin_" + SUFFIX;
    static final Map<String, String> LOGINS = Map.of("alice", "lk_alice_" + SUFFIX, "bob", "lk_bob_" + SUFFIX, "sam",
            "lk_sam_" + SUFFIX);
    static final List<String> MADE = new ArrayList<>();

    static TestDatabases.Server server;

    record Result(int exit, String out, String err) {
        @Override
        public String toString() {
            return "exit " + exit + "\n--- stdout\n" + out + "--- stderr\n" + err;
        }
    }

    @BeforeAll
    static void aServerWithASuperuser() throws SQLException {
        server = TestDatabases.server();
        try (Connection c = admin("postgres"); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT rolsuper FROM pg_roles WHERE rolname = current_user")) {
            rs.next();
            assumeTrue(rs.getBoolean(1), "admin setup's worked example needs a superuser; the test server's "
                    + server.adminUser() + " is not one");
        }
    }

    @AfterAll
    static void dropWhatTheRunMade() throws SQLException {
        if (server == null) {
            return;
        }
        try (Connection c = admin("postgres"); Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + DATABASE + " WITH (FORCE)");
            List<String> roles = new ArrayList<>(LOGINS.values());
            roles.addAll(MADE);
            roles.add(OWNER);
            for (String role : roles) {
                s.execute("DROP ROLE IF EXISTS " + quoted(role));
            }
        }
    }

    // --- README's worked example ----------------------------------------------------------------------------------

    @Test
    @Order(1)
    void readmesWorkedExampleSetsAnEmptyServerUpWithTwoOperatorsAndASupervisor() throws Exception {
        List<String> lines = readmeExample();
        assertThat(lines).as("README's example").hasSizeGreaterThanOrEqualTo(6);
        assertThat(strings("postgres", "SELECT rolname FROM pg_roles WHERE rolname = '" + OWNER + "'")).isEmpty();

        for (String line : lines.subList(0, lines.size() - 1)) {
            List<String> args = asTheTestRunsIt(words(line));
            Result r = lockstep(PASSWORD + "\n", args);
            assertThat(r.exit()).as(line + "\n" + r).isEqualTo(ExitCodes.OK);
        }
        // The last line: alice signs in with her own login.
        assertThat(lines.get(lines.size() - 1)).contains("user=alice");

        assertThat(strings("postgres", "SELECT rolcanlogin || ' ' || rolsuper || rolcreaterole || rolcreatedb"
                + " FROM pg_roles WHERE rolname = '" + OWNER + "'")).containsExactly("true falsefalsefalse");
        assertThat(strings("postgres", "SELECT pg_get_userbyid(datdba) FROM pg_database WHERE datname = '"
                + DATABASE + "'")).containsExactly(OWNER);
        assertThat(strings("postgres", "SELECT unnest(s.setconfig) FROM pg_db_role_setting s JOIN pg_database d"
                + " ON d.oid = s.setdatabase WHERE d.datname = '" + DATABASE + "' ORDER BY 1")).containsExactly(
                        "idle_in_transaction_session_timeout=60s", "lock_timeout=4s", "statement_timeout=10s");
        assertThat(strings(DATABASE, "SELECT DISTINCT pg_get_userbyid(relowner) FROM pg_class"
                + " WHERE relnamespace = 'public'::regnamespace AND relname IN ('customer', 'record_lease')"))
                .containsExactly(OWNER);
        assertThat(strings(DATABASE, "SELECT has_table_privilege('lockstep_operators', 'customer', 'UPDATE')::text"
                + " || has_table_privilege('lockstep_operators', 'customer_history', 'INSERT')::text"))
                .containsExactly("truefalse");
        for (String login : LOGINS.values()) {
            assertThat(strings("postgres", "SELECT pg_has_role('" + login + "', 'lockstep_operators', 'MEMBER')::text"
                    + " || pg_has_role('" + login + "', 'lockstep_supervisors', 'MEMBER')::text"))
                    .as(login).containsExactly(login.startsWith("lk_sam") ? "truetrue" : "truefalse");
        }

        try (Database alice = signIn(LOGINS.get("alice")); Database bob = signIn(LOGINS.get("bob"));
                Database sam = signIn(LOGINS.get("sam"))) {
            LeaseSecrets key = LeaseSecrets.random();
            Customer c = new JdbiCustomerRepository(bob.jdbi(), "bob", "bob-session", key)
                    .create(aCustomer().with(CustomerField.EXTERNAL_REF, "AD-" + UUID.randomUUID())
                            .with(CustomerField.CITY, "Lisbon").build());
            assertThat(new JdbiLeaseRepository(bob.jdbi(), "bob", "bob-session", key).acquire(c.id(), 60_000))
                    .isInstanceOf(AcquireOutcome.Granted.class);

            try (Connection a = DriverManager.getConnection(server.url(DATABASE), LOGINS.get("alice"), PASSWORD);
                    Statement s = a.createStatement()) {
                assertThatThrownBy(() -> s.executeUpdate("UPDATE customer SET city = 'Porto' WHERE id = " + c.id()))
                        .isInstanceOf(SQLException.class).hasMessageContaining("locked for editing by "
                                + LOGINS.get("bob"));
            }
            assertThatThrownBy(() -> new JdbiLeaseRepository(alice.jdbi(), "alice", "alice-session",
                    LeaseSecrets.random()).breakLease(c.id())).isInstanceOf(NotPermittedException.class);
            assertThat(new JdbiLeaseRepository(sam.jdbi(), "sam", "sam-session", LeaseSecrets.random())
                    .breakLease(c.id())).hasValueSatisfying(h -> assertThat(h.holder()).isEqualTo(LOGINS.get("bob")));
            assertThat(strings(DATABASE, "SELECT city FROM customer WHERE id = " + c.id())).containsExactly("Lisbon");
            assertThat(new JdbiLeaseRepository(alice.jdbi(), "alice", "alice-session").holder(c.id())).isEmpty();
        }
    }

    @Test
    @Order(2)
    void setupRunAgainChangesNothingAndSaysSo() throws Exception {
        List<String> before = catalog();

        Result again = lockstep("", List.of("admin", "setup", "--db-url", adminUrl(), "--owner", OWNER));

        assertThat(again.exit()).as(again.toString()).isEqualTo(ExitCodes.OK);
        assertThat(again.out()).contains("nothing to migrate").contains("as afterMigrate.sql says already")
                .contains("nothing changed").doesNotContain("CREATE").doesNotContain("ALTER");
        assertThat(catalog()).isEqualTo(before);
    }

    // --- add-operator -------------------------------------------------------------------------------------------

    @ParameterizedTest
    @Order(3)
    @ValueSource(strings = {"Ann Smith", "O'Brien", "say \"hi\"", "MixedCase", "ação", "x; DROP ROLE lockstep_owner"})
    void addOperatorKeepsAnAwkwardNameExactlyAndItsLoginSignsIn(String awkward) throws Exception {
        String name = awkward + " " + SUFFIX.substring(SUFFIX.length() - 6);
        MADE.add(name);

        Result added = lockstep(PASSWORD + "\n", List.of("admin", "add-operator", name, "--password-stdin",
                "--db-url", adminUrl()));
        Result again = lockstep("", List.of("admin", "add-operator", name, "--supervisor", "--db-url", adminUrl()));
        Result still = lockstep("", List.of("admin", "add-operator", name, "--supervisor", "--db-url", adminUrl()));

        assertThat(added.exit()).as(added.toString()).isEqualTo(ExitCodes.OK);
        assertThat(added.out()).contains("created the login " + name);
        assertThat(again.exit()).as(again.toString()).isEqualTo(ExitCodes.OK);
        assertThat(again.out()).contains("now a member of lockstep_supervisors");
        assertThat(still.out()).contains("nothing changed");
        try (Connection c = DriverManager.getConnection(server.url(DATABASE), name, PASSWORD);
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT session_user, pg_has_role(session_user, 'lockstep_supervisors',"
                        + " 'MEMBER')")) {
            rs.next();
            assertThat(rs.getString(1)).isEqualTo(name);
            assertThat(rs.getBoolean(2)).isTrue();
        }
        assertThat(strings("postgres", "SELECT rolpassword LIKE 'SCRAM-SHA-256$%' FROM pg_authid WHERE rolname = "
                + literal(name))).containsExactly("t");
    }

    @Test
    @Order(4)
    void addOperatorRefusesARoleThatIsNotAnOperatorAndANameTooLongAndChangesNothing() throws Exception {
        Result owner = lockstep(PASSWORD + "\n", List.of("admin", "add-operator", OWNER, "--password-stdin",
                "--db-url", adminUrl()));
        String tooLong = "n".repeat(64);
        Result longName = lockstep(PASSWORD + "\n", List.of("admin", "add-operator", tooLong, "--password-stdin",
                "--db-url", adminUrl()));
        Result noTerminal = lockstep("", List.of("admin", "add-operator", "lk_nobody_" + SUFFIX, "--db-url",
                adminUrl()));

        assertThat(owner.exit()).as(owner.toString()).isEqualTo(ExitCodes.CONFLICT);
        assertThat(owner.err()).contains("is not an operator's login");
        assertThat(strings("postgres", "SELECT pg_has_role('" + OWNER + "', 'lockstep_operators', 'MEMBER')"))
                .containsExactly("f");
        assertThat(longName.exit()).as(longName.toString()).isEqualTo(ExitCodes.INVALID);
        assertThat(noTerminal.exit()).as(noTerminal.toString()).isEqualTo(ExitCodes.INVALID);
        assertThat(noTerminal.err()).contains("--password-stdin");
        assertThat(strings("postgres", "SELECT count(*) FROM pg_roles WHERE rolname IN ('" + tooLong.substring(0, 63)
                + "', 'lk_nobody_" + SUFFIX + "')")).containsExactly("0");
    }

    @Test
    @Order(5)
    void anOperatorsAddOperatorIsRefusedSayingWhoMay() throws Exception {
        String bobsUrl = server.url(DATABASE) + "?user=" + enc(LOGINS.get("bob")) + "&password=" + enc(PASSWORD);

        Result r = lockstep(PASSWORD + "\n", List.of("admin", "add-operator", "lk_eve_" + SUFFIX,
                "--password-stdin", "--db-url", bobsUrl));
        Result setup = lockstep("", List.of("admin", "setup", "--db-url", bobsUrl, "--owner", OWNER));

        assertThat(r.exit()).as(r.toString()).isEqualTo(ExitCodes.NOT_PERMITTED);
        assertThat(r.err()).contains("only a superuser or a role with CREATEROLE");
        assertThat(setup.exit()).as(setup.toString()).isEqualTo(ExitCodes.NOT_PERMITTED);
        assertThat(setup.err()).contains("only a superuser").contains("ask your database administrator");
        assertThat(strings("postgres", "SELECT count(*) FROM pg_roles WHERE rolname = 'lk_eve_" + SUFFIX + "'"))
                .containsExactly("0");
    }

    // --- check ----------------------------------------------------------------------------------------------------

    @Test
    @Order(6)
    void checkFindsHandMadeGrantsExitingOneAndIsCleanOnceSetupRunsAgain() throws Exception {
        String alice = LOGINS.get("alice");
        String bob = LOGINS.get("bob");
        Result clean = lockstep("", List.of("admin", "check", "--db-url", adminUrl()));
        assertThat(clean.exit()).as(clean.toString()).isEqualTo(ExitCodes.OK);
        assertThat(clean.out()).contains("clean");

        try (Connection c = admin(DATABASE); Statement s = c.createStatement()) {
            s.execute("GRANT INSERT, DELETE ON customer_history TO " + alice);
            s.execute("GRANT EXECUTE ON FUNCTION " + function("lockstep_lease_end") + " TO lockstep_operators");
            s.execute("ALTER ROLE " + bob + " CREATEDB");
        }
        Result found = lockstep("", List.of("admin", "check", "--db-url", adminUrl()));
        Result json = lockstep("", List.of("admin", "check", "--json", "--db-url", adminUrl()));

        assertThat(found.exit()).as(found.toString()).isEqualTo(ExitCodes.FAILURE);
        assertThat(found.out().lines()).contains(
                alice + " may INSERT customer_history (" + alice + "): only the owner's functions write it",
                alice + " may DELETE customer_history (" + alice + "): only the owner's functions write it",
                "the operator " + bob + " has CREATEDB: an operator's login should only log in");
        assertThat(found.out()).containsPattern("lockstep_operators may EXECUTE lockstep_lease_end\\(.*\\) \\(.*"
                + LOGINS.get("sam") + ".*\\)");
        JsonNode array = JSON.readTree(json.out());
        assertThat(json.exit()).isEqualTo(ExitCodes.FAILURE);
        assertThat(array.findValuesAsText("kind")).contains("write", "execute", "attribute");

        Result setup = lockstep("", List.of("admin", "setup", "--db-url", adminUrl(), "--owner", OWNER));
        try (Connection c = admin("postgres"); Statement s = c.createStatement()) {
            s.execute("ALTER ROLE " + bob + " NOCREATEDB"); // role attributes are the administrator's to take back
        }
        Result after = lockstep("", List.of("admin", "check", "--db-url", adminUrl()));

        assertThat(setup.exit()).as(setup.toString()).isEqualTo(ExitCodes.OK);
        assertThat(setup.out()).contains("privileges: granted as afterMigrate.sql says");
        assertThat(after.exit()).as(after.toString()).isEqualTo(ExitCodes.OK);
        assertThat(strings(DATABASE, "SELECT has_table_privilege('" + alice + "', 'customer_history', 'INSERT')"))
                .containsExactly("f");
    }

    // --- helpers --------------------------------------------------------------------------------------------------

    /** The lines of README's "Set a team server up" block. */
    static List<String> readmeExample() throws Exception {
        List<String> lines = Files.readAllLines(README, StandardCharsets.UTF_8);
        int section = lines.indexOf("## Set a team server up");
        assertThat(section).as("README's section").isNotNegative();
        int open = lines.subList(section, lines.size()).indexOf("```sh") + section;
        int close = lines.subList(open + 1, lines.size()).indexOf("```") + open + 1;
        return lines.subList(open + 1, close);
    }

    /** README's line for this run: its URL the test server's, its names this run's. */
    static List<String> asTheTestRunsIt(List<String> words) {
        assertThat(words.get(0)).isEqualTo("lockstep");
        List<String> args = new ArrayList<>();
        for (int i = 1; i < words.size(); i++) {
            String w = words.get(i);
            if (w.equals("--db-url")) {
                args.add(w);
                args.add(adminUrl());
                i++;
            } else {
                args.add(LOGINS.getOrDefault(w, w));
            }
        }
        if (args.contains("setup")) {
            args.addAll(List.of("--owner", OWNER));
        }
        if (args.contains("add-operator")) {
            args.add("--password-stdin"); // no terminal to ask on
        }
        return args;
    }

    /** Shell words: split at spaces, single quotes kept together. */
    static List<String> words(String line) {
        List<String> words = new ArrayList<>();
        StringBuilder w = new StringBuilder();
        boolean quoted = false;
        for (char ch : line.toCharArray()) {
            if (ch == '\'') {
                quoted = !quoted;
            } else if (ch == ' ' && !quoted) {
                if (w.length() > 0) {
                    words.add(w.toString());
                    w.setLength(0);
                }
            } else {
                w.append(ch);
            }
        }
        if (w.length() > 0) {
            words.add(w.toString());
        }
        return words;
    }

    static Result lockstep(String stdin, List<String> args) {
        InputStream in = System.in;
        System.setIn(new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)));
        try {
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            List<String> all = new ArrayList<>(List.of("--data-dir", Path.of("target", "cli-data").toString()));
            all.addAll(args);
            int exit = Launcher.run(new PrintWriter(out), new PrintWriter(err), all.toArray(String[]::new));
            return new Result(exit, out.toString(), err.toString());
        } finally {
            System.setIn(in);
        }
    }

    /** The team database's URL as the test server's superuser. */
    static String adminUrl() {
        return server.url(DATABASE) + "?user=" + enc(server.adminUser())
                + (server.adminPassword() == null ? "" : "&password=" + enc(server.adminPassword()));
    }

    static Database signIn(String login) {
        return Database.open(server.url(DATABASE), login, PASSWORD, "Lockstep (" + login + ")");
    }

    static Connection admin(String db) throws SQLException {
        return DriverManager.getConnection(server.url(db), server.adminUser(), server.adminPassword());
    }

    /** What setup could change: the run's roles, memberships, the database's settings and every ACL in it. */
    static List<String> catalog() throws SQLException {
        List<String> all = new ArrayList<>(strings("postgres", "SELECT r.rolname || r.rolcanlogin || r.rolsuper"
                + " || coalesce(r.rolpassword, '') || coalesce(array_agg(m.roleid::regrole::text ORDER BY 1)::text, '')"
                + " FROM pg_authid r LEFT JOIN pg_auth_members m ON m.member = r.oid"
                + " WHERE r.rolname LIKE 'lk\\_%" + SUFFIX + "' OR r.rolname LIKE 'lockstep\\_%'"
                + " GROUP BY r.rolname, r.rolcanlogin, r.rolsuper, r.rolpassword ORDER BY 1"));
        all.addAll(strings("postgres", "SELECT d.datname || datdba || coalesce(datacl::text, '')"
                + " || coalesce(s.setconfig::text, '') FROM pg_database d LEFT JOIN pg_db_role_setting s"
                + " ON s.setdatabase = d.oid WHERE d.datname = '" + DATABASE + "'"));
        all.addAll(strings(DATABASE, "SELECT c.oid::regclass || coalesce(c.relacl::text, '') || c.relowner"
                + " FROM pg_class c WHERE c.relnamespace = 'public'::regnamespace ORDER BY 1"));
        all.addAll(strings(DATABASE, "SELECT p.oid::regprocedure || coalesce(p.proacl::text, '') FROM pg_proc p"
                + " WHERE p.pronamespace = 'public'::regnamespace ORDER BY 1"));
        all.addAll(strings(DATABASE, "SELECT coalesce(nspacl::text, '') FROM pg_namespace WHERE nspname = 'public'"));
        all.addAll(strings(DATABASE, "SELECT installed_rank || ' ' || checksum FROM flyway_schema_history"
                + " ORDER BY installed_rank"));
        return all;
    }

    static String function(String name) throws SQLException {
        return strings(DATABASE, "SELECT oid::regprocedure FROM pg_proc WHERE proname = '" + name + "'").get(0);
    }

    static List<String> strings(String db, String sql) throws SQLException {
        List<String> values = new ArrayList<>();
        try (Connection c = admin(db); PreparedStatement s = c.prepareStatement(sql);
                ResultSet rs = s.executeQuery()) {
            while (rs.next()) {
                values.add(rs.getString(1));
            }
        }
        return values;
    }

    static String quoted(String name) {
        return '"' + name.replace("\"", "\"\"") + '"';
    }

    static String literal(String value) {
        return "'" + value.replace("'", "''") + "'";
    }

    static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
