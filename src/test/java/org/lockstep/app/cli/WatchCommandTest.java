package org.lockstep.app.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.lockstep.app.Database;
import org.lockstep.app.ExitCodes;
import org.lockstep.domain.AcquireOutcome;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.store.JdbiCustomerRepository;
import org.lockstep.store.JdbiLeaseRepository;
import org.lockstep.testing.DatabaseOutage;
import org.lockstep.testing.TestDatabases;

class WatchCommandTest {

    @Test
    void watchPrintsOneJsonObjectPerChangeUntilInterrupted() throws Exception {
        String url = TestDatabases.freshUrlWithCredentials();
        try (Database db = Database.open(url, null, null, "watch test")) {
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            AtomicInteger exit = new AtomicInteger(-1);
            Thread watcher = new Thread(() -> exit.set(Launcher.run(new PrintWriter(out, true), new PrintWriter(err,
                    true), "--db-url", url, "watch", "--json")));
            watcher.start();
            await().atMost(Duration.ofSeconds(20)).until(() -> err.toString().contains("live"));

            JdbiCustomerRepository alice = new JdbiCustomerRepository(db.jdbi(), "Alice");
            Customer c = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "W-1").build());
            db.jdbi().useHandle(h -> h.execute("UPDATE customer SET city = 'Lille' WHERE id = ?", c.id()));

            await().atMost(Duration.ofSeconds(10)).until(() -> out.toString().lines().count() == 2);
            watcher.interrupt();
            watcher.join(10_000);

            ObjectMapper json = new ObjectMapper();
            JsonNode first = json.readTree(out.toString().lines().findFirst().orElseThrow());
            JsonNode second = json.readTree(out.toString().lines().skip(1).findFirst().orElseThrow());
            assertThat(first.get("table").asText()).isEqualTo("customer");
            assertThat(first.get("id").asLong()).isEqualTo(c.id());
            assertThat(first.get("op").asText()).isEqualTo("INSERT");
            assertThat(first.get("session").asText()).isEqualTo(alice.sessionId());
            assertThat(second.get("version").asLong()).isEqualTo(2);
            assertThat(second.get("session").isNull()).isTrue();
            assertThat(exit.get()).isEqualTo(ExitCodes.OK);
        }
    }

    @Test
    void afterALostConnectionWatchPrintsAResyncThenEveryCustomerChangedMeanwhileAndTheLeasesInForce()
            throws Exception {
        String url = TestDatabases.freshUrlWithCredentials();
        try (Database db = Database.open(url, null, null, "watch test")) {
            JdbiCustomerRepository alice = new JdbiCustomerRepository(db.jdbi(), "Alice");
            Customer updated = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "GAP-UPD").build());
            Customer deleted = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "GAP-DEL").build());
            Customer locked = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "GAP-LOCK").build());
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            Thread watcher = new Thread(() -> Launcher.run(new PrintWriter(out, true), new PrintWriter(err, true),
                    "--db-url", url, "watch", "--json"));
            watcher.start();
            await().atMost(Duration.ofSeconds(20)).until(() -> err.toString().contains("live"));

            // The feed's connection dies and cannot come back until restore(); the writer's stays open.
            DatabaseOutage outage = DatabaseOutage.of(db);
            outage.cut("Lockstep live updates");
            await().atMost(Duration.ofSeconds(20)).until(() -> err.toString().contains("reconnecting"));
            alice.save(updated.id(), 1, updated.data().with(CustomerField.CITY, "Lyon"));
            alice.save(updated.id(), 2, updated.data().with(CustomerField.CITY, "Lille"));
            alice.delete(deleted.id(), 1);
            Customer created = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "GAP-NEW").build());
            long token = ((AcquireOutcome.Granted) new JdbiLeaseRepository(db.jdbi(), "Alice", alice.sessionId())
                    .acquire(locked.id(), 60_000)).lease().token();
            outage.restore();

            await().atMost(Duration.ofSeconds(30)).until(() -> out.toString().contains("\"op\":\"HELD\""));
            watcher.interrupt();
            watcher.join(10_000);

            ObjectMapper json = new ObjectMapper();
            List<JsonNode> afterResync = out.toString().lines().dropWhile(l -> !l.equals("{\"event\":\"resync\"}"))
                    .skip(1).map(l -> readTree(json, l)).toList();
            assertThat(afterResync).filteredOn(n -> n.get("table").asText().equals("customer"))
                    .extracting(n -> n.get("id").asLong(), n -> n.get("version").asLong(), n -> n.get("op").asText())
                    .contains(tuple(updated.id(), 3L, "UPDATE"), tuple(deleted.id(), 1L, "DELETE"),
                            tuple(created.id(), 1L, "INSERT"));
            // Every customer listed is listed once, at its current version.
            assertThat(afterResync).filteredOn(n -> n.get("table").asText().equals("customer"))
                    .allSatisfy(n -> assertThat(n.get("version").asLong()).isEqualTo(alice.find(n.get("id").asLong())
                            .map(Customer::version).orElse(n.get("version").asLong())))
                    .extracting(n -> n.get("id").asLong()).doesNotHaveDuplicates();
            assertThat(afterResync).filteredOn(n -> n.get("table").asText().equals("record_lease"))
                    .extracting(n -> n.get("id").asLong(), n -> n.get("version").asLong(),
                            n -> n.get("holder").asText(), n -> n.get("session").asText())
                    .containsExactly(tuple(locked.id(), token, "Alice", alice.sessionId()));
        }
    }

    @Test
    void inTextTheResyncIsALineOfItsOwnFollowedByTheChangesAsTheyWouldHaveBeenPrinted() throws Exception {
        String url = TestDatabases.freshUrlWithCredentials();
        try (Database db = Database.open(url, null, null, "watch test")) {
            JdbiCustomerRepository alice = new JdbiCustomerRepository(db.jdbi(), "Alice");
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            Thread watcher = new Thread(() -> Launcher.run(new PrintWriter(out, true), new PrintWriter(err, true),
                    "--db-url", url, "watch"));
            watcher.start();
            await().atMost(Duration.ofSeconds(20)).until(() -> err.toString().contains("live"));

            DatabaseOutage outage = DatabaseOutage.of(db);
            outage.cut("Lockstep live updates");
            await().atMost(Duration.ofSeconds(20)).until(() -> err.toString().contains("reconnecting"));
            Customer created = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "GAP-TEXT").build());
            outage.restore();

            String expected = "customer " + created.id() + " v1 INSERT";
            await().atMost(Duration.ofSeconds(30)).until(() -> out.toString().contains(expected));
            watcher.interrupt();
            watcher.join(10_000);

            assertThat(out.toString().lines()).containsExactly(
                    "resync: reconnected; the customers changed while disconnected and the leases in force follow",
                    expected);
        }
    }

    private static JsonNode readTree(ObjectMapper json, String line) {
        try {
            return json.readTree(line);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
