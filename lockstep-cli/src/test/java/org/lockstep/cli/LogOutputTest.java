package org.lockstep.cli;

import org.lockstep.server.Database;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.lockstep.cli.log.LogFile;
import org.lockstep.testing.db.DatabaseOutage;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.TestDatabases;

/**
 * What an operator sees on stderr when the database refuses a row or cannot be reached (one line, no stack trace),
 * what the log file keeps (the details), and that neither holds row values.
 */
@DatabaseTest
class LogOutputTest {

    /** A value that must never reach a log or stderr. */
    static final String SECRET = "Sunken-Treasure-4711";

    @TempDir
    Path dataDir;

    @Test
    void aRefusedRowAndAnOutageGiveOneLineOnStderrAndDetailsWithoutRowValuesInTheLogFile() throws Exception {
        String url = TestDatabases.freshUrlWithCredentials();
        try (Database db = Database.open(url, null, null, "log test")) {
            // A rule added by a DBA that Lockstep's validator does not know: only the database refuses the row.
            db.jdbi().useHandle(h -> h.execute("ALTER TABLE customer ADD CONSTRAINT customer_city_not_atlantis"
                    + " CHECK (city IS DISTINCT FROM 'Atlantis')"));

            Run refused = lockstep("--db-url", url, "create", "company=Sunken Co", "city=Atlantis", "notes=" + SECRET);
            DatabaseOutage outage = DatabaseOutage.of(db);
            outage.cut();
            Run unreachable;
            try {
                unreachable = lockstep("--db-url", url, "list");
            } finally {
                outage.restore();
            }

            assertThat(refused.exit()).as(refused.toString()).isEqualTo(ExitCodes.INVALID);
            assertThat(refused.err()).as(refused.toString()).isEqualTo("lockstep: city: Refused by the database's"
                    + " rule customer_city_not_atlantis; nothing was saved\n");
            assertThat(unreachable.exit()).as(unreachable.toString()).isEqualTo(ExitCodes.FAILURE);
            assertThat(unreachable.err().lines()).as(unreachable.toString()).hasSize(1)
                    .allMatch(l -> l.startsWith("lockstep: Cannot connect to "));
            assertThat(unreachable.err()).contains("not currently accepting connections").contains("password=***");

            String log = Files.readString(LogFile.in(dataDir), StandardCharsets.UTF_8);
            assertThat(log).contains("customer_city_not_atlantis")
                    .contains("HikariPool").contains("\tat com.zaxxer.hikari");
            for (String text : List.of(refused.err(), unreachable.err(), log)) {
                assertThat(text).doesNotContain(SECRET).doesNotContain("Failing row").doesNotContain("arguments:")
                        .doesNotContain("Sunken Co");
            }
            assertThat(refused.err() + unreachable.err()).doesNotContain("\tat ").doesNotContain("Exception");
        }
    }

    /**
     * Statements the database refuses, with the secret bound as a value. pgjdbc would put the row in the message's
     * DETAIL ("Failing row contains (…)", "Key (external_ref)=(…) already exists") and Jdbi the bound arguments;
     * Lockstep's connections keep both out, while the SQLSTATE and the constraint stay.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            INSERT INTO customer (company, notes, credit_limit) VALUES ('Co', :secret, -1)  | 23514 | customer_credit_limit_check
            INSERT INTO customer (external_ref, company) VALUES (:secret, 'Co')             | 23505 | customer_external_ref_key
            UPDATE customer SET company = NULL, contact_name = NULL, notes = :secret        | 23514 | customer_company_or_contact_required
            """)
    void databaseErrorsCarryTheirSqlStateAndConstraintButNoRowValues(String sql, String state, String constraint,
            Database db) {
        db.jdbi().useHandle(h -> h.execute("INSERT INTO customer (external_ref, company) VALUES (?, 'Taken')",
                SECRET));

        Throwable thrown = catchThrowable(() -> db.jdbi().useHandle(h -> h.createUpdate(sql)
                .bind("secret", SECRET).execute()));

        assertThat(thrown).isNotNull();
        List<String> messages = new ArrayList<>();
        String sqlState = null;
        for (Throwable t = thrown; t != null; t = t.getCause()) {
            messages.add(t.toString());
            if (t instanceof SQLException e) {
                sqlState = e.getSQLState();
            }
        }
        assertThat(sqlState).isEqualTo(state);
        assertThat(String.join("\n", messages)).contains(constraint).doesNotContain(SECRET)
                .doesNotContain("Failing row").doesNotContain("Detail").doesNotContain("arguments");
    }

    /** What a command run as its own process printed. */
    record Run(int exit, String out, String err) {
        @Override
        public String toString() {
            return "exit " + exit + "\n--- stdout\n" + out + "--- stderr\n" + err;
        }
    }

    /** Runs {@code lockstep --data-dir DIR ARGS…} in a new JVM, with the default log level. */
    private Run lockstep(String... args) throws IOException, InterruptedException {
        List<String> command =
                new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-cp", System.getProperty("java.class.path"), Launcher.class.getName(), "--data-dir",
                        dataDir.toString()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().remove("LOCKSTEP_LOG_LEVEL");
        pb.environment().remove("LOCKSTEP_DATA_DIR");
        Path out = Files.createTempFile(dataDir, "out", ".txt");
        Path err = Files.createTempFile(dataDir, "err", ".txt");
        Process p = pb.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(2, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new AssertionError("lockstep " + String.join(" ", args) + " did not finish");
        }
        return new Run(p.exitValue(), Files.readString(out), Files.readString(err));
    }
}
