package org.lockstep.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lockstep.server.Database;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.TestDatabases;

/** A command of an older Lockstep on a database a newer one migrated: one line naming both versions, exit 1. */
@DatabaseTest
class NewerSchemaCommandTest {

    @TempDir
    Path dataDir;

    @Test
    void everyCommandRefusesInOneLineAndChangesNothing() throws Exception {
        String url = TestDatabases.freshUrlWithCredentials();
        try (Database db = Database.open(url, null, null, "first start")) {
            db.jdbi().useHandle(h -> h.execute("INSERT INTO flyway_schema_history (installed_rank, version,"
                    + " description, type, script, checksum, installed_by, execution_time, success)"
                    + " SELECT max(installed_rank) + 1, '999', 'from a newer Lockstep', 'SQL', 'V999__newer.sql', 0,"
                    + " current_user, 1, true FROM flyway_schema_history"));
        }
        Cli cli = new Cli(url, "alice", dataDir);

        Cli.Result create = cli.run("create", "company=Nordic Pine AB");
        Cli.Result list = cli.run("list");

        for (Cli.Result r : new Cli.Result[]{create, list}) {
            assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.FAILURE);
            assertThat(r.err().lines()).as(r.toString()).singleElement().asString()
                    .startsWith("lockstep: This database was upgraded by a newer Lockstep (schema version 999;"
                            + " this Lockstep knows up to version ")
                    .endsWith(") — upgrade Lockstep on this computer, then start it again");
            assertThat(r.out()).isEmpty();
        }
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement();
                var rs = s.executeQuery("SELECT count(*) FROM customer")) {
            rs.next();
            assertThat(rs.getInt(1)).as("customers created").isZero();
        }
    }
}
