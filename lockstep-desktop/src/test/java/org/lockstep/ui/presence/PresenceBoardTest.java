package org.lockstep.ui.presence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.lockstep.server.Database;
import org.lockstep.domain.ChangeFeed;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.Presence;
import org.lockstep.store.JdbiPresenceRepository;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.FreshDatabase;
import org.lockstep.ui.Sessions;
import org.lockstep.ui.EditorServices;
import org.lockstep.concurrency.TaskExecutor;
import org.lockstep.ui.editor.CustomerEditorViewModel;
import org.lockstep.ui.live.LiveUpdates;

/**
 * Presence through the real presence table and the real LISTEN/NOTIFY feed: Alice's editor and board show Bob
 * arriving, editing and leaving as it happens, and a crashed client vanishing within the TTL. Database calls run on
 * the calling thread; Alice's FX-thread deliveries run on the feed's thread.
 */
@DatabaseTest
class PresenceBoardTest {

    @FreshDatabase
    static Database db;
    final List<AutoCloseable> toClose = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable c : toClose) {
            c.close();
        }
    }

    /** An operator's services with a presence board; {@code feedFollowed}: the board and editors hear the feed. */
    EditorServices operator(String user, Duration ttl, Duration heartbeat, boolean feedFollowed) {
        EditorServices plain = Sessions.services(db, user, TaskExecutor.sameThread(), Runnable::run,
                Sessions.quickLocks());
        PresenceBoard board = new PresenceBoard(new JdbiPresenceRepository(db.jdbi(), user,
                plain.customers().sessionId(), ttl), TaskExecutor.sameThread(), Runnable::run, Sessions.SCHEDULER,
                heartbeat);
        EditorServices services = plain.toBuilder().presence(board).build();
        if (feedFollowed) {
            LiveUpdates live = new LiveUpdates(Runnable::run, plain.customers().sessionId());
            board.follow(live);
            services = services.toBuilder().live(live).build();
            ChangeFeed feed = db.changeFeed(live);
            feed.start();
            toClose.add(feed);
            await().atMost(Duration.ofSeconds(10)).until(() -> feed.status() == ChangeFeed.Status.LIVE);
        }
        board.start();
        toClose.add(board::stop);
        return services;
    }

    Customer customer(String ref) {
        return Sessions.repository(db, "Setup").create(aCustomer().with(CustomerField.EXTERNAL_REF, ref).build());
    }

    @Test
    void anotherOperatorArrivingEditingAndLeavingShowsAtOnceInTheEditorAndOnTheBoard() {
        Customer c = customer("P-1");
        EditorServices alice = operator("Alice", Duration.ofSeconds(30), Duration.ofHours(1), true);
        EditorServices bob = operator("Bob Smith", Duration.ofSeconds(30), Duration.ofHours(1), false);
        CustomerEditorViewModel aliceEditor = new CustomerEditorViewModel(alice);
        aliceEditor.load(c.id());
        CustomerEditorViewModel bobEditor = new CustomerEditorViewModel(bob);

        bobEditor.load(c.id());
        await().atMost(Duration.ofSeconds(5)).until(() -> aliceEditor.helpers().alsoHereProperty().get()
                .equals("Also here: Bob Smith"));
        assertThat(alice.presence().orElseThrow().others(c.id())).extracting(Presence::initials, Presence::editing)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("BS", false));

        bobEditor.buffer().text(CustomerField.CITY).set("Porto");
        await().atMost(Duration.ofSeconds(5)).until(() -> aliceEditor.helpers().alsoHereProperty().get()
                .equals("Also here: Bob Smith (editing)"));

        bobEditor.close();
        await().atMost(Duration.ofSeconds(5)).until(() -> aliceEditor.helpers().alsoHereProperty().get().isEmpty());
        assertThat(alice.presence().orElseThrow().others(c.id())).isEmpty();
        assertThat(bob.presence().orElseThrow().others(c.id())).as("Bob sees Alice, never himself")
                .extracting(Presence::user).containsExactly("Alice");
        aliceEditor.close();
    }

    /**
     * The customer list draws all its rows anew when the others' presence is told (issue 30): a read that finds what
     * the board shows already — every heartbeat, every customer the operator opens or closes — tells nothing.
     */
    @Test
    void aReadThatFindsTheSamePresenceTellsTheListNothing() {
        Customer c = customer("P-4");
        Customer d = customer("P-5");
        EditorServices alice = operator("Alice", Duration.ofSeconds(30), Duration.ofHours(1), false);
        EditorServices bob = operator("Bob", Duration.ofSeconds(30), Duration.ofHours(1), false);
        CustomerEditorViewModel bobEditor = new CustomerEditorViewModel(bob);
        bobEditor.load(c.id());
        PresenceBoard board = alice.presence().orElseThrow();
        board.refresh();
        assertThat(board.others(c.id())).extracting(Presence::user).containsExactly("Bob");
        java.util.concurrent.atomic.AtomicInteger told = new java.util.concurrent.atomic.AtomicInteger();
        // As the list does: told, it reads the presence again (which is what lets the next change be told).
        board.othersProperty().addListener(o -> {
            told.incrementAndGet();
            board.othersProperty().get();
        });

        CustomerEditorViewModel aliceEditor = new CustomerEditorViewModel(alice);
        aliceEditor.load(d.id());
        aliceEditor.close();
        board.heartbeat();
        board.refresh();
        board.refresh();
        assertThat(told).as("reads that found Bob on P-4 again").hasValue(0);

        bobEditor.close();
        board.refresh();
        assertThat(told).as("Bob leaving").hasValue(1);
        assertThat(board.others(c.id())).isEmpty();
    }

    @Test
    void theOperatorsOtherWindowShowsAsYouInAnotherWindowWhileOthersSeeTheOperatorOnce() {
        Customer c = customer("P-3");
        EditorServices alice = operator("Alice", Duration.ofSeconds(30), Duration.ofHours(1), false);
        EditorServices bob = operator("Bob", Duration.ofSeconds(30), Duration.ofHours(1), true);
        CustomerEditorViewModel windowA = new CustomerEditorViewModel(alice);
        windowA.load(c.id());
        assertThat(windowA.helpers().alsoHereProperty().get()).isEmpty();

        CustomerEditorViewModel windowB = new CustomerEditorViewModel(alice);
        windowB.load(c.id());
        assertThat(windowA.helpers().alsoHereProperty().get()).isEqualTo("Also here: You (another window)");
        assertThat(windowB.helpers().alsoHereProperty().get()).isEqualTo("Also here: You (another window)");

        windowB.buffer().text(CustomerField.CITY).set("Porto");
        assertThat(windowA.helpers().alsoHereProperty().get()).isEqualTo("Also here: You (another window, editing)");
        assertThat(windowB.helpers().alsoHereProperty().get()).isEqualTo("Also here: You (another window)");
        await().atMost(Duration.ofSeconds(5)).until(() -> bob.presence().orElseThrow().alsoHere(c.id())
                .equals("Also here: Alice (editing)"));

        CustomerEditorViewModel bobEditor = new CustomerEditorViewModel(bob);
        bobEditor.load(c.id());
        alice.presence().orElseThrow().refresh();
        assertThat(windowA.helpers().alsoHereProperty().get())
                .isEqualTo("Also here: You (another window, editing), Bob");

        windowB.close();
        assertThat(windowA.helpers().alsoHereProperty().get()).isEqualTo("Also here: Bob");
        bobEditor.close();
        windowA.close();
    }

    @Test
    void aCrashedClientVanishesWithinTheTtlWithoutSayingGoodbye() {
        Customer c = customer("P-2");
        // Alice re-reads at every heartbeat (200 ms); Carol's rows live 500 ms and she never heartbeats again.
        EditorServices alice = operator("Alice", Duration.ofSeconds(30), Duration.ofMillis(200), false);
        EditorServices carol = operator("Carol", Duration.ofMillis(500), Duration.ofHours(1), false);
        carol.presence().orElseThrow().open(c.id());
        await().atMost(Duration.ofSeconds(5)).until(() -> alice.presence().orElseThrow().alsoHere(c.id())
                .equals("Also here: Carol"));

        await().atMost(Duration.ofSeconds(5)).until(() -> alice.presence().orElseThrow().others(c.id()).isEmpty());
    }
}
