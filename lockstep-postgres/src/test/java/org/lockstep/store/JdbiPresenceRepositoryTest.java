package org.lockstep.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.lockstep.server.Database;
import org.lockstep.domain.ChangeEvent;
import org.lockstep.domain.ChangeFeed;
import org.lockstep.domain.Presence;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.FreshDatabase;

/** Presence rows on a real PostgreSQL: heartbeats, expiry by the database clock, removal, and their notifications. */
@DatabaseTest
class JdbiPresenceRepositoryTest {

    @FreshDatabase
    Database db;
    ChangeFeed feed;
    final List<ChangeEvent> events = new CopyOnWriteArrayList<>();

    @BeforeEach
    void open() {
        feed = db.changeFeed(events::addAll);
        feed.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> feed.status() == ChangeFeed.Status.LIVE);
    }

    @AfterEach
    void close() {
        feed.close();
    }

    JdbiPresenceRepository session(String user, Duration ttl) {
        return new JdbiPresenceRepository(db.jdbi(), user, user + "-" + UUID.randomUUID(), ttl);
    }

    List<ChangeEvent> presenceEvents() {
        return events.stream().filter(ChangeEvent::isPresence).toList();
    }

    @Test
    void aHeartbeatMarksEveryOpenCustomerInOneBatchAndAnotherUpdatesTheState() {
        JdbiPresenceRepository bob = session("Bob", Duration.ofSeconds(30));

        bob.heartbeat(Map.of(1L, Presence.State.VIEWING, 2L, Presence.State.EDITING));
        bob.heartbeat(Map.of(1L, Presence.State.EDITING, 2L, Presence.State.EDITING));

        assertThat(session("Alice", Duration.ofSeconds(30)).present()).containsExactly(
                new Presence(1, bob.sessionId(), "Bob", Presence.State.EDITING),
                new Presence(2, bob.sessionId(), "Bob", Presence.State.EDITING));
    }

    @Test
    void rowsExpireByTheDatabaseClockUnlessHeartbeatedSoACrashedClientIsGoneWithinTheTtl() {
        JdbiPresenceRepository crashed = session("Carol", Duration.ofMillis(300));
        crashed.heartbeat(Map.of(7L, Presence.State.EDITING));
        JdbiPresenceRepository alice = session("Alice", Duration.ofSeconds(30));
        assertThat(alice.present()).extracting(Presence::user).containsExactly("Carol");

        await().atMost(Duration.ofSeconds(5)).until(() -> alice.present().isEmpty());
        // The next heartbeat of anyone deletes the expired row, and listeners hear Carol leave.
        alice.heartbeat(Map.of(8L, Presence.State.VIEWING));

        await().atMost(Duration.ofSeconds(5)).until(() -> presenceEvents().stream()
                .anyMatch(e -> e.id() == 7 && "DELETE".equals(e.op())));
        long rows = db.jdbi().withHandle(h -> h.createQuery("SELECT count(*) FROM presence WHERE customer_id = 7")
                .mapTo(Long.class).one());
        assertThat(rows).isZero();
    }

    @Test
    void leavingRemovesTheRowAtOnceAndLeavingAllRemovesEveryRowOfTheSession() {
        JdbiPresenceRepository bob = session("Bob", Duration.ofSeconds(30));
        JdbiPresenceRepository alice = session("Alice", Duration.ofSeconds(30));
        bob.heartbeat(Map.of(1L, Presence.State.VIEWING, 2L, Presence.State.VIEWING, 3L, Presence.State.EDITING));
        alice.heartbeat(Map.of(1L, Presence.State.VIEWING));

        bob.leave(1);
        assertThat(alice.present()).extracting(Presence::customerId, Presence::user).containsExactly(
                org.assertj.core.groups.Tuple.tuple(1L, "Alice"), org.assertj.core.groups.Tuple.tuple(2L, "Bob"),
                org.assertj.core.groups.Tuple.tuple(3L, "Bob"));

        bob.leaveAll();
        assertThat(alice.present()).extracting(Presence::user).containsExactly("Alice");
    }

    @Test
    void arrivalsStateChangesAndDeparturesNotifyButAPureHeartbeatDoesNot() {
        JdbiPresenceRepository bob = session("Bob", Duration.ofSeconds(30));

        bob.heartbeat(Map.of(5L, Presence.State.VIEWING));
        bob.heartbeat(Map.of(5L, Presence.State.VIEWING)); // pure heartbeat: silent
        bob.heartbeat(Map.of(5L, Presence.State.EDITING));
        bob.leave(5);

        await().atMost(Duration.ofSeconds(5)).until(() -> presenceEvents().size() >= 3);
        // A marker after them all: once it arrives, nothing else from Bob's statements can still be on its way.
        session("Marker", Duration.ofSeconds(30)).heartbeat(Map.of(6L, Presence.State.VIEWING));
        await().atMost(Duration.ofSeconds(5)).until(() -> presenceEvents().stream().anyMatch(e -> e.id() == 6));
        assertThat(presenceEvents().stream().filter(e -> e.id() == 5).map(ChangeEvent::op).toList())
                .containsExactly("INSERT", "UPDATE", "DELETE");
        assertThat(presenceEvents().stream().filter(e -> e.id() == 5)).allMatch(e -> e.madeBy(bob.sessionId()));
    }
}
