package org.lockstep.ui.editor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.lockstep.server.Database;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.CustomerRepository;
import org.lockstep.domain.SaveOutcome;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.FreshDatabase;
import org.lockstep.ui.Sessions;
import org.lockstep.ui.EditorServices;
import org.lockstep.concurrency.TaskExecutor;
import org.lockstep.ui.merge.DeleteConflictViewModel;
import org.lockstep.ui.merge.MergeViewModel;

/**
 * The editor's view model on a real database, deterministic: database calls run on the test's thread
 * ({@link TaskExecutor#sameThread()}). Alice edits; Bob saves and deletes beside her through his own session.
 */
@DatabaseTest
class CustomerEditorViewModelTest {

    @FreshDatabase
    static Database db;
    static CustomerRepository alice;
    static CustomerRepository bob;
    static final AtomicInteger REFS = new AtomicInteger();

    Customer stored;
    CustomerEditorViewModel editor;

    @BeforeAll
    static void open() {
        alice = Sessions.repository(db, "Alice");
        bob = Sessions.repository(db, "Bob");
    }

    // JavaFX hands an exception thrown inside a property listener to the thread's handler instead of the caller.
    final List<Throwable> swallowed = new ArrayList<>();
    Thread.UncaughtExceptionHandler previousHandler;

    @BeforeEach
    void catchListenerExceptions() {
        previousHandler = Thread.currentThread().getUncaughtExceptionHandler();
        Thread.currentThread().setUncaughtExceptionHandler((t, e) -> swallowed.add(e));
    }

    @AfterEach
    void noListenerThrew() {
        Thread.currentThread().setUncaughtExceptionHandler(previousHandler);
        assertThat(swallowed).as("exceptions thrown inside listeners").isEmpty();
    }

    @BeforeEach
    void aliceOpensACustomer() {
        stored = bob.create(aCustomer().with(CustomerField.EXTERNAL_REF, "VM-" + REFS.incrementAndGet()).build());
        editor = new CustomerEditorViewModel(aliceServices(TaskExecutor.sameThread()), Clock.system(ZoneOffset.UTC));
        editor.load(stored.id());
    }

    @AfterEach
    void closeEditor() {
        editor.close();
    }

    static EditorServices aliceServices(TaskExecutor executor) {
        return Sessions.services(db, "Alice", executor, Runnable::run, Sessions.quickLocks());
    }

    @Test
    void aLoadedCustomerIsCleanAndSaysWhoSavedWhichVersion() {
        assertThat(editor.stateProperty().get()).isEqualTo(EditorState.EDITING);
        assertThat(editor.buffer().dirtyProperty().get()).isFalse();
        assertThat(editor.buffer().baseProperty().get()).isEqualTo(stored);
        assertThat(editor.buffer().text(CustomerField.CITY).get()).isEqualTo("São José dos Campos");
        assertThat(editor.buffer().text(CustomerField.CREDIT_LIMIT).get()).isEqualTo("1000.00");
        assertThat(editor.status().versionLineProperty().get()).matches("version 1 · saved by Bob at \\d\\d:\\d\\d");
        assertThat(editor.status().titleProperty().get()).isEqualTo(
                "Embraer - Empresa Brasileira de Aeronáutica S.A. — Customer #" + stored.id() + " — Lockstep — Alice");
        assertThat(editor.status().canSaveProperty().get()).isFalse();
    }

    @Test
    void anEditMakesTheEditorDirtyAndTypingTheOriginalBackMakesItCleanAgain() {
        editor.buffer().text(CustomerField.CITY).set("Curitiba");
        assertThat(editor.buffer().dirtyProperty().get()).isTrue();
        assertThat(editor.status().titleProperty().get()).startsWith("• ");
        assertThat(editor.status().canSaveProperty().get()).isTrue();

        editor.buffer().text(CustomerField.CITY).set("São José dos Campos");
        editor.buffer().text(CustomerField.CREDIT_LIMIT).set("1,000");
        assertThat(editor.buffer().dirtyProperty().get()).isFalse();
        assertThat(editor.status().titleProperty().get()).doesNotStartWith("• ");
    }

    @Test
    void revertShowsTheBaseAgain() {
        editor.buffer().text(CustomerField.CITY).set("Curitiba");

        editor.revert();

        assertThat(editor.buffer().text(CustomerField.CITY).get()).isEqualTo("São José dos Campos");
        assertThat(editor.buffer().dirtyProperty().get()).isFalse();
    }

    @Test
    void anInvalidEmailBlocksSaveWithTheReasonAndWritesNothing() {
        editor.buffer().text(CustomerField.EMAIL).set("luis at embraer");

        assertThat(editor.buffer().error(CustomerField.EMAIL).get()).isEqualTo("Email must look like name@example.com");
        assertThat(editor.status().saveBlockedReasonProperty().get())
                .isEqualTo("Can't save: Email must look like name@example.com");
        assertThat(editor.status().canSaveProperty().get()).isFalse();
        assertThat(editor.saves().save()).isFalse();
        assertThat(alice.find(stored.id()).orElseThrow()).isEqualTo(stored);
    }

    @Test
    void theCreditLimitMustBeANonNegativeNumber() {
        editor.buffer().text(CustomerField.CREDIT_LIMIT).set("lots");
        assertThat(editor.buffer().error(CustomerField.CREDIT_LIMIT).get())
                .isEqualTo("Credit limit must be a number like 1,500.50, not \"lots\"");

        editor.buffer().text(CustomerField.CREDIT_LIMIT).set("-5");
        assertThat(editor.buffer().error(CustomerField.CREDIT_LIMIT).get())
                .isEqualTo("Credit limit must not be negative");
        assertThat(editor.saves().save()).isFalse();

        editor.buffer().text(CustomerField.CREDIT_LIMIT).set("2,500.5");
        assertThat(editor.buffer().error(CustomerField.CREDIT_LIMIT).get()).isNull();
        assertThat(editor.saves().save()).isTrue();
        assertThat(alice.find(stored.id()).orElseThrow().data().creditLimit()).isEqualByComparingTo("2500.50");
        assertThat(editor.buffer().text(CustomerField.CREDIT_LIMIT).get()).isEqualTo("2500.50");
    }

    @Test
    void aCompanyOrAContactIsRequiredAndEveryProblemIsCounted() {
        editor.buffer().text(CustomerField.COMPANY).set("");
        editor.buffer().text(CustomerField.CONTACT_NAME).set(" ");
        editor.buffer().text(CustomerField.EMAIL).set("nope");

        assertThat(editor.buffer().error(CustomerField.COMPANY).get()).isEqualTo("Company or contact name is required");
        assertThat(editor.status().saveBlockedReasonProperty().get())
                .isEqualTo("Can't save: Company or contact name is required (and 1 more problem)");
    }

    @Test
    void aSaveWritesTheEditsAndTheStoredRecordBecomesTheNewBase() {
        List<Customer> saved = new ArrayList<>();
        editor.setOnSaved(saved::add);
        editor.buffer().text(CustomerField.CITY).set("  Curitiba ");

        assertThat(editor.saves().save()).isTrue();

        Customer read = alice.find(stored.id()).orElseThrow();
        assertThat(read.version()).isEqualTo(2);
        assertThat(read.data().city()).isEqualTo("Curitiba");
        assertThat(read.updatedBy()).isEqualTo("Alice");
        assertThat(editor.buffer().baseProperty().get()).isEqualTo(read);
        assertThat(saved).containsExactly(read);
        assertThat(editor.buffer().text(CustomerField.CITY).get()).isEqualTo("Curitiba");
        assertThat(editor.buffer().dirtyProperty().get()).isFalse();
        assertThat(editor.status().versionLineProperty().get()).startsWith("version 2 · saved by Alice at ");
    }

    @Test
    void savesFiredBackToBackAreSerializedAndBothSucceed() {
        try (UiThreadExecutor ui = new UiThreadExecutor()) {
            CustomerEditorViewModel async = ui.onUi(() -> new CustomerEditorViewModel(aliceServices(ui)));
            ui.onUi(() -> async.load(stored.id()));
            await().atMost(Duration.ofSeconds(10)).until(() -> ui.onUi(() -> async.stateProperty().get())
                    == EditorState.EDITING);

            // Both requests run in one UI-thread turn, so the first save is certainly still in flight at the second.
            boolean[] submitted = ui.onUi(() -> {
                async.buffer().text(CustomerField.CITY).set("Curitiba");
                boolean first = async.saves().save();
                async.buffer().text(CustomerField.PHONE).set("+55 41 3333-0000");
                boolean second = async.saves().save();
                return new boolean[]{first, second, async.busyProperty().get()};
            });

            assertThat(submitted).containsExactly(true, true, true);
            await().atMost(Duration.ofSeconds(10)).until(() -> ui.onUi(() -> !async.busyProperty().get()));
            Customer read = alice.find(stored.id()).orElseThrow();
            assertThat(read.version()).isEqualTo(3);
            assertThat(read.data().city()).isEqualTo("Curitiba");
            assertThat(read.data().phone()).isEqualTo("+55 41 3333-0000");
            assertThat(ui.onUi(() -> async.conflicts().mergeProperty().get())).isNull();
            assertThat(ui.onUi(() -> async.buffer().baseProperty().get())).isEqualTo(read);
            assertThat(ui.onUi(() -> async.buffer().dirtyProperty().get())).isFalse();
        }
    }

    @Test
    void aQueuedSaveOfValuesAlreadyStoredIsSkipped() {
        try (UiThreadExecutor ui = new UiThreadExecutor()) {
            CustomerEditorViewModel async = ui.onUi(() -> new CustomerEditorViewModel(aliceServices(ui)));
            ui.onUi(() -> async.load(stored.id()));
            await().atMost(Duration.ofSeconds(10)).until(() -> ui.onUi(() -> async.stateProperty().get())
                    == EditorState.EDITING);

            ui.onUi(() -> {
                async.buffer().text(CustomerField.CITY).set("Curitiba");
                async.saves().save();
                async.saves().save();
            });

            await().atMost(Duration.ofSeconds(10)).until(() -> ui.onUi(() -> !async.busyProperty().get()));
            assertThat(alice.find(stored.id()).orElseThrow().version()).isEqualTo(2);
        }
    }

    @Test
    void aSaveOnAStaleVersionOpensAMergeOfBaseMineAndTheirsAndWritesNothing() {
        bob.save(stored.id(), 1, stored.data().with(CustomerField.CITY, "Campinas"));
        editor.buffer().text(CustomerField.CITY).set("Curitiba");

        editor.saves().save();

        MergeViewModel merge = editor.conflicts().mergeProperty().get();
        assertThat(merge).isNotNull();
        assertThat(merge.base()).isEqualTo(stored);
        assertThat(merge.mine().city()).isEqualTo("Curitiba");
        assertThat(merge.theirs().orElseThrow().version()).isEqualTo(2);
        assertThat(merge.theirs().orElseThrow().data().city()).isEqualTo("Campinas");
        assertThat(merge.titleProperty().get())
                .matches("Bob saved version 2 at \\d\\d:\\d\\d while you were editing version 1");
        assertThat(merge.conflictsProperty().get()).isEqualTo(1);
        assertThat(editor.status().editableProperty().get()).isFalse();
        assertThat(editor.status().canSaveProperty().get()).isFalse();
        assertThat(editor.busyProperty().get()).isFalse();
        assertThat(alice.find(stored.id()).orElseThrow().data().city()).isEqualTo("Campinas");
    }

    @Test
    void useMineForAllThenSaveMergedWritesMineOnTheirVersionAsTheNewCleanBase() {
        List<Customer> saved = new ArrayList<>();
        editor.setOnSaved(saved::add);
        bob.save(stored.id(), 1, stored.data().with(CustomerField.CITY, "Campinas").with(CustomerField.PHONE, "+55 1"));
        editor.buffer().text(CustomerField.CITY).set("Curitiba");
        editor.saves().save();
        MergeViewModel merge = editor.conflicts().mergeProperty().get();

        merge.useMineForAll();
        merge.saveMerged();

        Customer read = alice.find(stored.id()).orElseThrow();
        assertThat(read.version()).isEqualTo(3);
        assertThat(read.data().city()).isEqualTo("Curitiba");
        assertThat(read.data().phone()).isEqualTo("+55 1");
        assertThat(read.updatedBy()).isEqualTo("Alice");
        assertThat(editor.conflicts().mergeProperty().get()).isNull();
        assertThat(editor.buffer().baseProperty().get()).isEqualTo(read);
        assertThat(editor.buffer().text(CustomerField.PHONE).get()).isEqualTo("+55 1");
        assertThat(editor.buffer().dirtyProperty().get()).isFalse();
        assertThat(editor.status().editableProperty().get()).isTrue();
        assertThat(saved).containsExactly(read);
    }

    @Test
    void aThirdSaveBeforeSaveMergedRefreshesTheMergeAndTheNextSaveMergedSucceeds() {
        Customer theirs = ((SaveOutcome.Saved) bob.save(stored.id(), 1,
                stored.data().with(CustomerField.CITY, "Campinas"))).saved();
        editor.buffer().text(CustomerField.CITY).set("Curitiba");
        editor.saves().save();
        MergeViewModel merge = editor.conflicts().mergeProperty().get();
        merge.useMineForAll();
        bob.save(stored.id(), theirs.version(), theirs.data().with(CustomerField.CITY, "Santos"));

        merge.saveMerged();

        assertThat(editor.conflicts().mergeProperty().get()).isSameAs(merge);
        assertThat(merge.theirs().orElseThrow().data().city()).isEqualTo("Santos");
        assertThat(merge.noticeProperty().get()).startsWith("Bob saved version 3");
        assertThat(alice.find(stored.id()).orElseThrow().data().city()).isEqualTo("Santos");

        merge.useMineForAll();
        merge.saveMerged();

        Customer read = alice.find(stored.id()).orElseThrow();
        assertThat(read.version()).isEqualTo(4);
        assertThat(read.data().city()).isEqualTo("Curitiba");
        assertThat(editor.buffer().baseProperty().get()).isEqualTo(read);
    }

    @Test
    void discardMyChangesShowsTheirsClean() {
        bob.save(stored.id(), 1, stored.data().with(CustomerField.CITY, "Campinas"));
        editor.buffer().text(CustomerField.CITY).set("Curitiba");
        editor.saves().save();

        editor.conflicts().mergeProperty().get().discardMyChanges();

        assertThat(editor.conflicts().mergeProperty().get()).isNull();
        assertThat(editor.buffer().text(CustomerField.CITY).get()).isEqualTo("Campinas");
        assertThat(editor.buffer().baseProperty().get()).isEqualTo(alice.find(stored.id()).orElseThrow());
        assertThat(editor.buffer().dirtyProperty().get()).isFalse();
        assertThat(editor.status().editableProperty().get()).isTrue();
        assertThat(editor.status().versionLineProperty().get()).startsWith("version 2 · saved by Bob");
    }

    @Test
    void backToTheEditorLosesNothingAndTheNextSaveOpensTheMergeAgain() {
        bob.save(stored.id(), 1, stored.data().with(CustomerField.CITY, "Campinas"));
        editor.buffer().text(CustomerField.CITY).set("Curitiba");
        editor.saves().save();

        editor.conflicts().mergeProperty().get().cancel();

        assertThat(editor.conflicts().mergeProperty().get()).isNull();
        assertThat(editor.buffer().text(CustomerField.CITY).get()).isEqualTo("Curitiba");
        assertThat(editor.buffer().dirtyProperty().get()).isTrue();
        assertThat(editor.buffer().baseProperty().get().version()).isEqualTo(1);
        assertThat(editor.status().editableProperty().get()).isTrue();
        assertThat(editor.noticeProperty().get().text()).contains("Save opens the merge again");
        editor.saves().save();
        assertThat(editor.conflicts().mergeProperty().get()).isNotNull();
        assertThat(editor.conflicts().mergeProperty().get().mine().city()).isEqualTo("Curitiba");
    }

    @Test
    void aConflictWithTheSameValuesIsNoConflict() {
        bob.save(stored.id(), 1, stored.data().with(CustomerField.CITY, "Curitiba"));
        editor.buffer().text(CustomerField.CITY).set("Curitiba");

        editor.saves().save();

        assertThat(editor.conflicts().mergeProperty().get()).isNull();
        assertThat(editor.buffer().baseProperty().get().version()).isEqualTo(2);
        assertThat(editor.buffer().dirtyProperty().get()).isFalse();
    }

    @Test
    void whenTheyDeletedItMineCanBeRecreatedAsANewCustomer() {
        bob.delete(stored.id(), 1);
        editor.buffer().text(CustomerField.CITY).set("Curitiba");
        editor.saves().save();
        MergeViewModel merge = editor.conflicts().mergeProperty().get();
        assertThat(merge.deletedProperty().get()).isTrue();
        assertThat(merge.titleProperty().get()).startsWith("This customer was deleted by Bob at ");

        merge.recreate();

        Customer created = editor.buffer().baseProperty().get();
        assertThat(created.id()).isNotEqualTo(stored.id());
        Customer read = alice.find(created.id()).orElseThrow();
        assertThat(read.version()).isEqualTo(1);
        assertThat(read.data().city()).isEqualTo("Curitiba");
        assertThat(read.data().externalRef()).isEqualTo(stored.data().externalRef());
        assertThat(editor.stateProperty().get()).isEqualTo(EditorState.EDITING);
        assertThat(editor.customerId()).hasValue(created.id());
        assertThat(editor.buffer().dirtyProperty().get()).isFalse();
    }

    @Test
    void whenTheyDeletedItDiscardClosesTheCase() {
        List<Long> deleted = new ArrayList<>();
        editor.setOnDeleted(deleted::add);
        bob.delete(stored.id(), 1);
        editor.buffer().text(CustomerField.CITY).set("Curitiba");
        editor.saves().save();

        editor.conflicts().mergeProperty().get().discardMyChanges();

        assertThat(deleted).containsExactly(stored.id());
        assertThat(editor.stateProperty().get()).isEqualTo(EditorState.DELETED);
        assertThat(editor.status().editableProperty().get()).isFalse();
        assertThat(alice.find(stored.id())).isEmpty();
    }

    @Test
    void whileTheDatabaseIsDownEditsAreKeptAndTheSameSaveSucceedsOnceItIsBack() {
        org.lockstep.testing.db.DatabaseOutage outage = org.lockstep.testing.db.DatabaseOutage.of(db);
        editor.buffer().text(CustomerField.CITY).set("Curitiba");
        outage.cut();
        try {
            editor.saves().save();

            // Either the pool found its connection dead before sending the save (nothing was written), or the
            // connection died under it and the retry could not connect (whether it arrived cannot be told, and the
            // next Save is the same request). Both keep the edits; neither claims a result it cannot know.
            assertThat(editor.noticeProperty().get().text()).isIn(EditorSaves.SAVE_FAILED,
                    EditorSaves.SAVE_OUTCOME_UNKNOWN);
            assertThat(editor.buffer().text(CustomerField.CITY).get()).isEqualTo("Curitiba");
            assertThat(editor.buffer().dirtyProperty().get()).isTrue();
            assertThat(editor.status().canSaveProperty().get()).isTrue();
        } finally {
            outage.restore();
        }

        editor.saves().save();

        assertThat(editor.noticeProperty().get().text()).isEqualTo("Saved version 2");
        Customer read = alice.find(stored.id()).orElseThrow();
        assertThat(read.version()).isEqualTo(2);
        assertThat(read.data().city()).isEqualTo("Curitiba");
    }

    @Test
    void aValueTheDatabaseRejectsMarksItsFieldUntilItIsEdited() {
        Customer other = bob.create(aCustomer().with(CustomerField.EXTERNAL_REF, "TAKEN-" + REFS.incrementAndGet())
                .build());
        editor.buffer().text(CustomerField.EXTERNAL_REF).set(other.data().externalRef());

        editor.saves().save();

        assertThat(editor.buffer().error(CustomerField.EXTERNAL_REF).get())
                .isEqualTo("External ref is already used by another customer");
        assertThat(editor.status().saveBlockedReasonProperty().get())
                .isEqualTo("Can't save: External ref is already used by another customer");
        assertThat(editor.status().canSaveProperty().get()).isFalse();
        editor.buffer().text(CustomerField.EXTERNAL_REF).set("FREE-" + REFS.incrementAndGet());
        assertThat(editor.buffer().error(CustomerField.EXTERNAL_REF).get()).isNull();
        assertThat(editor.saves().save()).isTrue();
        assertThat(alice.find(stored.id()).orElseThrow().version()).isEqualTo(2);
    }

    @Test
    void aNewCustomerIsCreatedBySaveAndThenEditedLikeAnyOther() {
        List<Customer> saved = new ArrayList<>();
        editor.setOnSaved(saved::add);
        editor.startNew();
        assertThat(editor.status().titleProperty().get()).isEqualTo("New customer — Lockstep — Alice");
        assertThat(editor.status().saveBlockedReasonProperty().get())
                .isEqualTo("Can't save: Company or contact name is required");

        editor.buffer().text(CustomerField.COMPANY).set("Lockstep Test GmbH");
        editor.saves().save();

        Customer created = editor.buffer().baseProperty().get();
        assertThat(alice.find(created.id()).orElseThrow().data().company()).isEqualTo("Lockstep Test GmbH");
        assertThat(saved).containsExactly(created);
        assertThat(editor.status().titleProperty().get())
                .isEqualTo("Lockstep Test GmbH — Customer #" + created.id() + " — Lockstep — Alice");

        editor.buffer().text(CustomerField.CITY).set("Berlin");
        editor.saves().save();
        assertThat(alice.find(created.id()).orElseThrow().version()).isEqualTo(2);
    }

    @Test
    void deleteIsVersioned() {
        List<Long> deleted = new ArrayList<>();
        editor.setOnDeleted(deleted::add);
        assertThat(editor.saves().deleteQuestion()).isEqualTo("Delete Embraer - Empresa Brasileira de Aeronáutica S.A. "
                + "(Customer #" + stored.id() + ")? This cannot be undone.");

        editor.saves().requestDelete();

        assertThat(deleted).containsExactly(stored.id());
        assertThat(alice.find(stored.id())).isEmpty();
        assertThat(editor.stateProperty().get()).isEqualTo(EditorState.DELETED);
    }

    @Test
    void deletingARecordChangedSinceItWasLoadedDeletesNothingAndAsksDeleteAnywayOrKeep() {
        bob.save(stored.id(), 1, stored.data().with(CustomerField.CITY, "Campinas"));

        editor.saves().requestDelete();

        assertThat(alice.find(stored.id())).isPresent();
        DeleteConflictViewModel conflict = editor.conflicts().deleteConflictProperty().get();
        assertThat(conflict).isNotNull();
        assertThat(conflict.titleProperty().get()).startsWith("Changed since you loaded it: Bob saved version 2 at ");
        assertThat(conflict.changes()).extracting(c -> c.field()).containsExactly(CustomerField.CITY);
        assertThat(editor.status().editableProperty().get()).isFalse();

        conflict.keep();

        assertThat(editor.conflicts().deleteConflictProperty().get()).isNull();
        assertThat(editor.buffer().text(CustomerField.CITY).get()).isEqualTo("Campinas");
        assertThat(editor.buffer().baseProperty().get().version()).isEqualTo(2);
        assertThat(editor.status().editableProperty().get()).isTrue();
        assertThat(alice.find(stored.id())).isPresent();
    }

    @Test
    void deleteAnywayDeletesTheirVersion() {
        List<Long> deleted = new ArrayList<>();
        editor.setOnDeleted(deleted::add);
        bob.save(stored.id(), 1, stored.data().with(CustomerField.CITY, "Campinas"));
        editor.saves().requestDelete();

        editor.conflicts().deleteConflictProperty().get().deleteAnyway();

        assertThat(alice.find(stored.id())).isEmpty();
        assertThat(deleted).containsExactly(stored.id());
        assertThat(editor.stateProperty().get()).isEqualTo(EditorState.DELETED);
        assertThat(editor.conflicts().deleteConflictProperty().get()).isNull();
    }

    @Test
    void loadingACustomerThatNoLongerExistsSaysSo() {
        bob.delete(stored.id(), 1);

        editor.load(stored.id());

        assertThat(editor.stateProperty().get()).isEqualTo(EditorState.DELETED);
        assertThat(editor.noticeProperty().get().text()).isEqualTo("Customer #" + stored.id()
                + " no longer exists; someone deleted it.");
    }
}
