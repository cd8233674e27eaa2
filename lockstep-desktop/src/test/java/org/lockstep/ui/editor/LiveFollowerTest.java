package org.lockstep.ui.editor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.lockstep.ui.merge.Merges;
import org.lockstep.concurrency.TaskExecutor;
import org.lockstep.concurrency.TaskScope;
import org.lockstep.domain.ChangeEvent;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.CustomerRepository;
import org.lockstep.domain.SaveOutcome;
import org.lockstep.editing.WriterIds;
import org.lockstep.testing.InMemoryCustomerRepository;
import org.lockstep.ui.live.LiveUpdates;
import org.lockstep.ui.live.OwnWrites;
import org.lockstep.ui.live.PublishingCustomerRepository;
import org.lockstep.ui.merge.MergeViewModel;
import org.lockstep.ui.timeline.TimelineViewModel;

/**
 * How an editor follows other writers' changes, alone: {@link LiveFollower} takes the session, the repository it
 * reads the record from again, the history that names who changed it, the scope of the editor's calls and its own
 * reads' scope, the {@link ConflictFlow} Review opens, and the History and Timeline tabs it refreshes — the in-memory
 * store and its history here, calls on the test's thread. Changes are announced the way the database's feed
 * announces them: {@link ChangeEvent}s handed straight to the client's {@link LiveUpdates}, whose FX thread is the
 * test's.
 *
 * <p>Alice's client runs two editors (two writer ids): this one, and another window, both writing through the
 * client's {@link PublishingCustomerRepository}, which records what they commit in its {@link OwnWrites}. Bob is
 * another client.
 */
class LiveFollowerTest {

    static final String CLIENT = "alice-client";
    static final String PHONE = "+55 41 3333-0000";

    @RegisterExtension
    final ListenerExceptions listenerExceptions = new ListenerExceptions();

    final InMemoryCustomerRepository bob = InMemoryCustomerRepository.empty("Bob");
    final InMemoryCustomerRepository aliceClient = bob.as("Alice").asWriter(CLIENT);
    final OwnWrites ownWrites = new OwnWrites();
    final InMemoryCustomerRepository aliceStore = aliceClient.asWriter(WriterIds.next(CLIENT));
    final CustomerRepository alice = new PublishingCustomerRepository(aliceStore, Runnable::run, ownWrites);
    final CustomerRepository aliceOtherWindow =
            new PublishingCustomerRepository(aliceClient, Runnable::run, ownWrites).asWriter(WriterIds.next(CLIENT));

    final EditorSession session = new EditorSession(alice.sessionId(), ZoneOffset.UTC);
    final HeldCalls callsExecutor = new HeldCalls();
    final TaskScope calls = new TaskScope(callsExecutor);
    final HeldCalls readsExecutor = new HeldCalls();
    final TaskScope reads = new TaskScope(readsExecutor);
    final ConflictFlow conflicts = new ConflictFlow(session,
            new Merges(alice, aliceStore.history(), TaskExecutor.sameThread()));
    final CustomerHistoryViewModel versions =
            new CustomerHistoryViewModel(aliceStore.history(), TaskExecutor.sameThread(), ZoneOffset.UTC);
    final TimelineViewModel timeline =
            new TimelineViewModel(aliceStore.history(), TaskExecutor.sameThread(), ZoneOffset.UTC);
    final LiveFollower follower =
            new LiveFollower(session, alice, aliceStore.history(), calls, reads, conflicts, versions, timeline,
                    ownWrites);
    final LiveUpdates live = new LiveUpdates(Runnable::run, CLIENT);
    final SessionEvents events = SessionEvents.of(session);
    List<Runnable> unsubscribe;

    Customer v1;
    long id;

    @BeforeEach
    void aliceShowsTheCustomerBobCreated() {
        unsubscribe = follower.follow(live);
        calls.onBusyChanged(busy -> {
            if (!busy) {
                follower.settled(); // as the editor's view model has it
            }
        });
        v1 = bob.create(aCustomer().build());
        id = v1.id();
        session.customerId(id);
        session.resetTo(v1, null);
        events.forget();
    }

    @AfterEach
    void stopFollowing() {
        unsubscribe.forEach(Runnable::run);
    }

    Customer saveCity(CustomerRepository writer, String city) {
        Customer now = bob.find(id).orElseThrow();
        return ((SaveOutcome.Saved) writer.save(id, now.version(), now.data().with(CustomerField.CITY, city)))
                .saved();
    }

    /** The feed announces {@code writer}'s change of the customer to {@code version}. */
    void announce(CustomerRepository writer, long version, String op) {
        live.changes(List.of(new ChangeEvent("customer", id, version, op, Optional.of(writer.sessionId()))));
    }

    void typePhone() {
        session.buffer().text(CustomerField.PHONE).set(PHONE);
    }

    @Test
    void aCleanEditorFollowsAnotherWritersNewerVersionAndMarksTheChangedFields() {
        Customer v2 = saveCity(bob, "Curitiba");

        announce(bob, 2, "UPDATE");

        assertThat(session.buffer().base()).isEqualTo(v2);
        assertThat(session.buffer().text(CustomerField.CITY).get()).isEqualTo("Curitiba");
        assertThat(session.buffer().dirtyProperty().get()).isFalse();
        assertThat(follower.recentlyChangedProperty().get()).isEqualTo(Set.of(CustomerField.CITY));
        assertThat(follower.bannerProperty().get()).isNull();
        assertThat(follower.theirs()).isEmpty();
    }

    @Test
    void aDirtyEditorKeepsItsBaseAndEditsAndGetsTheBannerWhoseReviewOpensTheMerge() {
        typePhone();
        Customer v2 = saveCity(bob, "Curitiba");

        announce(bob, 2, "UPDATE");

        assertThat(follower.bannerProperty().get()).isEqualTo("Bob saved version 2 (city) — Review");
        assertThat(follower.theirs()).contains(v2);
        assertThat(session.buffer().base()).isEqualTo(v1);
        assertThat(session.buffer().text(CustomerField.PHONE).get()).isEqualTo(PHONE);
        assertThat(follower.recentlyChangedProperty().get()).isEmpty();

        follower.review();

        MergeViewModel merge = conflicts.mergeProperty().get();
        assertThat(merge.base()).isEqualTo(v1);
        assertThat(merge.theirs()).contains(v2);
        assertThat(merge.mine().phone()).isEqualTo(PHONE);
    }

    /**
     * This editor's save of {@code sent} committed as {@code stored}; its reply waits in the editor's calls until
     * released.
     */
    void replyPending(EditBuffer.Snapshot sent, Customer stored) {
        callsExecutor.hold();
        calls.executeTracked(() -> stored, reply -> session.savedHere(reply, sent), failure -> {});
    }

    /**
     * The reply arrives, then the read its settling started answers: on the FX thread a read's result is a task of
     * its own, run after the reply's callback that settled the calls.
     */
    void replyThenReads() {
        readsExecutor.hold();
        callsExecutor.release();
        readsExecutor.release();
    }

    @Test
    void thisEditorsOwnSaveHeardBeforeItsReplyGivesNoBannerAndTheEditsStay() {
        EditBuffer.Snapshot sent = session.buffer().snapshot();
        Customer v2 = saveCity(alice, "Curitiba");
        replyPending(sent, v2);
        typePhone(); // typed while the save was in flight

        announce(alice, 2, "UPDATE");
        replyThenReads();

        assertThat(follower.bannerProperty().get()).isNull();
        assertThat(session.buffer().base()).isEqualTo(v2);
        assertThat(session.buffer().text(CustomerField.PHONE).get()).isEqualTo(PHONE);
    }

    @Test
    void thisEditorsOwnSaveHeardBeforeItsReplyMovesACleanEditorAlongQuietly() {
        EditBuffer.Snapshot sent = session.buffer().snapshot();
        Customer v2 = saveCity(alice, "Curitiba");
        replyPending(sent, v2);

        announce(alice, 2, "UPDATE");
        replyThenReads();

        assertThat(session.buffer().base()).isEqualTo(v2);
        assertThat(follower.recentlyChangedProperty().get()).isEmpty();
        assertThat(follower.bannerProperty().get()).isNull();
    }

    @Test
    void anotherWritersChangeThatNamesThisEditorsSessionIsShownAsTheirs() {
        // Bob's psql session set lockstep.session to Alice's writer id: the trigger's notification carries it.
        typePhone();
        Customer v2 = saveCity(bob, "Curitiba");

        announce(alice, 2, "UPDATE");

        assertThat(follower.bannerProperty().get()).isEqualTo("Bob saved version 2 (city) — Review");
        assertThat(follower.theirs()).contains(v2);
    }

    @Test
    void anotherWritersChangeAnnouncedAsTheOperatorsOtherWindowIsNotWordedAsHers() {
        typePhone();
        saveCity(bob, "Curitiba");

        announce(aliceOtherWindow, 2, "UPDATE");

        assertThat(follower.bannerProperty().get()).isEqualTo("Bob saved version 2 (city) — Review");
    }

    @Test
    void aNotificationOfAVersionThatWasNeverSavedChangesNothing() {
        typePhone();

        announce(bob, 99, "UPDATE");
        announce(bob, 1, "DELETE");

        assertThat(follower.bannerProperty().get()).isNull();
        assertThat(session.buffer().base()).isEqualTo(v1);
        assertThat(session.state()).isEqualTo(EditorState.EDITING);
        assertThat(session.noticeProperty().get()).isNull();
    }

    @Test
    void aNotificationClaimingAnOlderVersionStillMakesTheEditorFollowTheRecordAsItIs() {
        Customer v2 = saveCity(bob, "Curitiba");

        announce(bob, 1, "UPDATE");

        assertThat(session.buffer().base()).isEqualTo(v2);
    }

    @Test
    void aSaveInTheOperatorsOtherWindowIsAnnouncedLikeAnyonesInTheirWords() {
        typePhone();
        saveCity(aliceOtherWindow, "Curitiba");

        announce(aliceOtherWindow, 2, "UPDATE");

        assertThat(follower.bannerProperty().get())
                .isEqualTo("You saved version 2 in another window (city) — Review");
    }

    @Test
    void aResetClearsTheBanner() {
        typePhone();
        Customer v2 = saveCity(bob, "Curitiba");
        announce(bob, 2, "UPDATE");

        session.resetTo(v2, null);

        assertThat(follower.bannerProperty().get()).isNull();
        assertThat(follower.theirs()).isEmpty();
    }

    @Test
    void aSaveOfThisEditorPastTheVersionAnnouncedClearsTheBanner() {
        typePhone();
        saveCity(bob, "Curitiba");
        announce(bob, 2, "UPDATE");

        // Last write wins overwrote Bob's version 2 with version 3.
        Customer v3 = ((SaveOutcome.Saved) alice.overwrite(id, v1.data().with(CustomerField.PHONE, PHONE))).saved();
        session.committed(v3);

        assertThat(follower.bannerProperty().get()).isNull();
    }

    @Test
    void keepingTheCustomerInTheDeleteDecisionClearsTheBannerOfTheVersionItNowShows() {
        typePhone();
        Customer v2 = saveCity(bob, "Curitiba");
        announce(bob, 2, "UPDATE");
        conflicts.deleteConflicted(v1, v2); // Alice pressed Delete on version 1

        conflicts.deleteConflictProperty().get().keep();

        assertThat(session.buffer().base()).isEqualTo(v2);
        assertThat(follower.bannerProperty().get()).isNull();
    }

    @Test
    void aCleanEditorOfACustomerAnotherDeletedShowsItDeletedNamingThem() {
        bob.delete(id, 1);

        announce(bob, 1, "DELETE");

        assertThat(session.state()).isEqualTo(EditorState.DELETED);
        assertThat(session.noticeProperty().get().text()).isEqualTo("Bob deleted this customer; it no longer exists.");
        assertThat(events.heard()).containsExactly("deleted " + id + " shown");
        assertThat(follower.bannerProperty().get()).isNull();
    }

    @Test
    void aDirtyEditorOfACustomerAnotherDeletedGetsTheBannerWhoseReviewOpensTheDeletedFlow() {
        typePhone();
        bob.delete(id, 1);

        announce(bob, 1, "DELETE");

        assertThat(session.state()).isEqualTo(EditorState.EDITING);
        assertThat(follower.bannerProperty().get()).isEqualTo("Bob deleted this customer — Review");
        assertThat(follower.theirs()).isEmpty();

        follower.review();

        assertThat(conflicts.mergeProperty().get().deletedProperty().get()).isTrue();
    }

    @Test
    void changesOfAnotherCustomerAndOfVersionsNotNewerLeaveTheEditorAsItIs() {
        Customer other = bob.create(aCustomer().with(CustomerField.EXTERNAL_REF, "OTHER").build());
        bob.save(other.id(), 1, other.data().with(CustomerField.CITY, "Manaus"));

        live.changes(List.of(new ChangeEvent("customer", other.id(), 2, "UPDATE", Optional.of(bob.sessionId())),
                new ChangeEvent("customer", id, 1, "UPDATE", Optional.of(bob.sessionId()))));

        assertThat(session.buffer().base()).isEqualTo(v1);
        assertThat(follower.recentlyChangedProperty().get()).isEmpty();
        assertThat(follower.bannerProperty().get()).isNull();
    }

    @Test
    void aChangeHeardWhileACallIsInFlightIsAppliedOnceTheCallsSettle() {
        callsExecutor.hold();
        calls.execute(() -> "a save", done -> {}, failure -> {});
        Customer v2 = saveCity(bob, "Curitiba");

        announce(bob, 2, "UPDATE");
        assertThat(session.buffer().base()).isEqualTo(v1); // the call in flight settles the state itself first

        callsExecutor.release();

        assertThat(session.buffer().base()).isEqualTo(v2);
        assertThat(follower.recentlyChangedProperty().get()).isEqualTo(Set.of(CustomerField.CITY));
    }

    @Test
    void aResyncReadsTheRecordAgainAndFollowsWhatWasMissed() {
        Customer v2 = saveCity(bob, "Curitiba"); // announced while the feed was away

        live.resync();

        assertThat(session.buffer().base()).isEqualTo(v2);
        assertThat(follower.recentlyChangedProperty().get()).isEqualTo(Set.of(CustomerField.CITY));
    }

    @Test
    void theHistoryTabIsReadAgainWhenTheCustomerChanges() {
        versions.show(id);
        versions.setActive(true);
        assertThat(versions.versions()).hasSize(1);
        saveCity(bob, "Curitiba");

        announce(bob, 2, "UPDATE");

        assertThat(versions.versions()).extracting(CustomerHistoryViewModel.Version::version).containsExactly(2L, 1L);
    }

    @Test
    void movingToAnotherRecordForgetsTheBannerAndTheHighlight() {
        saveCity(bob, "Curitiba");
        announce(bob, 2, "UPDATE");
        assertThat(follower.recentlyChangedProperty().get()).isNotEmpty();

        follower.forget();

        assertThat(follower.recentlyChangedProperty().get()).isEmpty();
        assertThat(follower.bannerProperty().get()).isNull();
    }

    @Test
    void nothingIsHeardOnceUnsubscribed() {
        unsubscribe.forEach(Runnable::run);
        saveCity(bob, "Curitiba");

        announce(bob, 2, "UPDATE");

        assertThat(session.buffer().base()).isEqualTo(v1);
    }
}
