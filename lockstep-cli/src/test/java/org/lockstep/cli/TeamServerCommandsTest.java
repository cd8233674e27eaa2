package org.lockstep.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.server.Database;
import org.lockstep.store.JdbiCustomerRepository;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.TeamServer;

/**
 * The command line on a team server (docs/admin-guide.md, "Roles and privileges"), each operator signed in as their
 * own login and on their own machine: the name recorded is the login's, whatever {@code --user} says; a lock binds
 * the others' {@code set}; only a supervisor's {@code lease break} ends another's lock, an operator's exits 5.
 */
@DatabaseTest
class TeamServerCommandsTest {

    static final ObjectMapper JSON = new ObjectMapper();
    static TeamServer team;
    static Database owner;

    @TempDir
    static Path machines;

    @BeforeAll
    static void setUp() throws Exception {
        team = TeamServer.create();
        owner = team.open(team.owner());
    }

    @AfterAll
    static void tearDown() throws Exception {
        if (owner != null) {
            owner.close();
        }
        if (team != null) {
            team.close();
        }
    }

    /** {@code login}'s command line on a machine of its own, claiming to be {@code claimed}. */
    static Cli signedInAs(String login, String claimed) {
        return new Cli(team.urlFor(login), claimed, machines.resolve(login));
    }

    static Customer customer() {
        return new JdbiCustomerRepository(owner.jdbi(), "Setup")
                .create(aCustomer().with(CustomerField.EXTERNAL_REF, "TC-" + UUID.randomUUID()).build());
    }

    @Test
    void theNameRecordedIsTheLoginWhateverUserTheCommandClaims() throws Exception {
        Customer c = customer();
        Cli bob = signedInAs(team.bob(), team.alice());

        Cli.Result set = bob.run("set", Long.toString(c.id()), "city=Faro", "--if-version", "1");
        Cli.Result acquired = bob.run("lease", "acquire", Long.toString(c.id()), "--json");

        assertThat(set.exitCode()).as(set.toString()).isEqualTo(ExitCodes.OK);
        assertThat(acquired.exitCode()).as(acquired.toString()).isEqualTo(ExitCodes.OK);
        assertThat(team.strings("SELECT changed_by FROM customer_history WHERE customer_id = " + c.id()
                + " AND version = 2")).containsExactly(team.bob());
        JsonNode listed = JSON.readTree(signedInAs(team.alice(), team.alice()).run("lease", "list", "--json").out());
        assertThat(listed.findValues("holder").stream().map(JsonNode::asText)).contains(team.bob())
                .doesNotContain(team.alice());
    }

    @Test
    void anotherOperatorsSetIsLockedOutAndOnlyASupervisorBreaksTheLockExitingFiveForAnyoneElse() throws Exception {
        Customer c = customer();
        Cli alice = signedInAs(team.alice(), "Alice");
        Cli bob = signedInAs(team.bob(), "Bob");
        Cli sam = signedInAs(team.sam(), "Sam");
        long token = JSON.readTree(alice.run("lease", "acquire", Long.toString(c.id()), "--json").out())
                .get("token").asLong();

        Cli.Result bobSet = bob.run("set", Long.toString(c.id()), "city=Bergen", "--if-version", "1");
        Cli.Result bobBreak = bob.run("lease", "break", Long.toString(c.id()));

        assertThat(bobSet.exitCode()).as(bobSet.toString()).isEqualTo(ExitCodes.LOCKED);
        assertThat(bobSet.err()).contains(team.alice());
        assertThat(bobBreak.exitCode()).as(bobBreak.toString()).isEqualTo(ExitCodes.NOT_PERMITTED);
        assertThat(bobBreak.err()).contains("Only a supervisor");
        assertThat(team.strings("SELECT holder FROM record_lease WHERE record_id = " + c.id() + " AND ended IS NULL"))
                .containsExactly(team.alice());

        Cli.Result samBreak = sam.run("lease", "break", Long.toString(c.id()));
        Cli.Result aliceSet = alice.run("set", Long.toString(c.id()), "city=Tromsø", "--if-version", "1",
                "--lease-token", Long.toString(token));

        assertThat(samBreak.exitCode()).as(samBreak.toString()).isEqualTo(ExitCodes.OK);
        assertThat(team.strings("SELECT actor FROM lease_event WHERE record_id = " + c.id() + " AND event = 'broken'"))
                .containsExactly(team.sam());
        assertThat(aliceSet.exitCode()).as(aliceSet.toString()).isNotEqualTo(ExitCodes.OK);
        assertThat(team.strings("SELECT city FROM customer WHERE id = " + c.id())).containsExactly(c.data().city());
    }
}
