package org.lockstep.cli;

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
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;
import org.junit.jupiter.api.Test;
import org.lockstep.server.Database;
import org.lockstep.domain.AcquireOutcome;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.Presence;
import org.lockstep.store.JdbiCustomerRepository;
import org.lockstep.store.JdbiPresenceRepository;
import org.lockstep.store.JdbiLeaseRepository;
import org.lockstep.testing.db.DatabaseOutage;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.TestDatabases;

@DatabaseTest
class WatchCommandTest {

    @Test
    void watchPrintsOneJsonObjectPerChangeUntilInterrupted() throws Exception {
        String url = TestDatabases.freshUrlWithCredentials();
        try (Database db = Database.open(url, null, null, "watch test")) {
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            AtomicInteger exit = new AtomicInteger(-1);
            Thread watcher = startWatch(out, err, exit::set, "--db-url", url, "watch", "--json");

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
            // What the notification leaves out, read back from the history: who, when, which fields.
            assertThat(first.get("user").asText()).isEqualTo("Alice");
            assertThat(first.get("fields")).isEmpty();
            assertThat(second.get("fields")).extracting(JsonNode::asText).containsExactly("city");
            assertThat(java.time.Instant.parse(second.get("at").asText()))
                    .isAfterOrEqualTo(java.time.Instant.parse(first.get("at").asText()));
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
            Thread watcher = startWatch(out, err, code -> {}, "--db-url", url, "watch", "--json");

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
    void aLockTakenWhileDisconnectedAndBrokenAfterTheReconnectionIsToldAsBroken() throws Exception {
        String url = TestDatabases.freshUrlWithCredentials();
        try (Database db = Database.open(url, null, null, "watch test")) {
            JdbiCustomerRepository ana = new JdbiCustomerRepository(db.jdbi(), "Ana");
            Customer c = ana.create(aCustomer().with(CustomerField.EXTERNAL_REF, "GAP-BREAK").build());
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            Thread watcher = startWatch(out, err, code -> {}, "--db-url", url, "watch");

            DatabaseOutage outage = DatabaseOutage.of(db);
            outage.cut("Lockstep live updates");
            await().atMost(Duration.ofSeconds(20)).until(() -> err.toString().contains("reconnecting"));
            long token = ((AcquireOutcome.Granted) new JdbiLeaseRepository(db.jdbi(), "Ana", ana.sessionId())
                    .acquire(c.id(), 60_000)).lease().token();
            outage.restore();
            await().atMost(Duration.ofSeconds(30)).until(() -> out.toString().contains("resync:")
                    && out.toString().lines().anyMatch(l -> l.contains("customer " + c.id() + " lock")));
            new JdbiLeaseRepository(db.jdbi(), "Bruno", "bruno-session").breakLease(c.id());

            String broken = "customer " + c.id() + " lock, token " + token + ": Bruno broke Ana's lock";
            await().atMost(Duration.ofSeconds(20)).until(() -> out.toString().contains(broken));
            watcher.interrupt();
            watcher.join(10_000);

            // The resync's lines about leases in force carry no time of their own; the others start with one.
            List<String> afterResync = out.toString().lines().dropWhile(l -> !l.startsWith("resync:")).skip(1)
                    .map(l -> l.replaceFirst("^(\\d\\d:\\d\\d:\\d\\d)?\\s*", "")).toList();
            // The lease in force, from the resync; then the break, told as the break (not the older grant entry).
            assertThat(afterResync).filteredOn(l -> l.startsWith("customer " + c.id() + " lock"))
                    .last().isEqualTo(broken);
            assertThat(afterResync).filteredOn(l -> l.startsWith("customer " + c.id() + " lock"))
                    .map(l -> l.replaceAll(" until \\d\\d:\\d\\d:\\d\\d$", "")).containsExactly(
                            "customer " + c.id() + " lock, token " + token + ": Ana holds it", broken);
        }
    }

    @Test
    void inTextTheResyncIsALineOfItsOwnFollowedByTheChangesAsTheyWouldHaveBeenPrinted() throws Exception {
        String url = TestDatabases.freshUrlWithCredentials();
        try (Database db = Database.open(url, null, null, "watch test")) {
            JdbiCustomerRepository alice = new JdbiCustomerRepository(db.jdbi(), "Alice");
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            Thread watcher = startWatch(out, err, code -> {}, "--db-url", url, "watch");

            DatabaseOutage outage = DatabaseOutage.of(db);
            outage.cut("Lockstep live updates");
            await().atMost(Duration.ofSeconds(20)).until(() -> err.toString().contains("reconnecting"));
            Customer created = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "GAP-TEXT").build());
            outage.restore();

            String expected = "customer " + created.id() + " v1 (" + created.data().company() + "): Alice created it";
            await().atMost(Duration.ofSeconds(30)).until(() -> out.toString().contains(expected));
            watcher.interrupt();
            watcher.join(10_000);

            assertThat(out.toString().lines()).hasSize(2);
            assertThat(out.toString().lines().findFirst().orElseThrow()).isEqualTo(
                    "resync: reconnected; the customers changed while disconnected and the leases in force follow");
            assertThat(out.toString().lines().skip(1).findFirst().orElseThrow())
                    .matches("\\d\\d:\\d\\d:\\d\\d  " + java.util.regex.Pattern.quote(expected));
        }
    }

    /**
     * In text, each line says who did what to which customer, in the operators' words, at the database's time:
     * the fields a save changed, a lock taken and given back, a lock broken by someone else.
     */
    @Test
    void inTextEachLineSaysWhoChangedWhichFieldsAndWhatHappenedToTheLock() throws Exception {
        String url = TestDatabases.freshUrlWithCredentials();
        try (Database db = Database.open(url, null, null, "watch test")) {
            JdbiCustomerRepository ana = new JdbiCustomerRepository(db.jdbi(), "Ana");
            Customer c = ana.create(aCustomer().with(CustomerField.EXTERNAL_REF, "WORDS-1")
                    .with(CustomerField.COMPANY, "Around the Horn").build());
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            Thread watcher = startWatch(out, err, code -> {}, "--db-url", url, "watch");

            ana.save(c.id(), 1, c.data().with(CustomerField.CITY, "Lille").with(CustomerField.PHONE, "+33 1 2345"));
            JdbiLeaseRepository anasLocks = new JdbiLeaseRepository(db.jdbi(), "Ana", ana.sessionId());
            long first = ((AcquireOutcome.Granted) anasLocks.acquire(c.id(), 60_000)).lease().token();
            anasLocks.release(c.id(), first);
            long second = ((AcquireOutcome.Granted) anasLocks.acquire(c.id(), 60_000)).lease().token();
            new JdbiLeaseRepository(db.jdbi(), "Bruno", "bruno-session").breakLease(c.id());
            ana.delete(c.id(), 2);

            String subject = "customer " + c.id();
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> out.toString().contains(subject + " v2 (Around the Horn):"
                            + " Ana deleted it") && out.toString().contains("the lock went with the deleted customer"));
            watcher.interrupt();
            watcher.join(10_000);

            List<String> lines = out.toString().lines().map(l -> l.substring("HH:mm:ss  ".length())).toList();
            assertThat(out.toString().lines()).allMatch(l -> l.matches("(\\d\\d:\\d\\d:\\d\\d| {8})  customer .*"));
            assertThat(lines).filteredOn(l -> l.startsWith(subject + " v")).containsExactly(
                    subject + " v2 (Around the Horn): Ana changed phone, city",
                    subject + " v2 (Around the Horn): Ana deleted it");
            assertThat(lines).filteredOn(l -> l.startsWith(subject + " lock"))
                    // A grant read back while it is still in force says until when; one already ended cannot.
                    .map(l -> l.replaceAll(" until \\d\\d:\\d\\d:\\d\\d$", "")).containsExactly(
                            subject + " lock, token " + first + ": Ana locked it for editing",
                            subject + " lock, token " + first + ": Ana released it",
                            subject + " lock, token " + second + ": Ana locked it for editing",
                            subject + " lock, token " + second + ": Bruno broke Ana's lock",
                            subject + " lock, token " + second + ": the lock went with the deleted customer");
        }
    }

    @Test
    void anEditorOpeningAndClosingACustomerElsewhereIsNotPrinted() throws Exception {
        String url = TestDatabases.freshUrlWithCredentials();
        try (Database db = Database.open(url, null, null, "watch test")) {
            JdbiCustomerRepository ana = new JdbiCustomerRepository(db.jdbi(), "Ana");
            Customer c = ana.create(aCustomer().with(CustomerField.EXTERNAL_REF, "W-PRESENCE").build());
            StringWriter text = new StringWriter();
            StringWriter json = new StringWriter();
            StringWriter err = new StringWriter();
            Thread inText = startWatch(text, err, code -> {}, "--db-url", url, "watch");
            Thread inJson = startWatch(json, new StringWriter(), code -> {}, "--db-url", url, "watch", "--json");

            JdbiPresenceRepository bobsDesktop = new JdbiPresenceRepository(db.jdbi(), "Bob", "bob-session",
                    Duration.ofSeconds(30));
            bobsDesktop.heartbeat(Map.of(c.id(), Presence.State.EDITING));
            bobsDesktop.leave(c.id());
            ana.save(c.id(), 1, c.data().with(CustomerField.CITY, "Lille"));

            await().atMost(Duration.ofSeconds(20)).until(() -> text.toString().contains("Ana changed city")
                    && json.toString().contains("\"version\":2"));
            inText.interrupt();
            inJson.interrupt();
            inText.join(10_000);
            inJson.join(10_000);

            assertThat(text.toString().lines()).singleElement().asString().contains("customer " + c.id() + " v2")
                    .endsWith(": Ana changed city");
            assertThat(json.toString().lines()).singleElement().asString().contains("\"table\":\"customer\"");
        }
    }

    @Test
    void aNotificationOfAChangeTheDatabaseDoesNotRecordIsNotPrinted() throws Exception {
        String url = TestDatabases.freshUrlWithCredentials();
        try (Database db = Database.open(url, null, null, "watch test")) {
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            AtomicInteger exit = new AtomicInteger(-1);
            JdbiCustomerRepository alice = new JdbiCustomerRepository(db.jdbi(), "Alice");
            Customer c = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "W-FORGED").build());
            Thread watcher = startWatch(out, err, exit::set, "--db-url", url, "watch", "--json");

            // Any operator may notify the channel (ADR 0018, "Notifications are hints"); then a real change.
            db.jdbi().useHandle(h -> h.execute("SELECT pg_notify('lockstep', ?), pg_notify('lockstep', ?)",
                    "{\"table\":\"customer\",\"id\":" + c.id() + ",\"version\":99,\"op\":\"UPDATE\","
                            + "\"session\":null}",
                    "{\"table\":\"record_lease\",\"id\":" + c.id() + ",\"version\":7,\"op\":\"INSERT\","
                            + "\"session\":\"bob\"}"));
            db.jdbi().useHandle(h -> h.execute("UPDATE customer SET city = 'Lille' WHERE id = ?", c.id()));

            await().atMost(Duration.ofSeconds(10)).until(() -> out.toString().contains("\"version\":2"));
            watcher.interrupt();
            watcher.join(10_000);

            ObjectMapper json = new ObjectMapper();
            assertThat(out.toString().lines().map(l -> readTree(json, l))).singleElement().satisfies(line -> {
                assertThat(line.get("table").asText()).isEqualTo("customer");
                assertThat(line.get("version").asLong()).isEqualTo(2);
                assertThat(line.get("fields")).extracting(JsonNode::asText).containsExactly("city");
            });
        }
    }

    /** Runs {@code lockstep ARGS} on a thread of its own and returns once the feed says it is live. */
    private static Thread startWatch(StringWriter out, StringWriter err, IntConsumer exit, String... args) {
        Thread watcher = new Thread(() -> exit.accept(Launcher.run(new PrintWriter(out, true),
                new PrintWriter(err, true), args)));
        watcher.start();
        await().atMost(Duration.ofSeconds(20)).until(() -> err.toString().contains("live"));
        return watcher;
    }

    private static JsonNode readTree(ObjectMapper json, String line) {
        try {
            return json.readTree(line);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
