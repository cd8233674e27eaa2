package org.lockstep.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.lockstep.server.Database;
import org.lockstep.domain.ChangeEvent;
import org.lockstep.domain.ChangeFeed;
import org.lockstep.domain.Message;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.FreshDatabase;

/** Messages on a real PostgreSQL: sent, read only by their recipient, limited to 500 characters, and notified. */
@DatabaseTest
class JdbiMessageRepositoryTest {

    @FreshDatabase
    static Database db;

    static JdbiMessageRepository session(String user, String session) {
        return new JdbiMessageRepository(db.jdbi(), user, session);
    }

    @Test
    void theRecipientReadsItsMessagesAboutACustomerWithTheDatabaseClocksTime() {
        JdbiMessageRepository bob = session("Bob", "bob-1");
        Instant dbNow = db.jdbi().withHandle(h -> h.createQuery("SELECT now()").mapTo(Instant.class).one());

        Message sent = bob.send("alice-1", 10, "  Please save, I need this customer ");
        bob.send("carol-1", 10, "Not for Alice");
        bob.send("alice-1", 11, "Another customer");

        List<Message> inbox = session("Alice", "alice-1").received(10, 0);
        assertThat(inbox).extracting(Message::describe).containsExactly("Bob: Please save, I need this customer");
        assertThat(inbox.get(0).sentAt()).isAfterOrEqualTo(dbNow);
        assertThat(session("Alice", "alice-1").received(10, sent.id())).isEmpty();
    }

    @Test
    void anEmptyOrOverlongMessageIsRefusedSayingWhy() {
        JdbiMessageRepository bob = session("Bob", "bob-2");

        assertThatThrownBy(() -> bob.send("alice-2", 1, "   ")).hasMessage("Write a message first.");
        assertThatThrownBy(() -> bob.send("alice-2", 1, "x".repeat(501)))
                .hasMessage("A message can have at most 500 characters.");
        assertThat(bob.send("alice-2", 1, "x".repeat(500)).text()).hasSize(500);
    }

    @Test
    void sendingNotifiesWithTheCustomerTheMessageAndTheSender() {
        List<ChangeEvent> events = new CopyOnWriteArrayList<>();
        try (ChangeFeed feed = db.changeFeed(events::addAll)) {
            feed.start();
            await().atMost(Duration.ofSeconds(10)).until(() -> feed.status() == ChangeFeed.Status.LIVE);

            Message sent = session("Bob", "bob-3").send("alice-3", 42, "Please save");

            await().atMost(Duration.ofSeconds(5)).until(() -> events.stream().anyMatch(ChangeEvent::isMessage));
            ChangeEvent e = events.stream().filter(ChangeEvent::isMessage).findFirst().orElseThrow();
            assertThat(e.id()).isEqualTo(42);
            assertThat(e.version()).isEqualTo(sent.id());
            assertThat(e.madeBy("bob-3")).isTrue();
        }
    }
}
