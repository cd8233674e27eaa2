package org.lockstep.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.TestDatabases;

/**
 * The start without Flyway (issue 30) decides from Flyway's own history: its checksums are the ones Flyway recorded,
 * a database Flyway migrated is current, and anything else — an empty database, a repeatable migration edited since
 * — goes back to Flyway, which then makes it current again.
 */
@DatabaseTest
class SchemaHistoryTest {

    @Test
    void checksumsAreTheOnesFlywayRecordedForEveryMigrationInTheJar() throws Exception {
        String url = TestDatabases.freshUrlWithCredentials();
        Database.open(url, null, null, "Flyway migrates").close();
        Map<String, Integer> recorded = new HashMap<>();
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT script, checksum FROM flyway_schema_history")) {
            while (rs.next()) {
                recorded.put(rs.getString(1), rs.getInt(2));
            }
        }
        List<SchemaHistory.Migration> migrations = SchemaHistory.migrations("public");

        assertThat(migrations).extracting(SchemaHistory.Migration::script)
                .contains("V1__customer.sql", "R__10_write_protocol.sql").doesNotContain("afterMigrate.sql");
        assertThat(migrations).allSatisfy(m -> assertThat(m.checksum()).as(m.script())
                .isEqualTo(recorded.get(m.script())));
        assertThat(recorded).hasSameSizeAs(migrations);
    }

    @Test
    void anEmptyDatabaseIsForFlywayAndAMigratedOneIsCurrent() throws Exception {
        String url = TestDatabases.freshUrlWithCredentials();
        try (Connection c = DriverManager.getConnection(url)) {
            assertThat(SchemaHistory.check(c).verdict())
                    .isEqualTo(SchemaHistory.Verdict.MIGRATE);
        }
        Database.open(url, null, null, "Flyway migrates").close();
        try (Connection c = DriverManager.getConnection(url)) {
            SchemaHistory.Check check = SchemaHistory.check(c);
            assertThat(check.verdict()).isEqualTo(SchemaHistory.Verdict.CURRENT);
            assertThat(check.applied()).contains(check.known());
        }
    }

    @Test
    void anEditedRepeatableMigrationSendsTheStartBackToFlywayWhichAppliesItAgain() throws Exception {
        String url = TestDatabases.freshUrlWithCredentials();
        Database.open(url, null, null, "Flyway migrates").close();
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            // What an older jar's R__30 left in the history: this jar's differs, so Flyway must apply it again.
            s.execute("UPDATE flyway_schema_history SET checksum = checksum + 1 WHERE script = 'R__30_leases.sql'");
            assertThat(SchemaHistory.check(c).verdict())
                    .isEqualTo(SchemaHistory.Verdict.MIGRATE);
        }

        Database.open(url, null, null, "a newer jar starts").close();

        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT count(*) FROM flyway_schema_history"
                        + " WHERE script = 'R__30_leases.sql'")) {
            rs.next();
            assertThat(rs.getInt(1)).as("R__30 applied again by Flyway").isEqualTo(2);
            assertThat(SchemaHistory.check(c).verdict())
                    .isEqualTo(SchemaHistory.Verdict.CURRENT);
        }
    }

    @Test
    void versionsCompareAsFlywayOrdersThem() {
        assertThat(SchemaHistory.compareVersions("2", "13")).isNegative();
        assertThat(SchemaHistory.compareVersions("1.10", "1.9")).isPositive();
        assertThat(SchemaHistory.compareVersions("23", "23.0")).isZero();
    }
}
