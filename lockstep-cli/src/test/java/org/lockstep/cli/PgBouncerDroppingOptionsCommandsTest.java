package org.lockstep.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.PgBouncer;
import org.lockstep.testing.db.PgBouncerExtension;
import org.lockstep.testing.db.TestDatabases;

/**
 * {@code --db-url} at a transaction-pooling PgBouncer that drops the startup parameter {@code options}
 * ({@code ignore_startup_parameters = extra_float_digits,options}) and no {@code --listen-url} (issue 28): every
 * command exits 1 with one sentence saying what to do, and nothing is written — where {@code get}, {@code set} and
 * {@code watch} used to run without Lockstep's statement and lock timeouts, and {@code watch} printed {@code live} and
 * then never a change.
 */
@DatabaseTest
class PgBouncerDroppingOptionsCommandsTest {

    static final String SENTENCE = "lockstep: " + PgBouncer.DROPPED_OPTIONS_REFUSAL;

    @RegisterExtension
    static final PgBouncerExtension bouncer = new PgBouncerExtension(20, 2, PgBouncer.IGNORING_OPTIONS);

    @Test
    void everyCommandThroughItExitsOneSayingWhatToDoAndWritesNothing() {
        String direct = TestDatabases.freshUrlWithCredentials();
        Cli server = new Cli(direct, "Tester");
        Cli.Result created = server.run("create", "company=Through Nobody", "city=Lisboa");
        assertThat(created.exitCode()).as(created.toString()).isEqualTo(ExitCodes.OK);
        String id = created.out().replaceAll("(?s).*\\bid=(\\d+).*", "$1");
        Cli.Result before = server.run("get", id, "--json");
        assertThat(before.exitCode()).as(before.toString()).isEqualTo(ExitCodes.OK);

        Cli pooler = new Cli(direct.replaceFirst("//[^/]+/", "//127.0.0.1:" + bouncer.get().port() + "/"), "Tester");
        String[][] commands = {
                {"get", id},
                {"list"},
                {"set", id, "city=Porto", "--if-version", "1"},
                {"create", "company=Through PgBouncer"},
                {"watch"},
        };
        for (String[] command : commands) {
            Cli.Result r = pooler.run(command);
            assertThat(r.exitCode()).as(r.toString()).isEqualTo(1);
            assertThat(r.err().strip()).as(r.toString()).isEqualTo(SENTENCE);
            assertThat(r.out()).as(r.toString()).isEmpty();
        }

        Cli.Result after = server.run("get", id, "--json");
        assertThat(after.out()).as("the customer, untouched").isEqualTo(before.out());
        Cli.Result list = server.run("list", "--json");
        assertThat(list.out()).as(list.toString()).doesNotContain("Through PgBouncer");
    }
}
