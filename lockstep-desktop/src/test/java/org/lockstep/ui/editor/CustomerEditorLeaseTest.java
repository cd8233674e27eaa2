package org.lockstep.ui.editor;

import org.lockstep.editing.LeaseSettings;
import org.lockstep.domain.ConcurrencyMode;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.lockstep.server.Database;
import org.lockstep.domain.AcquireOutcome;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.CustomerRepository;
import org.lockstep.domain.SaveOutcome;
import org.lockstep.store.JdbiCustomerRepository;
import org.lockstep.store.JdbiLeaseRepository;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.FreshDatabase;
import org.lockstep.ui.Sessions;
import org.lockstep.ui.EditorServices;
import org.lockstep.concurrency.TaskExecutor;
import org.lockstep.ui.lock.EditLockViewModel;
import org.lockstep.editing.LockState;

/**
 * The editor's lease paths (issue 4) on the real lease table: database calls on the test's thread, lock timers on
 * the shared scheduler delivering straight to the view model. Alice edits; Carol, another session, holds or takes
 * the lease.
 */
@DatabaseTest
class CustomerEditorLeaseTest {

    static final AtomicInteger REFS = new AtomicInteger();
    @FreshDatabase
    static Database db;

    Customer stored;
    CustomerEditorViewModel editor;
    CarolsSession carol;

    /** Carol's client session: her lease store and her customer repository, one session id. */
    record CarolsSession(JdbiLeaseRepository leases, JdbiCustomerRepository customers) {
        static CarolsSession open() {
            String session = "Carol-" + UUID.randomUUID();
            return new CarolsSession(new JdbiLeaseRepository(db.jdbi(), "Carol", session),
                    new JdbiCustomerRepository(db.jdbi(), "Carol", session));
        }

        long lock(long id) {
            return ((AcquireOutcome.Granted) leases.acquire(id, 60_000)).lease().token();
        }
    }

    @BeforeEach
    void aCustomerExists() {
        stored = Sessions.repository(db, "Setup").create(aCustomer()
                .with(CustomerField.EXTERNAL_REF, "LEASE-" + REFS.incrementAndGet()).build());
        carol = CarolsSession.open();
    }

    @AfterEach
    void closeEditor() {
        if (editor != null) {
            editor.close();
        }
    }

    /** Alice's editor; a 60 s TTL, so that no renewal races the test's own steps, and a fast poll. */
    CustomerEditorViewModel aliceOpens() {
        EditorServices services = Sessions.services(db, "Alice", TaskExecutor.sameThread(), Runnable::run,
                new LeaseSettings(Duration.ofSeconds(60), Duration.ofMinutes(15), Duration.ofMinutes(1),
                        Duration.ofMillis(100)));
        editor = new CustomerEditorViewModel(services);
        editor.load(stored.id());
        return editor;
    }

    CustomerRepository database() {
        return Sessions.repository(db, "Reader");
    }

    @Test
    void lockModeTakesTheLeaseAtTheFirstChangeSavesUnderItAndClosingReleasesIt() {
        aliceOpens().lock().modeProperty().set(ConcurrencyMode.LOCK_FOR_EDITING);
        assertThat(editor.lock().stateProperty().get()).isInstanceOf(LockState.Free.class);

        editor.buffer().text(CustomerField.CITY).set("Curitiba");

        assertThat(editor.lock().stateProperty().get()).isInstanceOf(LockState.Held.class);
        assertThat(editor.lock().savesUnderLease()).isTrue();
        assertThat(carol.leases().holder(stored.id()))
                .hasValueSatisfying(h -> assertThat(h.holder()).isEqualTo("Alice"));
        assertThat(editor.saves().save()).isTrue();
        assertThat(database().find(stored.id()).orElseThrow().data().city()).isEqualTo("Curitiba");
        assertThat(carol.leases().holder(stored.id())).isPresent();

        editor.close();
        editor = null;

        assertThat(carol.leases().holder(stored.id())).isEmpty();
    }

    @Test
    void aSaveRefusedByAnothersLockKeepsTheEditsAndClearsTheSaveInFlight() {
        aliceOpens();
        long token = carol.lock(stored.id());
        editor.buffer().text(CustomerField.CITY).set("Curitiba");

        assertThat(editor.saves().save()).isTrue();

        assertThat(editor.noticeProperty().get().text())
                .matches("Carol is editing this customer \\(since \\d\\d:\\d\\d:\\d\\d\\) — your changes "
                        + "are kept\\.");
        assertThat(editor.lock().stateProperty().get()).isInstanceOf(LockState.HeldByOther.class);
        assertThat(editor.lock().messageProperty().get()).startsWith("Carol is editing this customer (since ");
        assertThat(editor.buffer().text(CustomerField.CITY).get()).isEqualTo("Curitiba");
        assertThat(editor.buffer().dirtyProperty().get()).isTrue();
        assertThat(editor.busyProperty().get()).isFalse();
        assertThat(editor.status().editableProperty().get()).isFalse();
        assertThat(database().find(stored.id()).orElseThrow().version()).isEqualTo(1);

        carol.leases().release(stored.id(), token);

        await().atMost(Duration.ofSeconds(10)).until(() -> editor.status().editableProperty().get());
        assertThat(editor.buffer().text(CustomerField.CITY).get()).isEqualTo("Curitiba");
        assertThat(editor.saves().save()).isTrue();
        Customer read = database().find(stored.id()).orElseThrow();
        assertThat(read.version()).isEqualTo(2);
        assertThat(read.data().city()).isEqualTo("Curitiba");
    }

    /**
     * Issue 27, found by trying it: after a save (or a delete) refused by Carol's lock, the red "Carol is editing this
     * customer — your changes are kept" stood on after Carol's lock had ended and Save was enabled again, contradicting
     * the lock's own state. Every notice naming another's lock goes when that lock ends.
     */
    @Test
    void aNoticeNamingAnothersLockGoesWhenThatLockEnds() {
        aliceOpens();
        long token = carol.lock(stored.id());
        editor.buffer().text(CustomerField.CITY).set("Curitiba");
        assertThat(editor.saves().save()).isTrue();
        assertThat(editor.noticeProperty().get().text()).startsWith("Carol is editing this customer");

        carol.leases().release(stored.id(), token);

        await().atMost(Duration.ofSeconds(10)).until(() -> editor.status().editableProperty().get());
        assertThat(editor.noticeProperty().get()).isNull();

        long again = carol.lock(stored.id()); // this editor has no change feed: it learns of the lock by the delete
        editor.saves().requestDelete();
        assertThat(editor.noticeProperty().get().text()).startsWith("Not deleted: Carol is editing this customer");

        carol.leases().release(stored.id(), again);

        await().atMost(Duration.ofSeconds(10)).until(() -> editor.status().editableProperty().get());
        assertThat(editor.noticeProperty().get()).isNull();
        assertThat(database().find(stored.id())).isPresent();
    }

    @Test
    void aDeleteRefusedByAnothersLockDeletesNothingAndSaysWho() {
        aliceOpens();
        carol.lock(stored.id());

        editor.saves().requestDelete();

        assertThat(editor.noticeProperty().get().text())
                .matches("Not deleted: Carol is editing this customer \\(since \\d\\d:\\d\\d:\\d\\d\\)\\.");
        assertThat(database().find(stored.id())).isPresent();
        assertThat(editor.status().editableProperty().get()).isFalse();
    }

    @Test
    void aLostLeaseTurnsTheEditorReadOnlyKeepingTheEditsAndSaveWithoutLockSavesOptimistically() {
        aliceHoldsTheLeaseWithAnEditAndCarolTakesIt();

        editor.saves().save();

        assertThat(editor.lock().stateProperty().get()).isInstanceOf(LockState.Lost.class);
        assertThat(editor.lock().messageProperty().get())
                .matches("You no longer hold the lock — Carol took it at \\d\\d:\\d\\d:\\d\\d");
        assertThat(editor.status().editableProperty().get()).isFalse();
        assertThat(editor.buffer().text(CustomerField.CITY).get()).isEqualTo("Curitiba");
        assertThat(editor.buffer().dirtyProperty().get()).isTrue();
        assertThat(editor.busyProperty().get()).isFalse();
        assertThat(database().find(stored.id()).orElseThrow().version()).isEqualTo(1);
        carol.leases().release(stored.id(), carol.leases().holder(stored.id()).orElseThrow().token());

        assertThat(editor.saves().saveWithoutLock()).isTrue();

        Customer read = database().find(stored.id()).orElseThrow();
        assertThat(read.version()).isEqualTo(2);
        assertThat(read.data().city()).isEqualTo("Curitiba");
        assertThat(read.updatedBy()).isEqualTo("Alice");
        assertThat(editor.lock().modeProperty().get()).isEqualTo(ConcurrencyMode.OPTIMISTIC);
        assertThat(editor.status().editableProperty().get()).isTrue();
    }

    @Test
    void saveWithoutLockAfterTheNewHolderSavedOpensTheMerge() {
        aliceHoldsTheLeaseWithAnEditAndCarolTakesIt();
        editor.saves().save();
        long token = carol.leases().holder(stored.id()).orElseThrow().token();
        SaveOutcome carols = carol.customers().saveUnderLease(stored.id(), 1,
                stored.data().with(CustomerField.PHONE, "+55 12 3927-0000"), token);
        assertThat(carols).isInstanceOf(SaveOutcome.Saved.class);
        carol.leases().release(stored.id(), token);

        editor.saves().saveWithoutLock();

        assertThat(editor.conflicts().mergeProperty().get()).isNotNull();
        assertThat(editor.conflicts().mergeProperty().get().conflictsProperty().get()).isZero();
        editor.conflicts().mergeProperty().get().saveMerged();
        Customer read = database().find(stored.id()).orElseThrow();
        assertThat(read.version()).isEqualTo(3);
        assertThat(read.data().city()).isEqualTo("Curitiba");
        assertThat(read.data().phone()).isEqualTo("+55 12 3927-0000");
    }

    @Test
    void anEditorOpenedOnALeasedRecordIsReadOnlyAndShowsTheNewestVersionWhenTheLeaseEnds() {
        long token = carol.lock(stored.id());
        aliceOpens();

        assertThat(editor.lock().messageProperty().get()).startsWith("Carol is editing this customer (since ");
        assertThat(editor.status().editableProperty().get()).isFalse();
        assertThat(editor.status().canDeleteProperty().get()).isFalse();
        editor.lock().notifyWhenFreeProperty().set(true);
        carol.customers().saveUnderLease(stored.id(), 1, stored.data().with(CustomerField.CITY, "Santos"), token);
        carol.leases().release(stored.id(), token);

        // The poll delivers on the scheduler's thread here: the reload comes first, then the notification; wait for
        // both, or the test may read the notice in between.
        await().atMost(Duration.ofSeconds(10)).until(() -> editor.status().editableProperty().get()
                && "Santos".equals(editor.buffer().text(CustomerField.CITY).get())
                && editor.noticeProperty().get() != null);
        assertThat(editor.buffer().baseProperty().get().version()).isEqualTo(2);
        assertThat(editor.buffer().dirtyProperty().get()).isFalse();
        assertThat(editor.noticeProperty().get().text())
                .isEqualTo("Carol's lock on this customer ended — it is yours to edit");
    }

    private void aliceHoldsTheLeaseWithAnEditAndCarolTakesIt() {
        aliceOpens().lock().lock();
        editor.buffer().text(CustomerField.CITY).set("Curitiba");
        assertThat(editor.lock().stateProperty().get()).isInstanceOf(LockState.Held.class);
        carol.leases().breakLease(stored.id());
        carol.lock(stored.id());
    }
}
