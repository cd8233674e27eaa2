package org.lockstep.ui.editor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.time.ZoneOffset;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.lockstep.ui.merge.Merges;
import org.lockstep.concurrency.TaskExecutor;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.HistoryEntry;
import org.lockstep.domain.SaveOutcome;
import org.lockstep.testing.InMemoryCustomerRepository;
import org.lockstep.ui.merge.DeleteConflictViewModel;
import org.lockstep.ui.merge.MergeViewModel;

/**
 * An editor's conflicts, alone: {@link ConflictFlow} takes the session, the repository a merge writes through, the
 * history the dialogs name and an executor — the in-memory store, its history and {@link TaskExecutor#sameThread()}
 * here. Each way a merge ({@link org.lockstep.ui.merge.MergeOutcome}) or a delete decision
 * ({@link org.lockstep.ui.merge.DeleteDecision}) ends is driven through the dialog's own view model, as the operator
 * would, and what it does to the session is read back.
 *
 * <p>The set-up: Bob created the customer (version 1); Alice's editor shows it and she changed the phone; Bob then
 * saved another city (version 2), so Alice's save met his.
 */
class ConflictFlowTest {

    static final String PHONE = "+55 41 3333-0000";
    static final String COMPANY = aCustomer().build().company();

    @RegisterExtension
    final ListenerExceptions listenerExceptions = new ListenerExceptions();

    final InMemoryCustomerRepository bob = InMemoryCustomerRepository.empty("Bob");
    final InMemoryCustomerRepository alice = bob.as("Alice").asWriter("alice-client/editor-1");
    final EditorSession session = new EditorSession(alice.sessionId(), ZoneOffset.UTC);
    final ConflictFlow conflicts = new ConflictFlow(session,
            new Merges(alice, alice.history(), TaskExecutor.sameThread()));
    final SessionEvents events = SessionEvents.of(session);

    Customer v1;
    long id;

    @BeforeEach
    void aliceEditsTheCustomerBobCreated() {
        v1 = bob.create(aCustomer().build());
        id = v1.id();
        session.customerId(id);
        session.resetTo(v1, null);
        session.buffer().text(CustomerField.PHONE).set(PHONE);
        events.forget();
    }

    CustomerData mine() {
        return session.buffer().currentProperty().get();
    }

    Customer bobSavesCity(String city) {
        return ((SaveOutcome.Saved) bob.save(id, 1, v1.data().with(CustomerField.CITY, city))).saved();
    }

    /** Alice's save of her edits on version 1, as the store answers it now, opens the merge. */
    MergeViewModel aliceSavesAndMeetsTheirs() {
        SaveOutcome.Conflict outcome = (SaveOutcome.Conflict) alice.save(id, 1, mine());
        conflicts.saveConflicted(v1, mine(), outcome);
        return conflicts.mergeProperty().get();
    }

    Customer stored() {
        return bob.find(id).orElseThrow();
    }

    @Test
    void aSaveConflictOpensTheMergeOfMineWithTheirsAndTheEditorTakesNoEditsMeanwhile() {
        Customer v2 = bobSavesCity("Curitiba");

        MergeViewModel merge = aliceSavesAndMeetsTheirs();

        assertThat(merge).isNotNull();
        assertThat(merge.base()).isEqualTo(v1);
        assertThat(merge.theirs()).contains(v2);
        assertThat(merge.mine().phone()).isEqualTo(PHONE);
        assertThat(conflicts.open()).isTrue();
        assertThat(events.heard()).isEmpty();
    }

    @Test
    void mergeSavedResetsTheEditorToTheMergedVersionAndIsHeardAsResetThenSaved() {
        bobSavesCity("Curitiba");
        MergeViewModel merge = aliceSavesAndMeetsTheirs();
        assertThat(merge.canSaveProperty().get()).isTrue(); // phone and city: nothing to resolve

        merge.saveMerged();

        Customer v3 = stored();
        assertThat(v3.version()).isEqualTo(3);
        assertThat(v3.data().city()).isEqualTo("Curitiba");
        assertThat(v3.data().phone()).isEqualTo(PHONE);
        assertThat(alice.history().history(id)).extracting(HistoryEntry::version, HistoryEntry::changedBy).last()
                .isEqualTo(tuple(3L, "Alice"));
        assertThat(session.buffer().base()).isEqualTo(v3);
        assertThat(session.buffer().dirtyProperty().get()).isFalse();
        assertThat(session.state()).isEqualTo(EditorState.EDITING);
        assertThat(session.noticeProperty().get()).isEqualTo(EditorNotice.news("Saved version 3"));
        assertThat(conflicts.open()).isFalse();
        assertThat(events.heard()).containsExactly("reset " + id + " v3", "saved " + id + " v3");
    }

    @Test
    void discardingMyChangesShowsTheirsCleanAndWritesNothing() {
        Customer v2 = bobSavesCity("Curitiba");
        MergeViewModel merge = aliceSavesAndMeetsTheirs();

        merge.discardMyChanges();

        assertThat(stored()).isEqualTo(v2);
        assertThat(session.buffer().base()).isEqualTo(v2);
        assertThat(session.buffer().text(CustomerField.PHONE).get()).isEqualTo(v2.data().phone());
        assertThat(session.buffer().dirtyProperty().get()).isFalse();
        assertThat(session.state()).isEqualTo(EditorState.EDITING);
        assertThat(conflicts.mergeProperty().get()).isNull();
        assertThat(events.heard()).containsExactly("reset " + id + " v2");
    }

    @Test
    void cancellingKeepsTheEditsOnTheOldBaseAndSaysSaveMergesAgain() {
        bobSavesCity("Curitiba");
        MergeViewModel merge = aliceSavesAndMeetsTheirs();

        merge.cancel();

        assertThat(session.buffer().base()).isEqualTo(v1);
        assertThat(session.buffer().text(CustomerField.PHONE).get()).isEqualTo(PHONE);
        assertThat(session.buffer().dirtyProperty().get()).isTrue();
        assertThat(session.noticeProperty().get().text())
                .isEqualTo("Your changes are kept, not saved yet; Save opens the merge again.");
        assertThat(conflicts.open()).isFalse();
        assertThat(stored().version()).isEqualTo(2);
        assertThat(events.heard()).isEmpty();
    }

    @Test
    void recreatingADeletedCustomerWithMyValuesEditsTheNewCustomerAndIsHeardAsResetRecreatedAndSaved() {
        bob.delete(id, 1);
        MergeViewModel merge = aliceSavesAndMeetsTheirs();
        assertThat(merge.deletedProperty().get()).isTrue();

        merge.recreate();

        long created = session.customerId().orElseThrow();
        assertThat(created).isNotEqualTo(id);
        Customer stored = bob.find(created).orElseThrow();
        assertThat(stored.data().phone()).isEqualTo(PHONE);
        assertThat(stored.data().externalRef()).isEqualTo(v1.data().externalRef());
        assertThat(alice.history().history(created)).extracting(HistoryEntry::op, HistoryEntry::changedBy)
                .containsExactly(tuple(HistoryEntry.Op.INSERT, "Alice"));
        assertThat(bob.find(id)).isEmpty();
        assertThat(session.buffer().base()).isEqualTo(stored);
        assertThat(session.buffer().dirtyProperty().get()).isFalse();
        assertThat(session.state()).isEqualTo(EditorState.EDITING);
        assertThat(session.noticeProperty().get().text())
                .isEqualTo("Re-created as Customer #" + created + " with your values.");
        assertThat(events.heard()).containsExactly("reset " + created + " v1", "recreated " + created + " v1",
                "saved " + created + " v1");
    }

    @Test
    void acceptingTheDeletionDropsTheEditsAndShowsTheCustomerDeleted() {
        bob.delete(id, 1);
        MergeViewModel merge = aliceSavesAndMeetsTheirs();

        merge.discardMyChanges();

        assertThat(session.state()).isEqualTo(EditorState.DELETED);
        assertThat(session.customerId()).hasValue(id);
        assertThat(session.buffer().text(CustomerField.PHONE).get()).isEqualTo(v1.data().phone());
        assertThat(session.buffer().dirtyProperty().get()).isFalse();
        assertThat(session.noticeProperty().get().text()).isEqualTo("This customer was deleted by someone else.");
        assertThat(conflicts.open()).isFalse();
        assertThat(events.heard()).containsExactly("deleted " + id + " shown");
    }

    @Test
    void reviewOpensTheMergeWithTheNewerRecordOnceAndCloseClosesIt() {
        Customer v2 = bobSavesCity("Curitiba");

        conflicts.review(v1, mine(), Optional.of(v2));
        MergeViewModel first = conflicts.mergeProperty().get();
        conflicts.review(v1, mine(), Optional.of(v2));

        assertThat(first.theirs()).contains(v2);
        assertThat(conflicts.mergeProperty().get()).isSameAs(first);
        conflicts.close();
        assertThat(conflicts.open()).isFalse();
        assertThat(session.buffer().text(CustomerField.PHONE).get()).isEqualTo(PHONE);
    }

    @Test
    void sameAsTheirsTakesTheirsAsTheBaseAndSaysMyChangeMayNeedMakingAgain() {
        session.buffer().text(CustomerField.PHONE).set(v1.data().phone());
        session.buffer().text(CustomerField.CITY).set("Curitiba");
        EditBuffer.Snapshot snapshot = session.buffer().snapshot();
        Customer v2 = bobSavesCity("Curitiba");

        conflicts.sameAsTheirs(snapshot, v2);

        assertThat(session.buffer().base()).isEqualTo(v2);
        assertThat(session.buffer().dirtyProperty().get()).isFalse();
        assertThat(session.state()).isEqualTo(EditorState.EDITING);
        assertThat(session.noticeProperty().get().text()).startsWith("Bob saved these same values first (version 2)");
        assertThat(conflicts.open()).isFalse();
    }

    @Test
    void deleteAnywayDeletesTheNewerVersionAndShowsTheCustomerDeleted() {
        Customer v2 = bobSavesCity("Curitiba");
        conflicts.deleteConflicted(v1, v2);
        DeleteConflictViewModel decision = conflicts.deleteConflictProperty().get();
        assertThat(conflicts.open()).isTrue();

        decision.deleteAnyway();

        assertThat(bob.find(id)).isEmpty();
        assertThat(alice.history().deletion(id).orElseThrow()).extracting(HistoryEntry::version,
                HistoryEntry::changedBy).containsExactly(2L, "Alice");
        assertThat(session.state()).isEqualTo(EditorState.DELETED);
        assertThat(session.noticeProperty().get().text()).isEqualTo("Deleted " + COMPANY + ".");
        assertThat(conflicts.open()).isFalse();
        assertThat(events.heard()).containsExactly("deleted " + id + " shown");
    }

    @Test
    void deleteAnywayOfACustomerSomeoneDeletedMeanwhileShowsItDeleted() {
        Customer v2 = bobSavesCity("Curitiba");
        conflicts.deleteConflicted(v1, v2);
        bob.delete(id, 2);

        conflicts.deleteConflictProperty().get().deleteAnyway();

        assertThat(session.state()).isEqualTo(EditorState.DELETED);
        assertThat(alice.history().deletion(id).orElseThrow().changedBy()).isEqualTo("Bob");
        assertThat(events.heard()).containsExactly("deleted " + id + " shown");
    }

    @Test
    void keepingTheCustomerShowsItAsItIsNowCleanAndDeletesNothing() {
        Customer v2 = bobSavesCity("Curitiba");
        conflicts.deleteConflicted(v1, v2);

        conflicts.deleteConflictProperty().get().keep();

        assertThat(stored()).isEqualTo(v2);
        assertThat(session.buffer().base()).isEqualTo(v2);
        assertThat(session.buffer().text(CustomerField.CITY).get()).isEqualTo("Curitiba");
        assertThat(session.buffer().dirtyProperty().get()).isFalse();
        assertThat(session.state()).isEqualTo(EditorState.EDITING);
        assertThat(conflicts.open()).isFalse();
    }

    /**
     * Keep resets the edits to the record now, as Discard does: the other parts must hear it, so that nothing is left
     * to review against the old base (the live banner of a newer version goes, as after Discard).
     */
    @Test
    void keepingTheCustomerIsHeardAsAResetToTheRecordNow() {
        Customer v2 = bobSavesCity("Curitiba");
        conflicts.deleteConflicted(v1, v2);

        conflicts.deleteConflictProperty().get().keep();

        assertThat(events.heard()).containsExactly("reset " + id + " v2");
    }
}
