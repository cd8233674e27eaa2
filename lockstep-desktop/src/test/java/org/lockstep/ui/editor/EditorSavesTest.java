package org.lockstep.ui.editor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.time.Duration;
import java.time.ZoneOffset;
import java.util.OptionalLong;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import javafx.beans.Observable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.lockstep.ui.merge.Merges;
import org.lockstep.concurrency.TaskExecutor;
import org.lockstep.concurrency.TaskScope;
import org.lockstep.domain.ConcurrencyMode;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.CustomerRepository;
import org.lockstep.domain.FieldError;
import org.lockstep.domain.HistoryEntry;
import org.lockstep.domain.InvalidCustomerException;
import org.lockstep.domain.OutcomeUnknownException;
import org.lockstep.domain.SaveOutcome;
import org.lockstep.domain.StoreUnavailableException;
import org.lockstep.editing.CustomerEditing;
import org.lockstep.editing.LeaseSettings;
import org.lockstep.editing.LockState;
import org.lockstep.testing.InMemoryCustomerRepository;
import org.lockstep.testing.InMemoryLeaseRepository;
import org.lockstep.testing.ManualClock;
import org.lockstep.text.Texts;
import org.lockstep.ui.lock.EditLockViewModel;
import org.lockstep.ui.merge.DeleteConflictViewModel;
import org.lockstep.ui.merge.MergeViewModel;

/**
 * An editor's saves and deletes, alone: {@link EditorSaves} takes the session, the {@link EditorStatus} that says
 * whether Save and Delete are possible, the {@link CustomerEditing} it writes through, the lock, the scope of its
 * calls and the {@link ConflictFlow} a zero-row save or delete opens — and those only are made here, on the in-memory
 * store, its history and leases. The status follows the session's inputs, as the editor's view model has it follow
 * them; the editor's calls run on the test's thread unless the test {@linkplain HeldCalls holds} them.
 */
class EditorSavesTest {

    static final LeaseSettings SETTINGS = new LeaseSettings(Duration.ofHours(1), Duration.ofHours(2),
            Duration.ofMinutes(1), Duration.ofHours(1));
    static final String COMPANY = aCustomer().build().company();

    @RegisterExtension
    final ListenerExceptions listenerExceptions = new ListenerExceptions();

    final ManualClock clock = new ManualClock();
    final InMemoryCustomerRepository bob = InMemoryCustomerRepository.empty("Bob", clock);
    final InMemoryCustomerRepository alice = bob.as("Alice").asWriter("alice-client/editor-1");
    final InMemoryLeaseRepository leases = InMemoryLeaseRepository.over(alice, clock, "Alice");
    final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();

    final EditorSession session = new EditorSession(alice.sessionId(), ZoneOffset.UTC);
    final EditorStatus status = new EditorStatus();
    final EditLockViewModel lock = new EditLockViewModel(leases, TaskExecutor.sameThread(), Runnable::run, scheduler,
            clock, SETTINGS);
    final HeldCalls calls = new HeldCalls();
    final TaskScope scope = new TaskScope(calls);
    final ConflictFlow conflicts = new ConflictFlow(session,
            new Merges(alice, alice.history(), TaskExecutor.sameThread()));
    final SessionEvents events = SessionEvents.of(session);
    EditorSaves saves = writingThrough(alice);

    Customer v1;

    /** Saves of this editor through {@code customers}: the store, or one that fails. */
    EditorSaves writingThrough(CustomerRepository customers) {
        return new EditorSaves(session, status, new CustomerEditing(customers), lock, scope, conflicts);
    }

    @BeforeEach
    void aliceShowsACustomerBobCreated() {
        EditBuffer buffer = session.buffer();
        Observable[] inputs = {session.stateProperty(), conflicts.mergeProperty(), conflicts.deleteConflictProperty(),
                buffer.dirtyProperty(), buffer.problemsProperty(), buffer.currentProperty(), buffer.baseProperty(),
                lock.readOnlyProperty()};
        for (Observable input : inputs) {
            input.addListener(o -> refresh());
        }
        scope.onBusyChanged(busy -> refresh());
        v1 = bob.create(aCustomer().build());
        session.customerId(v1.id());
        session.resetTo(v1, null);
        events.forget();
    }

    @AfterEach
    void closeTheLock() {
        lock.close();
        scheduler.shutdownNow();
    }

    void refresh() {
        EditBuffer buffer = session.buffer();
        status.refresh(new EditorStatus.Inputs(session.state(), conflicts.open(), lock.readOnlyProperty().get(),
                buffer.problemsProperty().get(), buffer.dirtyProperty().get(), scope.busy(), saves.inFlight(),
                buffer.currentProperty().get(), buffer.base(), session.customerId().orElse(-1), "Alice", clock));
    }

    void type(CustomerField field, String text) {
        session.buffer().text(field).set(text);
    }

    String text(CustomerField field) {
        return session.buffer().text(field).get();
    }

    Customer stored() {
        return bob.find(v1.id()).orElseThrow();
    }

    /** Bob saves another city over version 1, beside Alice's editor. */
    Customer bobSavesCity(String city) {
        return ((SaveOutcome.Saved) bob.save(v1.id(), 1, v1.data().with(CustomerField.CITY, city))).saved();
    }

    @Test
    void aSaveCommitsAndTheStoredVersionBecomesTheBase() {
        type(CustomerField.CITY, "Curitiba");

        assertThat(saves.save()).isTrue();

        Customer stored = stored();
        assertThat(stored.version()).isEqualTo(2);
        assertThat(stored.data().city()).isEqualTo("Curitiba");
        assertThat(stored.updatedBy()).isEqualTo("Alice");
        assertThat(session.buffer().base()).isEqualTo(stored);
        assertThat(session.buffer().dirtyProperty().get()).isFalse();
        assertThat(session.state()).isEqualTo(EditorState.EDITING);
        assertThat(saves.inFlight()).isFalse();
        assertThat(events.heard()).containsExactly("saved " + v1.id() + " v2");
        assertThat(alice.history().history(v1.id())).extracting(HistoryEntry::op, HistoryEntry::changedBy)
                .last().isEqualTo(tuple(HistoryEntry.Op.UPDATE, "Alice"));
    }

    @Test
    void aCreateGivesTheSessionTheNewCustomersId() {
        session.customerId(-1);
        session.buffer().reset(null);
        session.state(EditorState.NEW);
        CustomerData values = aCustomer().with(CustomerField.EXTERNAL_REF, "NEW-1").build();
        for (CustomerField f : CustomerField.values()) {
            type(f, session.buffer().parser().format(values.get(f)));
        }
        events.forget();

        assertThat(saves.save()).isTrue();

        long id = session.customerId().orElseThrow();
        Customer created = bob.find(id).orElseThrow();
        assertThat(id).isNotEqualTo(v1.id());
        assertThat(created.version()).isEqualTo(1);
        assertThat(created.data().sameValues(values.normalized())).isTrue();
        assertThat(session.buffer().base()).isEqualTo(created);
        assertThat(session.state()).isEqualTo(EditorState.EDITING);
        assertThat(events.heard()).containsExactly("saved " + id + " v1");
    }

    @Test
    void aSaveOnAStaleVersionOpensTheMergeCountsTheConflictAndKeepsTheEdits() {
        Customer bobs = bobSavesCity("Curitiba");
        type(CustomerField.PHONE, "+55 41 3333-0000");

        assertThat(saves.save()).isTrue();

        MergeViewModel merge = conflicts.mergeProperty().get();
        assertThat(merge).isNotNull();
        assertThat(merge.base()).isEqualTo(v1);
        assertThat(merge.theirs()).contains(bobs);
        assertThat(merge.mine().phone()).isEqualTo("+55 41 3333-0000");
        assertThat(stored()).isEqualTo(bobs);
        assertThat(bob.recentConflicts(v1.id(), Duration.ofHours(1))).isEqualTo(1);
        assertThat(events.heard()).containsExactly("conflict " + v1.id());
        assertThat(session.buffer().base()).isEqualTo(v1);
        assertThat(text(CustomerField.PHONE)).isEqualTo("+55 41 3333-0000");
        assertThat(session.buffer().dirtyProperty().get()).isTrue();
        assertThat(status.editableProperty().get()).isFalse(); // no edits while the merge is open
        assertThat(saves.inFlight()).isFalse();
    }

    @Test
    void aSaveOfTheValuesSomeoneElseSavedFirstWritesNothingAndSaysSo() {
        Customer bobs = bobSavesCity("Curitiba");
        type(CustomerField.CITY, "Curitiba");

        assertThat(saves.save()).isTrue();

        assertThat(conflicts.mergeProperty().get()).isNull();
        assertThat(stored()).isEqualTo(bobs);
        assertThat(session.buffer().base()).isEqualTo(bobs);
        assertThat(session.buffer().dirtyProperty().get()).isFalse();
        assertThat(session.state()).isEqualTo(EditorState.EDITING);
        assertThat(session.noticeProperty().get().text()).isEqualTo("Bob saved these same values first (version 2), "
                + "so your save wrote nothing. If your change was meant to add to theirs (an amount, a count), make "
                + "it again.");
        assertThat(events.heard()).containsExactly("conflict " + v1.id());
        assertThat(alice.history().history(v1.id())).hasSize(2);
    }

    @Test
    void valuesTheStoreRefusesMarkTheirFieldAndKeepTheEdits() {
        saves = writingThrough(new FailingWrites(alice,
                new InvalidCustomerException(List.of(new FieldError(CustomerField.EMAIL, "Email is taken")))));
        type(CustomerField.EMAIL, "taken@example.com");

        assertThat(saves.save()).isTrue();

        assertThat(session.buffer().error(CustomerField.EMAIL).get()).isEqualTo("Email is taken");
        assertThat(session.buffer().problemsProperty().get())
                .containsExactly(new FieldError(CustomerField.EMAIL, "Email is taken"));
        assertThat(status.canSaveProperty().get()).isFalse();
        assertThat(status.saveBlockedReasonProperty().get()).isEqualTo("Can't save: Email is taken");
        assertThat(text(CustomerField.EMAIL)).isEqualTo("taken@example.com");
        assertThat(session.buffer().base()).isEqualTo(v1);
        assertThat(session.noticeProperty().get()).isNull();
        assertThat(events.heard()).isEmpty();

        type(CustomerField.EMAIL, "other@example.com"); // editing the field clears the store's word on it
        assertThat(session.buffer().error(CustomerField.EMAIL).get()).isNull();
        assertThat(status.canSaveProperty().get()).isTrue();
    }

    @Test
    void aStoreFailureKeepsTheEditsAndSaysTrySaveAgainWhichThenSaves() {
        saves = writingThrough(new FailingWrites(alice, new StoreUnavailableException("Connection refused", null)));
        type(CustomerField.CITY, "Curitiba");

        assertThat(saves.save()).isTrue();

        EditorNotice notice = session.noticeProperty().get();
        assertThat(notice.kind()).isEqualTo(EditorNotice.Kind.ERROR);
        assertThat(notice.text()).isEqualTo(Texts.tr(EditorSaves.SAVE_FAILED))
                .isEqualTo("Can't reach the database — your changes are kept. Try Save again.");
        assertThat(notice.detail()).isEqualTo("Connection refused");
        assertThat(text(CustomerField.CITY)).isEqualTo("Curitiba");
        assertThat(session.buffer().dirtyProperty().get()).isTrue();
        assertThat(session.buffer().base()).isEqualTo(v1);
        assertThat(stored()).isEqualTo(v1);
        assertThat(saves.inFlight()).isFalse();
        assertThat(status.canSaveProperty().get()).isTrue();
        assertThat(events.heard()).isEmpty();

        saves = writingThrough(alice); // the database is back
        assertThat(saves.save()).isTrue();
        assertThat(stored().data().city()).isEqualTo("Curitiba");
        assertThat(session.noticeProperty().get().text()).as("the error gone, the save told").isEqualTo(
                "Saved version " + stored().version());
    }

    @Test
    void aLostReplySaysItCannotTellWhetherItWasSavedAndKeepsTheEdits() {
        saves = writingThrough(new FailingWrites(alice, new OutcomeUnknownException("I/O error: reply lost", null)));
        type(CustomerField.CITY, "Curitiba");

        assertThat(saves.save()).isTrue();

        EditorNotice notice = session.noticeProperty().get();
        assertThat(notice.kind()).isEqualTo(EditorNotice.Kind.ERROR);
        assertThat(notice.text()).isEqualTo(Texts.tr(EditorSaves.SAVE_OUTCOME_UNKNOWN)).startsWith(
                "The connection was lost while saving: Lockstep can't tell whether it was saved.");
        assertThat(notice.detail()).isEqualTo("I/O error: reply lost");
        assertThat(text(CustomerField.CITY)).isEqualTo("Curitiba");
        assertThat(session.buffer().base()).isEqualTo(v1);
        assertThat(events.heard()).isEmpty();
    }

    @Test
    void saveDoesNothingWhileTheStatusSaysItCannot() {
        assertThat(status.canSaveProperty().get()).isFalse(); // nothing edited
        assertThat(saves.save()).isFalse();

        type(CustomerField.CREDIT_LIMIT, "a lot");
        assertThat(status.canSaveProperty().get()).isFalse(); // a value that does not parse
        assertThat(saves.save()).isFalse();

        type(CustomerField.CREDIT_LIMIT, "2000");
        session.state(EditorState.DELETED);
        assertThat(status.canSaveProperty().get()).isFalse();
        assertThat(saves.save()).isFalse();

        assertThat(stored()).isEqualTo(v1);
        assertThat(events.heard()).isEmpty();
    }

    @Test
    void aSaveRequestedWhileAnotherIsInFlightWaitsAndGoesOnTheVersionThatOneReturned() {
        calls.hold();
        type(CustomerField.CITY, "Curitiba");
        assertThat(saves.save()).isTrue();
        type(CustomerField.PHONE, "+55 41 3333-0000");
        assertThat(status.canSaveProperty().get()).isTrue(); // a save may queue behind the one in flight
        assertThat(saves.save()).isTrue();
        assertThat(calls.waiting()).isEqualTo(1);

        calls.release();

        Customer stored = stored();
        assertThat(stored.version()).isEqualTo(3);
        assertThat(stored.data().city()).isEqualTo("Curitiba");
        assertThat(stored.data().phone()).isEqualTo("+55 41 3333-0000");
        assertThat(bob.recentConflicts(v1.id(), Duration.ofHours(1))).isZero();
        assertThat(events.heard()).containsExactly("saved " + v1.id() + " v2", "saved " + v1.id() + " v3");
        assertThat(session.buffer().base()).isEqualTo(stored);
        assertThat(session.buffer().dirtyProperty().get()).isFalse();
    }

    @Test
    void aWaitingSaveOfValuesTheFirstAlreadyStoredIsNotWrittenAgainAndSaveAndThenRunsOnce() {
        List<String> ran = new ArrayList<>();
        calls.hold();
        type(CustomerField.CITY, "Curitiba");
        assertThat(saves.save()).isTrue();
        assertThat(saves.saveAndThen(() -> ran.add("close"))).isTrue(); // the same values again, e.g. Save and close

        assertThat(ran).isEmpty();
        calls.release();

        assertThat(stored().version()).isEqualTo(2);
        assertThat(events.heard()).containsExactly("saved " + v1.id() + " v2");
        assertThat(ran).containsExactly("close");
        assertThat(saves.inFlight()).isFalse();
    }

    @Test
    void saveAndThenRunsNothingWhenTheSaveFails() {
        List<String> ran = new ArrayList<>();
        saves = writingThrough(new FailingWrites(alice, new StoreUnavailableException("Connection refused", null)));
        type(CustomerField.CITY, "Curitiba");

        assertThat(saves.saveAndThen(() -> ran.add("close"))).isTrue();

        assertThat(ran).isEmpty();
        assertThat(saves.inFlight()).isFalse();
        assertThat(text(CustomerField.CITY)).isEqualTo("Curitiba");
    }

    @Test
    void saveAndThenRunsNothingWhenNothingCanBeSaved() {
        List<String> ran = new ArrayList<>();

        assertThat(saves.saveAndThen(() -> ran.add("close"))).isFalse(); // nothing edited

        type(CustomerField.CITY, "Curitiba");
        assertThat(saves.save()).isTrue();
        assertThat(ran).isEmpty(); // the refused request's follow-up was withdrawn
    }

    @Test
    void aSaveThatCommitsAfterTheEditorMovedOnIsReportedButLeavesTheRecordShownAlone() {
        Customer other = bob.create(aCustomer().with(CustomerField.EXTERNAL_REF, "OTHER").build());
        calls.hold();
        type(CustomerField.CITY, "Curitiba");
        assertThat(saves.save()).isTrue();

        scope.renew(); // the editor moves to another customer, as its view model does
        saves.forgetWaiting();
        session.customerId(other.id());
        session.resetTo(other, null);
        events.forget();
        calls.release();

        assertThat(stored().version()).isEqualTo(2);
        assertThat(events.heard()).containsExactly("saved " + v1.id() + " v2");
        assertThat(session.customerId()).hasValue(other.id());
        assertThat(session.buffer().base()).isEqualTo(other);
        assertThat(saves.inFlight()).isFalse();
    }

    @Test
    void aSaveRefusedForALostLeaseKeepsTheEditsReadOnlyAndSaveWithoutLockSavesOptimistically() {
        lock.attach(v1.id());
        lock.modeProperty().set(ConcurrencyMode.LOCK_FOR_EDITING);
        lock.lock();
        assertThat(leases.holder(v1.id()).orElseThrow().sessionId()).isEqualTo(alice.sessionId());
        type(CustomerField.CITY, "Curitiba");

        // The in-memory store keeps no leases: a save fenced by a lease is refused as one whose lease was lost.
        assertThat(saves.save()).isTrue();

        assertThat(lock.stateProperty().get()).isInstanceOf(LockState.Lost.class);
        assertThat(lock.readOnlyProperty().get()).isTrue();
        assertThat(status.editableProperty().get()).isFalse();
        assertThat(text(CustomerField.CITY)).isEqualTo("Curitiba");
        assertThat(stored()).isEqualTo(v1);
        assertThat(saves.inFlight()).isFalse();

        assertThat(saves.saveWithoutLock()).isTrue();

        assertThat(lock.modeProperty().get()).isEqualTo(ConcurrencyMode.OPTIMISTIC);
        assertThat(stored().version()).isEqualTo(2);
        assertThat(stored().data().city()).isEqualTo("Curitiba");
        assertThat(events.heard()).containsExactly("saved " + v1.id() + " v2");
    }

    @Test
    void restorePutsAVersionsValuesInTheFieldsAndSavesThemOnTheCurrentBase() {
        type(CustomerField.CITY, "Curitiba");
        saves.save();
        events.forget();

        assertThat(saves.restore(1, v1.data())).isTrue();

        Customer stored = stored();
        assertThat(stored.version()).isEqualTo(3);
        assertThat(stored.data().sameValues(v1.data())).isTrue();
        assertThat(text(CustomerField.CITY)).isEqualTo(v1.data().city());
        assertThat(events.heard()).containsExactly("saved " + v1.id() + " v3");
        assertThat(bob.history().history(v1.id())).extracting(h -> h.restoredFrom())
                .containsExactly(OptionalLong.empty(), OptionalLong.empty(), OptionalLong.of(1));

        assertThat(saves.restore(1, v1.data())).isFalse(); // it holds them already
        assertThat(session.noticeProperty().get().text())
                .isEqualTo("This customer already holds these values; nothing to restore.");
        assertThat(stored().version()).isEqualTo(3);
    }

    @Test
    void aDeleteRemovesTheCustomerAndTheEditorShowsItDeleted() {
        assertThat(saves.deleteQuestion()).isEqualTo("Delete " + COMPANY + " (Customer #" + v1.id()
                + ")? This cannot be undone.");

        saves.requestDelete();

        assertThat(bob.find(v1.id())).isEmpty();
        assertThat(alice.history().deletion(v1.id()).orElseThrow().changedBy()).isEqualTo("Alice");
        assertThat(session.state()).isEqualTo(EditorState.DELETED);
        assertThat(session.noticeProperty().get().text()).isEqualTo("Deleted " + COMPANY + ".");
        assertThat(events.heard()).containsExactly("deleted " + v1.id() + " shown");
        assertThat(status.canDeleteProperty().get()).isFalse();
    }

    @Test
    void aDeleteOfAStaleVersionOpensTheDecisionAndDeletesNothing() {
        Customer bobs = bobSavesCity("Curitiba");

        saves.requestDelete();

        DeleteConflictViewModel decision = conflicts.deleteConflictProperty().get();
        assertThat(decision).isNotNull();
        assertThat(decision.theirs()).isEqualTo(bobs);
        assertThat(stored()).isEqualTo(bobs);
        assertThat(bob.recentConflicts(v1.id(), Duration.ofHours(1))).isEqualTo(1);
        assertThat(events.heard()).containsExactly("conflict " + v1.id());
        assertThat(session.state()).isEqualTo(EditorState.EDITING);
        assertThat(status.canDeleteProperty().get()).isFalse(); // the decision is open
    }

    @Test
    void aDeleteOfACustomerSomeoneElseDeletedShowsItDeleted() {
        bob.delete(v1.id(), 1);

        saves.requestDelete();

        assertThat(conflicts.deleteConflictProperty().get()).isNull();
        assertThat(session.state()).isEqualTo(EditorState.DELETED);
        assertThat(session.noticeProperty().get().text())
                .isEqualTo("This customer was already deleted by someone else.");
        assertThat(events.heard()).containsExactly("deleted " + v1.id() + " shown");
    }

    @Test
    void aDeleteThatFailsDeletesNothingAndSaysTryAgain() {
        saves = writingThrough(new FailingWrites(alice, new StoreUnavailableException("Connection refused", null)));

        saves.requestDelete();

        assertThat(stored()).isEqualTo(v1);
        assertThat(session.state()).isEqualTo(EditorState.EDITING);
        assertThat(session.noticeProperty().get().text())
                .isEqualTo("Can't reach the database — nothing was deleted. Try again.");
        assertThat(events.heard()).isEmpty();
    }

    @Test
    void deleteDoesNothingWhileTheStatusSaysItCannot() {
        session.state(EditorState.LOADING);

        saves.requestDelete();

        assertThat(stored()).isEqualTo(v1);
        assertThat(events.heard()).isEmpty();
    }
}
