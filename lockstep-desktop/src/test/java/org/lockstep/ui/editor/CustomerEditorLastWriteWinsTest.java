package org.lockstep.ui.editor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import javafx.beans.property.SimpleObjectProperty;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.lockstep.server.Database;
import org.lockstep.domain.AcquireOutcome;
import org.lockstep.domain.ChangeEvent;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.CustomerRepository;
import org.lockstep.domain.HistoryEntry;
import org.lockstep.domain.SaveOutcome;
import org.lockstep.store.JdbiHistoryRepository;
import org.lockstep.store.JdbiLeaseRepository;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.FreshDatabase;
import org.lockstep.ui.Sessions;
import org.lockstep.ui.EditorServices;
import org.lockstep.concurrency.TaskExecutor;
import org.lockstep.ui.live.LiveUpdates;
import org.lockstep.domain.ConcurrencyMode;
import org.lockstep.editing.LockState;

/**
 * "Last write wins (unsafe)" in the editor (issue 6): the lost-update bug, reproduced on purpose for the trainer, on a
 * real database with database calls on the test's thread. Alice edits in the unsafe mode; Bob saves beside her.
 */
@DatabaseTest
class CustomerEditorLastWriteWinsTest {

    static final AtomicInteger REFS = new AtomicInteger();
    @FreshDatabase
    static Database db;
    static CustomerRepository bob;

    LiveUpdates live;
    EditorServices aliceServices;
    Customer stored;
    CustomerEditorViewModel editor;

    @BeforeAll
    static void open() {
        bob = Sessions.repository(db, "Bob");
    }

    @BeforeEach
    void aCustomerExists() {
        stored = bob.create(aCustomer().with(CustomerField.EXTERNAL_REF, "LWW-VM-" + REFS.incrementAndGet()).build());
        EditorServices plain = Sessions.services(db, "Alice", TaskExecutor.sameThread(), Runnable::run,
                Sessions.quickLocks());
        live = new LiveUpdates(Runnable::run, plain.customers().sessionId());
        aliceServices = plain.toBuilder().live(live).lastWriteWinsAllowed().build();
    }

    @AfterEach
    void closeEditor() {
        if (editor != null) {
            editor.close();
        }
    }

    CustomerEditorViewModel aliceOpens(EditorServices services) {
        editor = new CustomerEditorViewModel(services);
        editor.load(stored.id());
        return editor;
    }

    Customer inDatabase() {
        return Sessions.repository(db, "Reader").find(stored.id()).orElseThrow();
    }

    @Test
    void aSaveOverANewerVersionSilentlyOverwritesItAndNoMergeOpens() {
        aliceOpens(aliceServices).lock().modeProperty().set(ConcurrencyMode.LAST_WRITE_WINS);
        editor.buffer().text(CustomerField.CREDIT_LIMIT).set("1100"); // Alice: +100 on the 1000 she read
        Customer bobs = ((SaveOutcome.Saved) bob.save(stored.id(), 1, stored.data()
                .with(CustomerField.CREDIT_LIMIT, new BigDecimal("1050"))
                .with(CustomerField.PHONE, "+55 11 5555-0000"))).saved();
        live.changes(List.of(new ChangeEvent("customer", bobs.id(), bobs.version(), "UPDATE",
                Optional.of(bob.sessionId()))));
        assertThat(editor.live().bannerProperty().get()).startsWith("Bob saved version 2");

        assertThat(editor.saves().save()).isTrue();

        Customer now = inDatabase();
        assertThat(now.version()).isEqualTo(3);
        assertThat(now.updatedBy()).isEqualTo("Alice");
        assertThat(now.data().creditLimit()).isEqualByComparingTo("1100"); // mine
        assertThat(now.data().phone()).as("Bob's other field is lost too").isEqualTo(stored.data().phone());
        assertThat(editor.conflicts().mergeProperty().get()).as("no merge").isNull();
        assertThat(editor.noticeProperty().get().text()).as("no error, the save told").isEqualTo("Saved version 3");
        assertThat(editor.live().bannerProperty().get()).as("nothing left to review").isNull();
        assertThat(editor.buffer().baseProperty().get()).isEqualTo(now);
        assertThat(editor.buffer().dirtyProperty().get()).isFalse();
        assertThat(new JdbiHistoryRepository(db.jdbi()).history(stored.id()))
                .extracting(HistoryEntry::version, HistoryEntry::changedBy)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(1L, "Bob"),
                        org.assertj.core.groups.Tuple.tuple(2L, "Bob"),
                        org.assertj.core.groups.Tuple.tuple(3L, "Alice"));
    }

    @Test
    void theSameSaveInOptimisticModeOpensTheMergeInstead() {
        aliceOpens(aliceServices);
        editor.buffer().text(CustomerField.CREDIT_LIMIT).set("1100");
        bob.save(stored.id(), 1, stored.data().with(CustomerField.CREDIT_LIMIT, new BigDecimal("1050")));

        editor.saves().save();

        assertThat(editor.conflicts().mergeProperty().get()).isNotNull();
        assertThat(inDatabase().data().creditLimit()).isEqualByComparingTo("1050");
    }

    @Test
    void anotherSessionsLeaseRefusesTheUnsafeSaveAndKeepsTheEdits() {
        aliceOpens(aliceServices).lock().modeProperty().set(ConcurrencyMode.LAST_WRITE_WINS);
        String carolsSession = "Carol-" + UUID.randomUUID();
        assertThat(new JdbiLeaseRepository(db.jdbi(), "Carol", carolsSession).acquire(stored.id(), 60_000))
                .isInstanceOf(AcquireOutcome.Granted.class);
        editor.buffer().text(CustomerField.CREDIT_LIMIT).set("1100");

        assertThat(editor.saves().save()).isTrue();

        assertThat(inDatabase().version()).isEqualTo(1);
        assertThat(editor.noticeProperty().get().text()).startsWith("Carol is editing this customer (since ");
        assertThat(editor.lock().stateProperty().get()).isInstanceOf(LockState.HeldByOther.class);
        assertThat(editor.buffer().text(CustomerField.CREDIT_LIMIT).get()).isEqualTo("1100");
        assertThat(editor.buffer().dirtyProperty().get()).isTrue();
        assertThat(editor.busyProperty().get()).isFalse();
    }

    @Test
    void switchingToLastWriteWinsReleasesAHeldLeaseAndEditingTakesNoneAfterwards() {
        aliceOpens(aliceServices).lock().modeProperty().set(ConcurrencyMode.LOCK_FOR_EDITING);
        editor.buffer().text(CustomerField.CITY).set("Curitiba");
        assertThat(editor.lock().stateProperty().get()).isInstanceOf(LockState.Held.class);
        JdbiLeaseRepository reader = new JdbiLeaseRepository(db.jdbi(), "Reader", "reader");

        editor.lock().modeProperty().set(ConcurrencyMode.LAST_WRITE_WINS);

        await().atMost(Duration.ofSeconds(10)).until(() -> reader.holder(stored.id()).isEmpty());
        assertThat(editor.lock().token()).isEmpty();
        editor.buffer().text(CustomerField.PHONE).set("+55 41 3333-0000");
        assertThat(editor.saves().save()).isTrue();
        assertThat(editor.lock().stateProperty().get()).isInstanceOf(LockState.Free.class);
        assertThat(reader.holder(stored.id())).isEmpty();
        assertThat(inDatabase().data().city()).isEqualTo("Curitiba");
    }

    @Test
    void withoutTheAllowanceTheUnsafeModeCannotBeChosen() {
        EditorServices plain = Sessions.services(db, "Alice", TaskExecutor.sameThread(), Runnable::run,
                Sessions.quickLocks());
        aliceOpens(plain);

        assertThat(editor.lock().lastWriteWinsAllowed()).isFalse();
        assertThatThrownBy(() -> editor.lock().modeProperty().set(ConcurrencyMode.LAST_WRITE_WINS))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("--allow-unsafe");
        assertThat(editor.lock().modeProperty().get()).isEqualTo(ConcurrencyMode.OPTIMISTIC);
    }

    @Test
    void aNewEditorNeverStartsUnsafeEvenWhenTheDefaultSaysSo() {
        EditorServices s = aliceServices;
        EditorServices.Builder b = EditorServices.builder(s.customers(), s.history(), s.leases(), s.executor(),
                s.fxThread(), s.scheduler(), s.user(), s.lockSettings(),
                new SimpleObjectProperty<>(ConcurrencyMode.LAST_WRITE_WINS), s.openLocks()).lastWriteWinsAllowed();
        b.live(s.live());
        EditorServices unsafeDefault = b.build();

        aliceOpens(unsafeDefault);

        assertThat(editor.lock().lastWriteWinsAllowed()).isTrue();
        assertThat(editor.lock().modeProperty().get()).isEqualTo(ConcurrencyMode.OPTIMISTIC);
    }
}
