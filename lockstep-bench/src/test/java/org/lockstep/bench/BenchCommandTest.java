package org.lockstep.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.sql.DriverManager;
import org.junit.jupiter.api.Test;
import org.lockstep.cli.ExitCodes;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.TestDatabases;
import picocli.CommandLine;

/** Smoke tests: the benchmarks run end to end for a moment and report both paths. No timing is asserted. */
@DatabaseTest
class BenchCommandTest {

    final StringWriter out = new StringWriter();
    final StringWriter err = new StringWriter();

    @Test
    void saveBenchmarkPrintsBothPathsAndTheirRatioAndLeavesNoRowsBehind() throws Exception {
        String url = urlWithCredentials();

        int code = run("--db-url", url, "--user", "bencher", "save", "--clients", "1,2",
                "--seconds", "0.4", "--warmup", "0.1");

        assertThat(code).as(err.toString()).isEqualTo(ExitCodes.OK);
        assertThat(out.toString()).contains("Lockstep store", "raw JDBC", "ratio Lockstep/raw", "Aim: Lockstep");
        assertThat(out.toString().lines().filter(l -> l.matches("[12] +Lockstep store .*"))).hasSize(2);
        assertThat(out.toString().lines().filter(l -> l.matches("[12] +raw JDBC .*"))).hasSize(2);
        assertThat(out.toString().lines().filter(l -> l.matches("[12] +trigger-free table .*"))).hasSize(2);
        assertThat(out.toString()).contains("ratio Lockstep/limit", "x the trigger-free table at 1 client",
                "x the trigger-free table at 2 clients");
        // Issue 29: the bare copy, the ratio to it, and the heap-only share of the saves (which change a note only).
        assertThat(out.toString().lines().filter(l -> l.matches("[12] +bare copy .*"))).hasSize(2);
        assertThat(out.toString()).contains("ratio Lockstep/bare", "x the bare copy at 1 client",
                "x the bare copy at 2 clients");
        java.util.List<Double> hot = out.toString().lines()
                .map(java.util.regex.Pattern.compile("^[12] +HOT share of customer updates +([0-9.]+) %.*")::matcher)
                .filter(java.util.regex.Matcher::matches).map(m -> Double.parseDouble(m.group(1))).toList();
        assertThat(hot).hasSize(2).allSatisfy(share -> assertThat(share).isGreaterThanOrEqualTo(90.0));
        assertThat(rows(url)).isZero();
        assertThat(count(url, "SELECT count(*) FROM pg_class WHERE relname = 'bench_trigger_free_customer'")).isZero();
        assertThat(count(url, "SELECT count(*) FROM pg_class WHERE relname = 'bench_bare_customer'")).isZero();
    }

    @Test
    void listBenchmarkTypesTheSearchesOfAFileAndKeepsItsJsonKeys(
            @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        java.nio.file.Path file = dir.resolve("searches.txt");
        java.nio.file.Files.writeString(file, "Zoë\n\n  gmail  \n");

        int code = run("--db-url", urlWithCredentials(), "list", "--rows", "500", "--passes", "1",
                "--searches", file.toString(), "--json");

        assertThat(code).as(err.toString()).isEqualTo(ExitCodes.OK);
        JsonNode json = new ObjectMapper().readTree(out.toString());
        assertThat(json.fieldNames()).toIterable().contains("benchmark", "rows", "generated", "generation_seconds",
                "measurements", "keystrokes", "heap_base_mb", "heap_mb");
        java.util.List<String> typed = new java.util.ArrayList<>();
        json.get("keystrokes").forEach(k -> typed.add(k.get("order").asText() + " " + k.get("search").asText()));
        // Each search typed one character at a time, in each of the three orders.
        assertThat(typed).containsExactlyInAnyOrder("id Z", "id Zo", "id Zoë", "id g", "id gm", "id gma",
                "id gmai", "id gmail", "company Z", "company Zo", "company Zoë", "company g", "company gm",
                "company gma", "company gmai", "company gmail", "updated_at desc Z", "updated_at desc Zo",
                "updated_at desc Zoë", "updated_at desc g", "updated_at desc gm", "updated_at desc gma",
                "updated_at desc gmai", "updated_at desc gmail");
        assertThat(json.get("keystrokes").get(0).fieldNames()).toIterable().contains("search", "order", "shown",
                "count", "count_exact", "page_ms", "count_ms");
    }

    @Test
    void aSearchesFileWithoutSearchesIsAUsageError(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        java.nio.file.Path file = dir.resolve("empty.txt");
        java.nio.file.Files.writeString(file, "\n  \n");

        int code = run("--db-url", urlWithCredentials(), "list", "--searches", file.toString());

        assertThat(code).isEqualTo(ExitCodes.INVALID);
        assertThat(err.toString()).contains("--searches", "holds no search");
    }

    @Test
    void burstBenchmarkReportsCatchUpStallAndHeapAndLeavesNoRowsBehind() throws Exception {
        String url = urlWithCredentials();

        int code = run("--db-url", url, "--user", "bencher", "live", "--burst", "300", "--json");

        assertThat(code).as(err.toString()).isEqualTo(ExitCodes.OK);
        JsonNode json = new ObjectMapper().readTree(out.toString());
        assertThat(json.get("rows").asInt()).isEqualTo(300);
        assertThat(json.get("catch_up_ms").isNumber()).isTrue();
        assertThat(json.get("catch_up_ms").asDouble()).isNotNaN();
        assertThat(json.get("ui_stall_ms").asDouble()).isNotNegative();
        assertThat(rows(url)).isZero();
    }

    @Test
    void leaseBenchmarkPrintsBothPathsAndLeavesNoRowsOrLeasesBehind() throws Exception {
        String url = urlWithCredentials();

        int code = run("--db-url", url, "--user", "bencher", "lease", "--clients", "1,2",
                "--seconds", "0.4", "--warmup", "0.1");

        assertThat(code).as(err.toString()).isEqualTo(ExitCodes.OK);
        assertThat(out.toString().lines().filter(l -> l.matches("[12] +Lockstep store .*"))).hasSize(2);
        assertThat(out.toString().lines().filter(l -> l.matches("[12] +raw JDBC .*"))).hasSize(2);
        assertThat(rows(url)).isZero();
    }

    @Test
    void saveBenchmarkWritesJsonWhenAsked() throws Exception {
        int code = run("--db-url", urlWithCredentials(), "save", "--clients", "1", "--seconds", "0.2",
                "--warmup", "0", "--json");

        assertThat(code).as(err.toString()).isEqualTo(ExitCodes.OK);
        JsonNode json = new ObjectMapper().readTree(out.toString());
        JsonNode result = json.get("results").get(0);
        assertThat(result.get("clients").asInt()).isEqualTo(1);
        assertThat(result.get("lockstep").get("saves").asLong()).isPositive();
        assertThat(result.get("raw_jdbc").get("saves").asLong()).isPositive();
        assertThat(result.get("ratio").asDouble()).isPositive();
    }

    @Test
    void listBenchmarkTopsUpTheTableAndReportsEveryMeasure() throws Exception {
        String url = urlWithCredentials();

        int code = run("--db-url", url, "list", "--rows", "3000", "--passes", "1", "--keystrokes");

        assertThat(code).as(err.toString()).isEqualTo(ExitCodes.OK);
        assertThat(rows(url)).isEqualTo(3_000);
        assertThat(out.toString()).contains("Customer list on 3,000 customers (3,000 generated first",
                "first page by id", "first page by company", "filter keystroke: page + count",
                "scroll to page 50 by company, per page", "Client heap after GC", "\"müller\"",
                "filter keystroke, 1 character: page", "filter keystroke, 2 characters: page + count",
                "Aims (p95): page < 100 ms, page + count < 150 ms, at every search length", "all keystrokes:",
                "1 character:", "2 characters:", "3+ characters:");
    }

    @Test
    void liveBenchmarkReportsEveryVersionClientBHeldAndLeavesNoRowsBehind() throws Exception {
        String url = urlWithCredentials();

        int code = run("--db-url", url, "--user", "bencher", "live", "--saves", "30",
                "--warmup", "5");

        assertThat(code).as(err.toString()).isEqualTo(ExitCodes.OK);
        assertThat(out.toString()).contains("client A saved one customer 30 times", "p50 ms", "p99 ms", "max ms",
                "Aim: p99 from A's commit to B's model");
        assertThat(out.toString().lines().filter(l -> l.matches("30 +0 +.*"))).as(out.toString()).hasSize(1);
        assertThat(rows(url)).isZero();
    }

    @Test
    void liveBenchmarkWritesJsonWhenAsked() throws Exception {
        int code = run("--db-url", urlWithCredentials(), "live", "--saves", "10", "--pause-ms", "1",
                "--json");

        assertThat(code).as(err.toString()).isEqualTo(ExitCodes.OK);
        JsonNode json = new ObjectMapper().readTree(out.toString());
        assertThat(json.get("saves").asInt()).isEqualTo(10);
        assertThat(json.get("received").asLong()).isEqualTo(10);
        assertThat(json.get("missed").asInt()).isZero();
        assertThat(json.get("p99_ms").asDouble()).isGreaterThanOrEqualTo(json.get("p50_ms").asDouble());
    }

    @Test
    void negativeSecondsIsAUsageError() {
        int code = run("--db-url", urlWithCredentials(), "save", "--seconds", "-1");

        assertThat(code).isEqualTo(ExitCodes.INVALID);
        assertThat(err.toString()).contains("--seconds must be positive");
    }

    private int run(String... args) {
        CommandLine cl = BenchCommand.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        return cl.execute(args);
    }

    private static long rows(String url) throws Exception {
        return count(url, "SELECT count(*) FROM customer");
    }

    private static long count(String url, String sql) throws Exception {
        try (var c = DriverManager.getConnection(url);
                var rs = c.createStatement().executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static String urlWithCredentials() {
        TestDatabases.Server s = TestDatabases.server();
        return TestDatabases.freshUrl() + "?user=" + s.user() + "&password=" + s.password();
    }
}
