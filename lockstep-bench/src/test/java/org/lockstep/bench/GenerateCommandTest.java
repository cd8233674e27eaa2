package org.lockstep.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import org.lockstep.cli.ExitCodes;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.TestDatabases;
import picocli.CommandLine;

@DatabaseTest
class GenerateCommandTest {

    final StringWriter out = new StringWriter();
    final StringWriter err = new StringWriter();

    @Test
    void addsTheRequestedRowsAsTheUserAndSaysHowMany() throws Exception {
        String url = urlWithCredentials();

        int code = run("--db-url", url, "--user", "gen-op", "generate", "--rows", "1500", "--seed", "3");

        assertThat(code).as(err.toString()).isEqualTo(ExitCodes.OK);
        assertThat(out.toString()).contains("Added 1,500 customers (GEN-3-0000000001 … GEN-3-0000001500)");
        assertThat(err.toString()).contains("1,500 / 1,500 rows…");
        try (var c = java.sql.DriverManager.getConnection(url);
                var rs = c.createStatement().executeQuery(
                        "SELECT count(*), min(updated_by), max(updated_by), max(version) FROM customer")) {
            rs.next();
            assertThat(rs.getLong(1)).isEqualTo(1_500);
            assertThat(rs.getString(2)).isEqualTo("gen-op");
            assertThat(rs.getString(3)).isEqualTo("gen-op");
            assertThat(rs.getLong(4)).isEqualTo(1);
        }
    }

    @Test
    void zeroRowsIsAUsageError() {
        int code = run("--db-url", urlWithCredentials(), "generate", "--rows", "0");

        assertThat(code).isEqualTo(ExitCodes.INVALID);
        assertThat(err.toString()).contains("--rows must be at least 1");
    }

    private int run(String... args) {
        CommandLine cl = BenchCommand.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        return cl.execute(args);
    }

    static String urlWithCredentials() {
        TestDatabases.Server s = TestDatabases.server();
        return TestDatabases.freshUrl() + "?user=" + s.user() + "&password=" + s.password();
    }
}
