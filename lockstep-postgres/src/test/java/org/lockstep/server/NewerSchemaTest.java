package org.lockstep.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.lockstep.domain.SchemaTooNewException;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.TestDatabases;

/**
 * An older Lockstep on a database a newer one migrated: it refuses at start, naming both schema versions, instead of
 * starting with Flyway's warning in the log and failing at the first save.
 */
@DatabaseTest
class NewerSchemaTest {

    @Test
    void aClientRefusesADatabaseMigratedPastTheVersionsItKnowsAndLeavesItUntouched() throws Exception {
        String url = TestDatabases.freshUrlWithCredentials();
        String known;
        try (Database db = Database.open(url, null, null, "first start")) {
            known = db.jdbi().withHandle(h -> h.createQuery("SELECT max(version::int)::text FROM"
                    + " flyway_schema_history WHERE version IS NOT NULL").mapTo(String.class).one());
        }
        // What a newer Lockstep's migration leaves in Flyway's history.
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            s.execute("INSERT INTO flyway_schema_history (installed_rank, version, description, type, script,"
                    + " checksum, installed_by, execution_time, success) SELECT max(installed_rank) + 1, '999',"
                    + " 'from a newer Lockstep', 'SQL', 'V999__newer.sql', 0, current_user, 1, true"
                    + " FROM flyway_schema_history");
        }

        Throwable refused = catchThrowable(() -> Database.open(url, null, null, "older client").close());

        assertThat(refused).isInstanceOf(SchemaTooNewException.class).hasMessage("This database was upgraded by a"
                + " newer Lockstep (schema version 999; this Lockstep knows up to version " + known + ") — upgrade"
                + " Lockstep on this computer, then start it again");
        assertThat(((SchemaTooNewException) refused).knownVersion()).isEqualTo(known);
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement();
                var rs = s.executeQuery("SELECT count(*) FROM flyway_schema_history WHERE version = '999'")) {
            rs.next();
            assertThat(rs.getInt(1)).as("the newer history, untouched").isEqualTo(1);
        }
    }
}
