package org.lockstep.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.lockstep.server.Database;
import org.lockstep.lab.LabRun;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.TestDatabases;

/** {@code lockstep lab}, in-process on a real database. */
@DatabaseTest
class LabCommandTest {

    static final ObjectMapper JSON = new ObjectMapper();
    static final List<String> KEYS = List.of("strategy", "confirmed", "final_stock", "lost_updates", "conflicts",
            "retries", "retries_exhausted", "throughput_ops_s", "p50_ms", "p99_ms");

    static Database db;
    static Cli cli;

    static String dbName;

    @BeforeAll
    static void open() {
        dbName = TestDatabases.freshName();
        TestDatabases.Server s = TestDatabases.server();
        String url = s.url(dbName) + "?user=" + URLEncoder.encode(s.user(), StandardCharsets.UTF_8)
                + (s.password() == null ? "" : "&password=" + URLEncoder.encode(s.password(), StandardCharsets.UTF_8));
        db = Database.open(url, null, null, "Lockstep test");
        cli = new Cli(url, "Lab");
    }

    @AfterAll
    static void close() {
        db.close();
    }

    static long count(String table) {
        return db.jdbi().withHandle(h -> h.createQuery("SELECT count(*) FROM " + table).mapTo(Long.class).one());
    }

    @Test
    void theDefaultRunPrintsOneJsonObjectPerStrategyWithTheClassicResult() throws Exception {
        Cli.Result result = cli.run("lab", "--json");

        assertThat(result.exitCode()).as(result.toString()).isEqualTo(ExitCodes.OK);
        JsonNode array = JSON.readTree(result.out());
        assertThat(array.isArray()).isTrue();
        Map<String, JsonNode> byStrategy = new HashMap<>();
        array.forEach(node -> byStrategy.put(node.get("strategy").asText(), node));
        assertThat(byStrategy).containsOnlyKeys("none", "optimistic", "pessimistic", "conditional", "lease");
        for (JsonNode node : array) {
            for (String key : KEYS) {
                assertThat(node.has(key)).as(key + " in " + node).isTrue();
            }
            assertThat(node.get("throughput_ops_s").isNumber()).isTrue();
            assertThat(node.get("p99_ms").asDouble()).isGreaterThanOrEqualTo(node.get("p50_ms").asDouble());
        }
        assertThat(byStrategy.get("none").get("confirmed").asInt()).isEqualTo(8);
        assertThat(byStrategy.get("none").get("final_stock").asInt()).isEqualTo(4);
        assertThat(byStrategy.get("none").get("lost_updates").asInt()).isEqualTo(7);
        for (String safe : List.of("optimistic", "pessimistic", "conditional", "lease")) {
            assertThat(byStrategy.get(safe).get("confirmed").asInt()).as(safe).isEqualTo(5);
            assertThat(byStrategy.get(safe).get("final_stock").asInt()).as(safe).isZero();
            assertThat(byStrategy.get(safe).get("lost_updates").asInt()).as(safe).isZero();
        }
        int noneStock = db.jdbi().withHandle(h -> h.createQuery("SELECT stock FROM lab_stock WHERE name = 'none'")
                .mapTo(Integer.class).one());
        assertThat(noneStock).isEqualTo(4);
        assertThat(count("customer")).as("the lab never touches customers").isZero();
        assertThat(count("customer_history")).isZero();
    }

    @Test
    void theTableNamesEachStrategyAndTheLostUpdates() {
        Cli.Result result = cli.run("lab", "--strategy", "none", "--workers", "3", "--stock", "2", "--think-ms",
                "100");

        assertThat(result.exitCode()).as(result.toString()).isEqualTo(ExitCodes.OK);
        assertThat(result.out()).contains("3 workers race for 2 units").contains("STRATEGY").contains("LOST")
                .contains("none: 3 purchases confirmed, but the stock fell by 1: 2 lost updates.");
    }

    @Test
    void aSweepPrintsOneObjectPerWorkerCountAndStrategy() throws Exception {
        Cli.Result result = cli.run("lab", "--sweep", "--sweep-workers", "1,2", "--strategy", "optimistic",
                "--ops", "2", "--think-ms", "0", "--json");

        assertThat(result.exitCode()).as(result.toString()).isEqualTo(ExitCodes.OK);
        JsonNode array = JSON.readTree(result.out());
        assertThat(array.findValuesAsText("workers")).containsExactly("1", "2");
        assertThat(array.findValuesAsText("strategy")).containsExactly("optimistic", "optimistic");
        assertThat(array.findValuesAsText("initial_stock")).containsExactly("2", "4");
    }

    @Test
    void aSweepTablePrintsThroughputPerStrategy() {
        Cli.Result result = cli.run("lab", "--sweep", "--sweep-workers", "1,2", "--ops", "1", "--think-ms", "0");

        assertThat(result.exitCode()).as(result.toString()).isEqualTo(ExitCodes.OK);
        assertThat(result.out()).contains("Throughput, purchase attempts per second")
                .containsPattern("WORKERS +none +optimistic +pessimistic +conditional +lease");
    }

    @Test
    void anUnknownStrategyIsAUsageError() {
        Cli.Result result = cli.run("lab", "--strategy", "hope");

        assertThat(result.exitCode()).isEqualTo(ExitCodes.INVALID);
        assertThat(result.err()).contains("unknown strategy \"hope\"").contains("optimistic");
    }

    @Test
    void impossibleParametersAreUsageErrors() {
        assertThat(cli.run("lab", "--workers", "0").exitCode()).isEqualTo(ExitCodes.INVALID);
        assertThat(cli.run("lab", "--stock", "-1").exitCode()).isEqualTo(ExitCodes.INVALID);
        assertThat(cli.run("lab", "--think-ms", "-5").err()).contains("think time");
        assertThat(cli.run("lab", "--workers", "many").exitCode()).isEqualTo(ExitCodes.INVALID);
    }

    /** Waits and think times the lab's statement bounds cannot hold are refused before anything runs. */
    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(delimiter = '|', textBlock = """
            --lock-timeout-ms | 4001  | lock timeout must be between 1 and 4000 ms, not 4001 ms
            --lock-timeout-ms | 0     | lock timeout must be between 1 and 4000 ms, not 0 ms
            --think-ms        | 30001 | think time must be between 0 and 30000 ms (min <= max), not 30001 ms
            --think-ms        | -1    | think time must be between 0 and 30000 ms (min <= max), not -1 ms
            """)
    void waitsBeyondTheStatementBoundsAreUsageErrors(String option, String value, String message) {
        Cli.Result r = cli.run("lab", option, value);

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.INVALID);
        assertThat(r.err().strip()).isEqualTo("lockstep: " + message);
    }

    /**
     * The lab's own setup is bounded like every statement of Lockstep: a session that holds the lab's row (psql,
     * {@code SELECT … FOR UPDATE} in an open transaction) makes it give up after the lock timeout, naming that session,
     * with exit 4 and no report — instead of waiting silently as long as psql stays open.
     */
    @ParameterizedTest(name = "{0} held")
    @CsvSource(delimiter = '|', textBlock = """
            the stock row of optimistic | optimistic | SELECT 1 FROM lab_stock WHERE name = 'optimistic' FOR UPDATE
            the lease row of lease      | lease      | SELECT 1 FROM lab_lease l JOIN lab_stock s ON s.id = l.stock_id WHERE s.name = 'lease' FOR UPDATE OF l
            """)
    @Timeout(60)
    void aRowHeldByAnotherSessionMakesTheSetupGiveUpNamingIt(String what, String strategy, String lockSql)
            throws Exception {
        assertThat(cli.run("lab", "--strategy", strategy, "--workers", "1").exitCode()).isEqualTo(ExitCodes.OK);
        long[] before = labRow(strategy);
        try (Connection psql = psql()) {
            try (Statement st = psql.createStatement()) {
                assertThat(st.executeQuery(lockSql).next()).as(what).isTrue();
            }

            Cli.Result r = cli.run("lab", "--strategy", strategy, "--workers", "2");

            assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.LOCKED);
            assertThat(r.out()).isEmpty();
            assertThat(r.err().strip()).startsWith("lockstep: The lab's stock row \"" + strategy
                    + "\" is held by another session (psql (test blocker)")
                    .contains("the lab gave up after waiting 4s for it and ran nothing")
                    .doesNotContain("Exception");
            psql.rollback();
        }
        assertThat(labRow(strategy)).as("the row is as the last finished run left it").containsExactly(before);
    }

    /**
     * The table's time is what the user waited, setup included: a run whose setup waited for a held row (released
     * within the lock timeout) says so, though its races were short.
     */
    @Test
    @Timeout(60)
    void theTimeReportedIncludesTheSetupsWaitForAHeldRow() throws Exception {
        assertThat(cli.run("lab", "--strategy", "conditional", "--workers", "1").exitCode()).isEqualTo(ExitCodes.OK);
        Cli.Result r;
        try (Connection psql = psql()) {
            try (Statement st = psql.createStatement()) {
                st.executeQuery("SELECT 1 FROM lab_stock WHERE name = 'conditional' FOR UPDATE").close();
            }
            CompletableFuture<Cli.Result> run = CompletableFuture.supplyAsync(
                    () -> cli.run("lab", "--strategy", "conditional", "--workers", "2", "--think-ms", "0"));
            await().atMost(Duration.ofSeconds(10)).until(() -> lockWaiters() == 1);
            Instant waitingSince = dbNow();
            await().atMost(Duration.ofSeconds(3)).until(() -> Duration.between(waitingSince, dbNow()).toMillis()
                    > 1_500);
            psql.commit();
            r = run.get(30, TimeUnit.SECONDS);
        }

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.OK);
        Matcher took = Pattern.compile("Took (\\d+\\.\\d) s, setup included; the races themselves (\\d+\\.\\d) s\\.")
                .matcher(r.out());
        assertThat(took.find()).as(r.out()).isTrue();
        assertThat(Double.parseDouble(took.group(1))).isGreaterThanOrEqualTo(1.5);
        assertThat(Double.parseDouble(took.group(2))).isLessThan(Double.parseDouble(took.group(1)));
    }

    @Test
    void theJsonTellsEachStrategysWholeTimeFromItsRace() throws Exception {
        Cli.Result r = cli.run("lab", "--workers", "2", "--json");

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.OK);
        for (JsonNode node : JSON.readTree(r.out())) {
            assertThat(node.get("elapsed_ms").asDouble()).as(node.toString())
                    .isGreaterThan(node.get("race_ms").asDouble());
            assertThat(node.get("throughput_ops_s").asDouble()).isCloseTo(
                    node.get("ops").asDouble() * 1000 / node.get("race_ms").asDouble(), org.assertj.core.data.Offset
                            .offset(node.get("throughput_ops_s").asDouble() * 0.01 + 0.01));
        }
    }

    /**
     * More workers than the server will accept connections for are refused before anything runs (exit 2), with the
     * number of connections free and the setting that limits them — not after a 10 s wait for the pool.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource(textBlock = """
            max_connections
            the database's CONNECTION LIMIT
            """)
    void moreWorkersThanTheServerHasConnectionsForAreRefusedBeforeTheRun(String limit) throws Exception {
        String url = TestDatabases.freshUrlWithCredentials();
        String name = url.substring(url.lastIndexOf('/') + 1, url.indexOf('?'));
        try (Database other = Database.open(url, null, null, "Lockstep test")) {
            Cli lab = new Cli(url, "Lab");
            int max = other.jdbi().withHandle(h -> h.createQuery("SHOW max_connections").mapTo(Integer.class).one());
            boolean superuser = other.jdbi().withHandle(h -> h.createQuery(
                    "SELECT rolsuper FROM pg_roles WHERE rolname = current_user").mapTo(Boolean.class).one());
            int workers;
            String named;
            if (limit.equals("max_connections")) {
                assumeTrue(max < LabRun.MAX_WORKERS, "a server with fewer than 500 connections");
                workers = max;
                named = "max_connections is " + max + ": ";
            } else {
                assumeFalse(superuser, "a CONNECTION LIMIT binds roles other than superusers");
                other.jdbi().useHandle(h -> h.execute("ALTER DATABASE " + name + " CONNECTION LIMIT 8"));
                workers = 8;
                named = "database " + name + " has CONNECTION LIMIT 8, ";
            }

            Cli.Result r = lab.run("lab", "--workers", Integer.toString(workers));

            assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.INVALID);
            assertThat(r.out()).isEmpty();
            assertThat(r.err().strip()).matches("lockstep: " + workers + " workers need " + workers
                    + " database connections, but only \\d+ (is|are) free \\(" + Pattern.quote(named)
                    + ".*\\d+ (of them )?in use\\); run with (1 worker|\\d+ workers or fewer)\\. Nothing ran\\.");
            long rows = other.jdbi().withHandle(h -> h.createQuery("SELECT count(*) FROM lab_stock")
                    .mapTo(Long.class).one());
            assertThat(rows).as("nothing ran").isZero();
            // As many workers as the message says are free do run.
            Matcher free = Pattern.compile("only (\\d+)").matcher(r.err());
            assertThat(free.find()).isTrue();
            int fit = Math.min(Integer.parseInt(free.group(1)), 4);
            Cli.Result fits = lab.run("lab", "--strategy", "conditional", "--workers", Integer.toString(fit));
            assertThat(fits.exitCode()).as(fits.toString()).isEqualTo(ExitCodes.OK);
        }
    }

    static long[] labRow(String strategy) {
        return db.jdbi().withHandle(h -> h.createQuery("SELECT stock, version FROM lab_stock WHERE name = :name")
                .bind("name", strategy).map((rs, ctx) -> new long[]{rs.getLong(1), rs.getLong(2)}).one());
    }

    static int lockWaiters() {
        return db.jdbi().withHandle(h -> h.createQuery("SELECT count(*) FROM pg_stat_activity"
                + " WHERE datname = current_database() AND wait_event_type = 'Lock'").mapTo(Integer.class).one());
    }

    static Instant dbNow() {
        return db.jdbi().withHandle(h -> h.createQuery("SELECT clock_timestamp()").mapTo(OffsetDateTime.class).one())
                .toInstant();
    }

    /** A session outside Lockstep, as psql would be, in an open transaction. */
    static Connection psql() throws Exception {
        TestDatabases.Server s = TestDatabases.server();
        Properties props = new Properties();
        props.setProperty("user", s.user());
        if (s.password() != null) {
            props.setProperty("password", s.password());
        }
        props.setProperty("ApplicationName", "psql (test blocker)");
        Connection c = DriverManager.getConnection(s.url(dbName), props);
        c.setAutoCommit(false);
        return c;
    }
}
