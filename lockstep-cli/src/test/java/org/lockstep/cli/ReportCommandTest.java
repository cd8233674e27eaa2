package org.lockstep.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.lockstep.server.Database;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.store.JdbiCustomerRepository;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.TestDatabases;

/**
 * {@code lockstep report conflicts}: its JSON keys and values, its table, and its exit codes; and {@code demo
 * --trainer-screen}'s check.
 */
@DatabaseTest
class ReportCommandTest {

    static final ObjectMapper JSON = new ObjectMapper();
    static Database db;
    static Cli zoe;
    static Customer hot;

    @BeforeAll
    static void seed() {
        String url = TestDatabases.freshUrlWithCredentials();
        db = Database.open(url, null, null, "Lockstep test");
        zoe = new Cli(url, "Zoë");
        JdbiCustomerRepository alice = new JdbiCustomerRepository(db.jdbi(), "Alice", "alice-cli");
        JdbiCustomerRepository bob = new JdbiCustomerRepository(db.jdbi(), "Bob", "bob-cli");
        hot = alice.create(aCustomer().with(CustomerField.COMPANY, "Hot Harbour Ltd").build());
        alice.save(hot.id(), 1, hot.data().with(CustomerField.CITY, "Leith"));
        for (int i = 0; i < 3; i++) {
            bob.save(hot.id(), 1, hot.data().with(CustomerField.EMAIL, "b" + i + "@example.com"));
        }
    }

    @AfterAll
    static void close() {
        db.close();
    }

    @Test
    void jsonHasEveryKeyAndTheSeededCounts() throws Exception {
        Cli.Result result = zoe.run("report", "conflicts", "--days", "7", "--json");

        assertThat(result.exitCode()).as(result.toString()).isEqualTo(ExitCodes.OK);
        JsonNode report = JSON.readTree(result.out());
        assertThat(names(report)).containsExactly("from", "to", "zone", "read_at", "hot_record", "days", "total",
                "customers", "alerts");
        assertThat(report.get("days")).hasSize(7);
        JsonNode today = report.get("days").get(6);
        assertThat(names(today)).containsExactly("day", "saves", "zero_row_saves", "conflict_rate", "merges_saved",
                "merges_abandoned", "lease_waits", "leases_broken", "leases_lapsed", "lab_retries_exhausted");
        assertThat(today.get("day").asText()).isEqualTo(report.get("to").asText());
        assertThat(today.get("saves").asLong()).isEqualTo(1);
        assertThat(today.get("zero_row_saves").asLong()).isEqualTo(3);
        assertThat(today.get("conflict_rate").decimalValue()).isEqualByComparingTo("0.75");
        assertThat(report.get("total").get("zero_row_saves").asLong()).isEqualTo(3);
        assertThat(report.get("hot_record").get("threshold").asInt()).isEqualTo(3);
        assertThat(report.get("hot_record").get("window_days").asInt()).isEqualTo(7);
        JsonNode customer = report.get("customers").get(0);
        assertThat(names(customer)).containsExactly("customer_id", "name", "conflicts", "saves", "conflict_rate",
                "met_by");
        assertThat(customer.get("customer_id").asLong()).isEqualTo(hot.id());
        assertThat(customer.get("met_by").get(0).asText()).isEqualTo("Bob");
        JsonNode alert = report.get("alerts").get(0);
        assertThat(names(alert)).containsExactly("customer_id", "name", "conflicts", "line");
        assertThat(alert.get("line").asText()).isEqualTo("Hot record: customer " + hot.id()
                + " (Hot Harbour Ltd) — 3 conflicts on this customer in the last 7 days — consider Lock for editing");
    }

    @Test
    void theTableShowsTheTotalTheCustomerAndTheAlert() {
        Cli.Result result = zoe.run("report", "conflicts");

        assertThat(result.exitCode()).as(result.toString()).isEqualTo(ExitCodes.OK);
        assertThat(result.out()).containsPattern("\\ntotal +1 +3 +75\\.0 % +0 +0 +0 +0 +0 +0\\R")
                .contains("Hot Harbour Ltd").contains("met by Bob")
                .contains("Hot record: customer " + hot.id());
    }

    @ParameterizedTest
    @CsvSource(textBlock = """
            0,   --days must be between 1 and 366, not 0
            367, --days must be between 1 and 366, not 367
            """)
    void daysOutOfRangeExitWithTwoNamingTheOption(String days, String message) {
        Cli.Result result = zoe.run("report", "conflicts", "--days", days);

        assertThat(result.exitCode()).isEqualTo(ExitCodes.INVALID);
        assertThat(result.err()).contains(message);
    }

    @ParameterizedTest
    @CsvSource(textBlock = """
            0,  --trainer-screen must be 1 or more, not 0
            -2, --trainer-screen must be 1 or more, not -2
            """)
    void aTrainerScreenBelowOneExitsWithTwoBeforeAnyWindowOpens(String screen, String message) {
        Cli.Result result = zoe.run("demo", "--trainer-screen", screen);

        assertThat(result.exitCode()).isEqualTo(ExitCodes.INVALID);
        assertThat(result.err()).contains(message);
    }

    static List<String> names(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
