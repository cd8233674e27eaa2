package org.lockstep.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.lockstep.app.Database;
import org.lockstep.app.Launcher;
import org.lockstep.testing.Cli;
import org.lockstep.testing.TestDatabases;

/** {@code lockstep lab}, in-process on a real database. */
class LabCommandTest {

    static final ObjectMapper JSON = new ObjectMapper();
    static final List<String> KEYS = List.of("strategy", "confirmed", "final_stock", "lost_updates", "conflicts",
            "retries", "retries_exhausted", "throughput_ops_s", "p50_ms", "p99_ms");

    static Database db;
    static Cli cli;

    @BeforeAll
    static void open() {
        String url = TestDatabases.freshUrlWithCredentials();
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

        assertThat(result.exitCode()).as(result.toString()).isEqualTo(Launcher.OK);
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

        assertThat(result.exitCode()).as(result.toString()).isEqualTo(Launcher.OK);
        assertThat(result.out()).contains("3 workers race for 2 units").contains("STRATEGY").contains("LOST")
                .contains("none: 3 purchases confirmed, but the stock fell by 1: 2 lost updates.");
    }

    @Test
    void aSweepPrintsOneObjectPerWorkerCountAndStrategy() throws Exception {
        Cli.Result result = cli.run("lab", "--sweep", "--sweep-workers", "1,2", "--strategy", "optimistic",
                "--ops", "2", "--think-ms", "0", "--json");

        assertThat(result.exitCode()).as(result.toString()).isEqualTo(Launcher.OK);
        JsonNode array = JSON.readTree(result.out());
        assertThat(array.findValuesAsText("workers")).containsExactly("1", "2");
        assertThat(array.findValuesAsText("strategy")).containsExactly("optimistic", "optimistic");
        assertThat(array.findValuesAsText("initial_stock")).containsExactly("2", "4");
    }

    @Test
    void aSweepTablePrintsThroughputPerStrategy() {
        Cli.Result result = cli.run("lab", "--sweep", "--sweep-workers", "1,2", "--ops", "1", "--think-ms", "0");

        assertThat(result.exitCode()).as(result.toString()).isEqualTo(Launcher.OK);
        assertThat(result.out()).contains("Throughput, purchase attempts per second")
                .containsPattern("WORKERS +none +optimistic +pessimistic +conditional +lease");
    }

    @Test
    void anUnknownStrategyIsAUsageError() {
        Cli.Result result = cli.run("lab", "--strategy", "hope");

        assertThat(result.exitCode()).isEqualTo(Launcher.INVALID);
        assertThat(result.err()).contains("unknown strategy \"hope\"").contains("optimistic");
    }

    @Test
    void impossibleParametersAreUsageErrors() {
        assertThat(cli.run("lab", "--workers", "0").exitCode()).isEqualTo(Launcher.INVALID);
        assertThat(cli.run("lab", "--stock", "-1").exitCode()).isEqualTo(Launcher.INVALID);
        assertThat(cli.run("lab", "--think-ms", "-5").err()).contains("think time");
        assertThat(cli.run("lab", "--workers", "many").exitCode()).isEqualTo(Launcher.INVALID);
    }
}
