package org.lockstep.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.lockstep.server.Database;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.store.JdbiCustomerRepository;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.TestDatabases;

/** {@code lockstep set … --if-version N --merge}: three-way merge from the command line, on a real database. */
@DatabaseTest
class SetMergeCommandTest {

    static final ObjectMapper JSON = new ObjectMapper();
    static Database db;
    static JdbiCustomerRepository alice;
    static Cli bob;

    @BeforeAll
    static void open() {
        String url = TestDatabases.freshUrlWithCredentials();
        db = Database.open(url, null, null, "Lockstep test");
        alice = new JdbiCustomerRepository(db.jdbi(), "Alice");
        bob = new Cli(url, "Bob");
    }

    @AfterAll
    static void close() {
        db.close();
    }

    @Test
    void changesToDifferentFieldsMergeAndSaveOnTheirVersion() throws Exception {
        Customer c = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "M-1").build());
        alice.save(c.id(), 1, c.data().with(CustomerField.PHONE, "+47 111"));

        Cli.Result r = bob.run("set", Long.toString(c.id()), "email=bob@example.no", "--if-version", "1", "--merge",
                "--json");

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.OK);
        assertThat(JSON.readTree(r.out()).get("version").asLong()).isEqualTo(3);
        Customer row = alice.find(c.id()).orElseThrow();
        assertThat(row.version()).isEqualTo(3);
        assertThat(row.data().phone()).isEqualTo("+47 111");
        assertThat(row.data().email()).isEqualTo("bob@example.no");
    }

    @Test
    void aRealConflictWritesNothingAndPrintsTheConflictingFields() throws Exception {
        Customer c = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "M-2").build());
        alice.save(c.id(), 1, c.data().with(CustomerField.CITY, "Bergen"));

        Cli.Result r = bob.run("set", Long.toString(c.id()), "city=Trondheim", "phone=+47 222", "--if-version", "1",
                "--merge");

        assertThat(r.exitCode()).isEqualTo(ExitCodes.CONFLICT);
        JsonNode out = JSON.readTree(r.out());
        assertThat(out.get("current_version").asLong()).isEqualTo(2);
        assertThat(out.get("conflicts")).hasSize(1);
        JsonNode city = out.get("conflicts").get(0);
        assertThat(city.get("field").asText()).isEqualTo("city");
        assertThat(city.get("base").asText()).isEqualTo("São José dos Campos");
        assertThat(city.get("mine").asText()).isEqualTo("Trondheim");
        assertThat(city.get("theirs").asText()).isEqualTo("Bergen");
        Customer row = alice.find(c.id()).orElseThrow();
        assertThat(row.version()).isEqualTo(2);
        assertThat(row.data().phone()).isEqualTo(c.data().phone());
    }

    @Test
    void anExplicitValueEqualToTheBaseStillConflictsWithTheirNewerValue() throws Exception {
        Customer c = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "M-5").build());
        alice.save(c.id(), 1, c.data().with(CustomerField.CITY, "Berlin"));

        Cli.Result r = bob.run("set", Long.toString(c.id()), "city=" + c.data().city(), "--if-version", "1",
                "--merge");

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.CONFLICT);
        assertThat(JSON.readTree(r.out()).get("conflicts").get(0).get("field").asText()).isEqualTo("city");
        assertThat(alice.find(c.id()).orElseThrow().data().city()).isEqualTo("Berlin");
    }

    @Test
    void aSetThatChangesNothingMakesNoNewVersion() {
        Customer c = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "M-6").build());

        Cli.Result r = bob.run("set", Long.toString(c.id()), "city=" + c.data().city(), "--if-version", "1");

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.OK);
        assertThat(r.err()).contains("already holds these values");
        assertThat(alice.find(c.id()).orElseThrow().version()).isEqualTo(1);
    }

    @Test
    void withoutMergeAStaleVersionIsAPlainConflict() {
        Customer c = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "M-3").build());
        alice.save(c.id(), 1, c.data().with(CustomerField.PHONE, "+47 333"));

        Cli.Result r = bob.run("set", Long.toString(c.id()), "email=bob@example.no", "--if-version", "1");

        assertThat(r.exitCode()).isEqualTo(ExitCodes.CONFLICT);
        assertThat(alice.find(c.id()).orElseThrow().data().email()).isEqualTo(c.data().email());
    }

    @Test
    void notesEditedOnDifferentLinesMergeLineByLine() {
        Customer c = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "M-4")
                .with(CustomerField.NOTES, "one\ntwo\nthree").build());
        alice.save(c.id(), 1, c.data().with(CustomerField.NOTES, "ONE\ntwo\nthree"));

        Cli.Result r = bob.run("set", Long.toString(c.id()), "notes=one\ntwo\nTHREE", "--if-version", "1", "--merge");

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.OK);
        assertThat(alice.find(c.id()).orElseThrow().data().notes()).isEqualTo("ONE\ntwo\nTHREE");
    }
}
