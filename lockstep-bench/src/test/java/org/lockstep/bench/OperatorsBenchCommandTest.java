package org.lockstep.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.lockstep.testing.db.DatabaseTest;
import picocli.CommandLine;
import org.lockstep.server.Database;
import org.lockstep.testing.db.TestDatabases;

/**
 * {@code lockstep-bench operators} runs full clients and reports what they did: a short run of three clients whose
 * reported save count is the number of versions the database holds beyond the first, with no errors and every client
 * still listening. No timing is asserted.
 */
@DatabaseTest
class OperatorsBenchCommandTest {

    @Test
    void threeOperatorsForAFewSecondsReportTheSavesTheDatabaseHolds() {
        String url = TestDatabases.freshUrlWithCredentials();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = BenchCommand.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int code = cl.execute("--db-url", url, "--user", "Bench", "operators", "--clients", "3", "--minutes", "0.1",
                "--think-ms", "100");

        assertThat(code).as(err.toString()).isZero();
        String report = out.toString();
        long reportedSaves = number(report, "saves: (\\d+)");
        assertThat(reportedSaves).isPositive();
        assertThat(number(report, "errors: (\\d+)")).isZero();
        assertThat(report).contains("clients listening at the end: 3 of 3");
        // Three clients: at most each one's pool and listener, and the setup client's pool, besides the monitor.
        long peak = number(report, "server connections: peak (\\d+)");
        assertThat(peak).isBetween(3L, 3L * (Database.POOL_SIZE + 1) + Database.POOL_SIZE);
        try (Database db = Database.open(url, null, null, "bench check")) {
            long versionsBeyondFirst = db.jdbi().withHandle(h -> h.createQuery(
                    "SELECT coalesce(sum(version - 1), 0) FROM customer").mapTo(Long.class).one());
            long customers = db.jdbi().withHandle(h -> h.createQuery("SELECT count(*) FROM customer")
                    .mapTo(Long.class).one());
            assertThat(customers).isEqualTo(3L * 2 + OperatorsBench.SHARED_CUSTOMERS);
            assertThat(versionsBeyondFirst).isEqualTo(reportedSaves);
        }
    }

    static long number(String report, String pattern) {
        Matcher m = Pattern.compile(pattern).matcher(report);
        assertThat(m.find()).as("%s in:%n%s", pattern, report).isTrue();
        return Long.parseLong(m.group(1));
    }
}
