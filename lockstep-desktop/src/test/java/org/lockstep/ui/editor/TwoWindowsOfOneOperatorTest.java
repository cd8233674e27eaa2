package org.lockstep.ui.editor;

import org.lockstep.editing.LeaseSettings;
import org.lockstep.domain.ConcurrencyMode;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.lockstep.server.Database;
import org.lockstep.domain.ChangeEvent;
import org.lockstep.domain.ChangeFeed;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.CustomerRepository;
import org.lockstep.domain.LeaseEvent;
import org.lockstep.domain.LeaseInfo;
import org.lockstep.domain.SaveOutcome;
import org.lockstep.store.JdbiLeaseRepository;
import org.lockstep.store.JdbiMessageRepository;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.FreshDatabase;
import org.lockstep.ui.Sessions;
import org.lockstep.ui.EditorServices;
import org.lockstep.concurrency.TaskExecutor;
import org.lockstep.editing.WriterIds;
import org.lockstep.ui.live.LiveUpdates;
import org.lockstep.ui.lock.EditLockViewModel;
import org.lockstep.editing.LockState;

/**
 * One operator, two windows (issue 11): two editors of Alice's one client on a real database are two writers. A save
 * in one window is announced in the other like anyone's; a lease taken in one keeps the other from writing, under it
 * and optimistically past it; "Release there" lets it go from the other window. Database calls run on the test's
 * thread; notifications are handed to the client's hub as the feed would deliver them, each naming the writer id
 * that the database's notification carries (the first test checks that it does).
 */
@DatabaseTest
class TwoWindowsOfOneOperatorTest {

    static final AtomicInteger REFS = new AtomicInteger();
    @FreshDatabase
    static Database db;

    EditorServices alice;
    LiveUpdates live;
    Customer stored;
    CustomerEditorViewModel windowA;
    CustomerEditorViewModel windowB;
    CustomerEditorViewModel windowC;

    @BeforeEach
    void aliceOpensOneCustomerInTwoWindows() {
        // A 60 s TTL, so that no renewal races the test's steps; a fast poll.
        EditorServices client = Sessions.services(db, "Alice", TaskExecutor.sameThread(), Runnable::run,
                new LeaseSettings(Duration.ofSeconds(60), Duration.ofMinutes(15), Duration.ofMinutes(1),
                        Duration.ofMillis(100)));
        live = new LiveUpdates(Runnable::run, client.clientSession());
        alice = client.toBuilder().live(live).messages(new JdbiMessageRepository(db.jdbi(), "Alice",
                client.clientSession())).build();
        stored = Sessions.repository(db, "Setup").create(aCustomer()
                .with(CustomerField.EXTERNAL_REF, "TWO-WINDOWS-" + REFS.incrementAndGet()).build());
        windowA = opens();
        windowB = opens();
    }

    CustomerEditorViewModel opens() {
        CustomerEditorViewModel editor = new CustomerEditorViewModel(alice);
        editor.load(stored.id());
        return editor;
    }

    @AfterEach
    void closeWindows() {
        for (CustomerEditorViewModel w : new CustomerEditorViewModel[]{windowA, windowB, windowC}) {
            if (w != null) {
                w.close();
            }
        }
    }

    /** The feed's notification of a write by {@code window}, as the database sends it: it names the writer id. */
    void announce(CustomerEditorViewModel window, String table, long version, String op) {
        live.changes(List.of(new ChangeEvent(table, stored.id(), version, op, Optional.of(window.writerId()))));
    }

    CustomerRepository database() {
        return Sessions.repository(db, "Reader");
    }

    Optional<LeaseInfo> lease() {
        return new JdbiLeaseRepository(db.jdbi(), "Reader", "reader").holder(stored.id());
    }

    @Test
    void eachWindowWritesAsAWriterOfItsOwnOfTheOneClientAndTheNotificationNamesIt() {
        assertThat(windowA.writerId()).isNotEqualTo(windowB.writerId());
        assertThat(WriterIds.clientOf(windowA.writerId())).isEqualTo(alice.clientSession());
        assertThat(WriterIds.clientOf(windowB.writerId())).isEqualTo(alice.clientSession());

        List<ChangeEvent> heard = new CopyOnWriteArrayList<>();
        try (ChangeFeed feed = db.changeFeed(heard::addAll)) {
            feed.start();
            await().atMost(Duration.ofSeconds(10)).until(() -> feed.status() == ChangeFeed.Status.LIVE);
            windowA.buffer().text(CustomerField.PHONE).set("+55 11 4000-1111");
            assertThat(windowA.saves().save()).isTrue();

            await().atMost(Duration.ofSeconds(10)).until(() -> heard.stream().anyMatch(e -> e.isCustomer()
                    && e.id() == stored.id() && e.version() == 2));
        }
        assertThat(heard.stream().filter(e -> e.isCustomer() && e.id() == stored.id()))
                .allMatch(e -> e.madeBy(windowA.writerId()));
    }

    @Test
    void aSaveInOneWindowIsAnnouncedInTheOtherDirtyWindowAsYoursAndItsSaveMergesInsteadOfOverwriting() {
        windowB.buffer().text(CustomerField.CITY).set("Curitiba");
        windowA.buffer().text(CustomerField.PHONE).set("+55 11 4000-1111");
        assertThat(windowA.saves().save()).isTrue();
        Customer saved = windowA.buffer().baseProperty().get();

        announce(windowA, "customer", saved.version(), "UPDATE");

        assertThat(windowB.live().bannerProperty().get())
                .isEqualTo("You saved version 2 in another window (phone) — Review");
        assertThat(windowB.buffer().baseProperty().get().version()).isEqualTo(1);
        assertThat(windowB.buffer().text(CustomerField.CITY).get()).isEqualTo("Curitiba");
        assertThat(windowA.live().bannerProperty().get()).as("its own save").isNull();

        assertThat(windowB.saves().save()).isTrue();

        assertThat(windowB.conflicts().mergeProperty().get()).as("a stale save meets the other window's version")
                .isNotNull();
        assertThat(windowB.conflicts().mergeProperty().get().theirs()).contains(saved);
        Customer now = database().find(stored.id()).orElseThrow();
        assertThat(now.version()).as("nothing written").isEqualTo(2);
        assertThat(now.data().phone()).isEqualTo("+55 11 4000-1111");
    }

    @Test
    void aDeleteInOneWindowIsAnnouncedAsYoursToADirtyWindowAndEndsAClean() {
        windowC = opens();
        windowB.buffer().text(CustomerField.CITY).set("Curitiba");
        windowA.saves().requestDelete();
        assertThat(database().find(stored.id())).isEmpty();

        announce(windowA, "customer", stored.version(), "DELETE");

        assertThat(windowB.live().bannerProperty().get())
                .isEqualTo("You deleted this customer in another window — Review");
        assertThat(windowB.stateProperty().get()).isEqualTo(EditorState.EDITING);
        assertThat(windowC.stateProperty().get()).isEqualTo(EditorState.DELETED);
        assertThat(windowC.noticeProperty().get().text())
                .isEqualTo("You deleted this customer in another window; it no longer exists.");
    }

    @Test
    void aLockInOneWindowMakesTheOtherReadOnlyItsSaveWritesNothingAndItCannotTakeTheLease() {
        windowA.lock().modeProperty().set(ConcurrencyMode.LOCK_FOR_EDITING);
        windowA.buffer().text(CustomerField.CITY).set("Curitiba");
        LeaseInfo held = lease().orElseThrow();
        assertThat(held.sessionId()).isEqualTo(windowA.writerId());

        announce(windowA, "record_lease", held.token(), "INSERT");

        assertThat(windowB.lock().stateProperty().get()).isInstanceOf(LockState.HeldInAnotherWindow.class);
        assertThat(windowB.lock().messageProperty().get())
                .startsWith("You are editing this customer in another window (since ");
        assertThat(windowB.lock().readOnlyProperty().get()).isTrue();
        assertThat(windowB.status().editableProperty().get()).isFalse();
        assertThat(windowB.status().canSaveProperty().get()).isFalse();
        assertThat(windowB.helpers().messaging().orElseThrow().canMessageProperty().get()).as("no message to oneself")
                .isFalse();

        windowB.buffer().text(CustomerField.PHONE).set("+55 11 4000-2222"); // as if typed despite the read-only fields
        assertThat(windowB.saves().save()).isFalse();
        windowB.lock().lock();

        assertThat(windowB.lock().stateProperty().get()).isInstanceOf(LockState.HeldInAnotherWindow.class);
        assertThat(lease()).as("the lease is still window A's, not superseded").contains(held);
        assertThat(database().find(stored.id()).orElseThrow().version()).as("nothing written").isEqualTo(1);

        assertThat(windowA.saves().save()).isTrue();
        assertThat(database().find(stored.id()).orElseThrow().data().city()).isEqualTo("Curitiba");
    }

    @Test
    void anOptimisticSaveFromTheOtherWindowIsRefusedByTheDatabaseWhileTheLeaseIsHeld() {
        windowB.buffer().text(CustomerField.PHONE).set("+55 11 4000-2222");
        windowA.lock().lock();
        assertThat(lease()).hasValueSatisfying(l -> assertThat(l.sessionId()).isEqualTo(windowA.writerId()));

        // Window B has not heard of the lease yet: its Save goes out, and the database refuses it.
        assertThat(windowB.saves().save()).isTrue();

        assertThat(windowB.noticeProperty().get().text())
                .matches(
                        "You are editing this customer in another window \\(since \\d\\d:\\d\\d:\\d\\d\\) — your changes "
                                + "are kept\\.");
        assertThat(windowB.lock().stateProperty().get()).isInstanceOf(LockState.HeldInAnotherWindow.class);
        assertThat(windowB.buffer().text(CustomerField.PHONE).get()).isEqualTo("+55 11 4000-2222");
        assertThat(windowB.buffer().dirtyProperty().get()).isTrue();
        Customer now = database().find(stored.id()).orElseThrow();
        assertThat(now.version()).isEqualTo(1);
        assertThat(now.data().phone()).isEqualTo(stored.data().phone());
    }

    @Test
    void noOtherWriterOfTheClientWritesUnderTheLeaseEvenWithItsToken() {
        windowA.lock().lock();
        long token = lease().orElseThrow().token();
        CustomerRepository anotherWindowsStore = alice.forNewEditor().customers();

        SaveOutcome underLease = anotherWindowsStore.saveUnderLease(stored.id(), 1,
                stored.data().with(CustomerField.CITY, "Curitiba"), token);
        SaveOutcome optimistic = anotherWindowsStore.save(stored.id(), 1,
                stored.data().with(CustomerField.CITY, "Curitiba"));

        assertThat(underLease).isInstanceOf(SaveOutcome.LeaseLost.class);
        assertThat(optimistic).isInstanceOfSatisfying(SaveOutcome.Locked.class,
                l -> assertThat(l.holder().sessionId()).isEqualTo(windowA.writerId()));
        assertThat(database().find(stored.id()).orElseThrow().version()).isEqualTo(1);
    }

    @Test
    void releaseThereLetsTheOtherWindowGoKeepingItsEditsAndFreesThisOne() {
        windowA.lock().modeProperty().set(ConcurrencyMode.LOCK_FOR_EDITING);
        windowA.buffer().text(CustomerField.CITY).set("Curitiba");
        announce(windowA, "record_lease", lease().orElseThrow().token(), "INSERT");
        assertThat(windowB.lock().stateProperty().get()).isInstanceOf(LockState.HeldInAnotherWindow.class);

        windowB.lock().releaseInAnotherWindow();

        assertThat(lease()).isEmpty();
        assertThat(windowA.lock().stateProperty().get()).isInstanceOf(LockState.Free.class);
        assertThat(windowA.lock().messageProperty().get())
                .isEqualTo("Lock released from another window — your edits are kept. Lock again to continue.");
        assertThat(windowA.buffer().text(CustomerField.CITY).get()).isEqualTo("Curitiba");
        assertThat(windowA.buffer().dirtyProperty().get()).isTrue();
        assertThat(windowB.lock().stateProperty().get()).isInstanceOf(LockState.Free.class);
        assertThat(windowB.status().editableProperty().get()).isTrue();
        assertThat(new JdbiLeaseRepository(db.jdbi(), "Reader", "reader").events(stored.id()).stream()
                .map(LeaseEvent::kind)).containsExactly(LeaseEvent.Kind.ACQUIRED, LeaseEvent.Kind.RELEASED);

        windowB.lock().lock();
        assertThat(lease()).hasValueSatisfying(l -> assertThat(l.sessionId()).isEqualTo(windowB.writerId()));
        assertThat(windowA.saves().save()).as("A's Save goes out, optimistic now").isTrue();
        assertThat(windowA.noticeProperty().get().text())
                .startsWith("You are editing this customer in another window (since ");
        assertThat(database().find(stored.id()).orElseThrow().version()).isEqualTo(1);
    }
}
