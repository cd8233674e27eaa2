package org.lockstep.ui.editor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.time.Duration;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.lockstep.concurrency.TaskExecutor;
import org.lockstep.domain.AcquireOutcome;
import org.lockstep.domain.ChangeEvent;
import org.lockstep.domain.ConcurrencyMode;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.Lease;
import org.lockstep.domain.LeaseEvent;
import org.lockstep.domain.LeaseInfo;
import org.lockstep.editing.LeaseSettings;
import org.lockstep.editing.LockState;
import org.lockstep.editing.WriterIds;
import org.lockstep.testing.InMemoryCustomerRepository;
import org.lockstep.testing.InMemoryLeaseRepository;
import org.lockstep.testing.ManualClock;
import org.lockstep.ui.live.LiveUpdates;
import org.lockstep.ui.lock.EditLockViewModel;

/**
 * How an editor and its lock follow each other, alone: {@link LockWiring#wire} takes the session, the lock, the
 * {@link RecordHelpers} that say whether a stored record is attached, and what loads a customer again — a list that
 * records each load here. The lock runs on in-memory leases judged by a {@link ManualClock} that only the test moves,
 * with a TTL and poll interval far longer than any test, so no timer acts by itself: a lease's end is announced as
 * the feed announces it, through the client's {@link LiveUpdates}, which the lock follows.
 */
class LockWiringTest {

    static final String CLIENT = "alice-client";
    static final LeaseSettings SETTINGS = new LeaseSettings(Duration.ofHours(1), Duration.ofHours(2),
            Duration.ofMinutes(1), Duration.ofHours(1));

    @RegisterExtension
    final ListenerExceptions listenerExceptions = new ListenerExceptions();

    final ManualClock clock = new ManualClock();
    final InMemoryCustomerRepository bob = InMemoryCustomerRepository.empty("Bob", clock);
    final InMemoryCustomerRepository alice = bob.as("Alice").asWriter(WriterIds.next(CLIENT));
    final InMemoryLeaseRepository aliceLeases = InMemoryLeaseRepository.over(alice, clock, "Alice");
    final InMemoryLeaseRepository bobLeases = aliceLeases.as("Bob");
    final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();

    final EditorSession session = new EditorSession(alice.sessionId(), ZoneOffset.UTC);
    final EditLockViewModel lock = new EditLockViewModel(aliceLeases, TaskExecutor.sameThread(), Runnable::run,
            scheduler, clock, SETTINGS);
    final RecordHelpers helpers = new RecordHelpers(lock, Optional.empty(),
            new HotRecordWatch(alice, TaskExecutor.sameThread()), null, session.buffer().dirtyProperty());
    final List<Long> loads = new ArrayList<>();
    final LiveUpdates live = new LiveUpdates(Runnable::run, CLIENT);

    Customer v1;
    long id;
    LockWiring wiring;

    @BeforeEach
    void wireAndShowTheCustomerBobCreated() {
        wiring = LockWiring.wire(session, lock, helpers, loads::add);
        lock.follow(live);
        v1 = bob.create(aCustomer().build());
        id = v1.id();
    }

    @AfterEach
    void closeTheLock() {
        lock.close();
        scheduler.shutdownNow();
    }

    /** What the editor's load does, as far as the lock sees it: the record attached, then shown clean. */
    void show(Customer record) {
        session.customerId(record.id());
        helpers.attach(record.id());
        session.resetTo(record, null);
    }

    void type(String city) {
        session.buffer().text(CustomerField.CITY).set(city);
    }

    /** The feed announces a change of the customer's lease. */
    void leaseChanged() {
        live.changes(List.of(new ChangeEvent("record_lease", id, 0, "UPDATE", Optional.empty())));
    }

    Lease bobLocks() {
        return ((AcquireOutcome.Granted) bobLeases.acquire(id, Duration.ofHours(1).toMillis())).lease();
    }

    /** Bob holds the lock while Alice reads the customer, asking to be told when it is free; Bob lets it go. */
    void bobsLockEndsWhileAliceWaitsToBeTold() {
        Lease bobs = bobLocks();
        show(v1);
        lock.notifyWhenFreeProperty().set(true);
        bobLeases.release(id, bobs.token());
        leaseChanged();
    }

    /**
     * In lock mode Alice's first edit takes the lease; Bob breaks it and locks the customer himself, and the feed
     * says so: Alice's lock is lost, her edit kept. Returns Bob's lease.
     */
    Lease aliceEditsUnderALockThatBobBreaksAndTakes() {
        lock.modeProperty().set(ConcurrencyMode.LOCK_FOR_EDITING);
        show(v1);
        type("Curitiba");
        assertThat(lock.stateProperty().get()).isInstanceOf(LockState.Held.class);
        bobLeases.breakLease(id);
        Lease bobs = bobLocks();
        leaseChanged();
        assertThat(lock.stateProperty().get()).isInstanceOf(LockState.Lost.class);
        return bobs;
    }

    @Test
    void inLockModeTheFirstEditOfAnAttachedRecordTakesTheLeaseOnce() {
        lock.modeProperty().set(ConcurrencyMode.LOCK_FOR_EDITING);
        show(v1);
        assertThat(aliceLeases.holder(id)).isEmpty();

        type("Curitiba");
        type("Curitiba!");

        LeaseInfo holder = aliceLeases.holder(id).orElseThrow();
        assertThat(holder.holder()).isEqualTo("Alice");
        assertThat(holder.sessionId()).isEqualTo(session.writerId());
        assertThat(lock.stateProperty().get()).isInstanceOf(LockState.Held.class);
        assertThat(lock.token()).hasValue(holder.token());
        assertThat(aliceLeases.events(id)).extracting(LeaseEvent::kind).containsExactly(LeaseEvent.Kind.ACQUIRED);
    }

    @Test
    void optimisticallyAnEditTakesNoLease() {
        show(v1);

        type("Curitiba");

        assertThat(aliceLeases.holder(id)).isEmpty();
        assertThat(lock.stateProperty().get()).isInstanceOf(LockState.Free.class);
    }

    @Test
    void aNewCustomerTakesNoLease() {
        lock.modeProperty().set(ConcurrencyMode.LOCK_FOR_EDITING);
        session.state(EditorState.NEW);

        type("Curitiba");

        assertThat(aliceLeases.active()).isEmpty();
        assertThat(lock.stateProperty().get()).isInstanceOf(LockState.Free.class);
    }

    @Test
    void switchingToLockModeWithEditsMadeTakesTheLeaseAtOnceButNotWithoutEdits() {
        show(v1);
        lock.modeProperty().set(ConcurrencyMode.LOCK_FOR_EDITING);
        assertThat(aliceLeases.holder(id)).isEmpty(); // nothing edited yet
        lock.modeProperty().set(ConcurrencyMode.OPTIMISTIC);
        type("Curitiba");

        lock.modeProperty().set(ConcurrencyMode.LOCK_FOR_EDITING);

        assertThat(aliceLeases.holder(id).orElseThrow().sessionId()).isEqualTo(session.writerId());
    }

    @Test
    void anotherOperatorsLeaseMakesTheEditorReadOnlyNamingThem() {
        bobLocks();

        show(v1);

        assertThat(aliceLeases.holder(id).orElseThrow().holder()).isEqualTo("Bob");
        assertThat(lock.stateProperty().get()).isInstanceOf(LockState.HeldByOther.class);
        assertThat(lock.readOnlyProperty().get()).isTrue();
        assertThat(lock.messageProperty().get()).startsWith("Bob is editing this customer (since ");
    }

    @Test
    void aLeaseTakenWhileTheEditorIsOpenMakesItReadOnlyAsTheFeedAnnouncesIt() {
        show(v1);

        bobLocks();
        leaseChanged();

        assertThat(lock.readOnlyProperty().get()).isTrue();
    }

    @Test
    void whenAnothersLeaseEndsACleanEditorLoadsTheRecordAgain() {
        Lease bobs = bobLocks();
        show(v1);

        bobLeases.release(id, bobs.token());
        leaseChanged();

        assertThat(loads).containsExactly(id);
        assertThat(lock.readOnlyProperty().get()).isFalse();
    }

    @Test
    void whenAnothersLeaseEndsAnEditorWithEditsKeepsThem() {
        show(v1);
        type("Curitiba"); // optimistic edits, then Bob locks
        Lease bobs = bobLocks();
        leaseChanged();
        assertThat(lock.readOnlyProperty().get()).isTrue();

        bobLeases.release(id, bobs.token());
        leaseChanged();

        assertThat(loads).isEmpty();
        assertThat(session.buffer().text(CustomerField.CITY).get()).isEqualTo("Curitiba");
        assertThat(lock.readOnlyProperty().get()).isFalse();
    }

    @Test
    void whenAnothersLeaseEndsAnEditorNotEditingLoadsNothing() {
        Lease bobs = bobLocks();
        show(v1);
        session.state(EditorState.DELETED);

        bobLeases.release(id, bobs.token());
        leaseChanged();

        assertThat(loads).isEmpty();
    }

    @Test
    void notifyMeWhenFreeNamesTheOperatorWhoseLockEnded() {
        bobsLockEndsWhileAliceWaitsToBeTold();

        assertThat(session.noticeProperty().get().text())
                .isEqualTo("Bob's lock on this customer ended — it is yours to edit");
        assertThat(lock.notifyWhenFreeProperty().get()).isFalse();
    }

    @Test
    void theLockEndedNewsIsSupersededByTheNextLockAndIsTransient() {
        bobsLockEndsWhileAliceWaitsToBeTold();
        assertThat(session.noticeProperty().get().isTransient()).isTrue();

        bobLeases.as("Carol", "carol-session").acquire(id, Duration.ofHours(1).toMillis());
        leaseChanged();

        assertThat(lock.messageProperty().get()).startsWith("Carol is editing this customer");
        assertThat(session.noticeProperty().get()).as("no word left of Bob's ended lock").isNull();
    }

    @Test
    void afterALockBrokenAndLetGoSwitchingToOptimisticMakesTheEditorEditableAsTheLeaseTableSays() {
        Lease bobs = aliceEditsUnderALockThatBobBreaksAndTakes();
        bobLeases.release(id, bobs.token());
        leaseChanged();
        assertThat(lock.readOnlyProperty().get()).isTrue();

        lock.modeProperty().set(ConcurrencyMode.OPTIMISTIC);

        assertThat(lock.stateProperty().get()).isInstanceOf(LockState.Free.class);
        assertThat(lock.readOnlyProperty().get()).isFalse();
        assertThat(session.buffer().text(CustomerField.CITY).get()).isEqualTo("Curitiba");
    }

    @Test
    void switchingToOptimisticAfterALossWhileAnotherStillHoldsTheRecordShowsThemAsHolder() {
        aliceEditsUnderALockThatBobBreaksAndTakes();

        lock.modeProperty().set(ConcurrencyMode.OPTIMISTIC);

        assertThat(lock.stateProperty().get()).isInstanceOf(LockState.HeldByOther.class);
        assertThat(lock.readOnlyProperty().get()).isTrue();
        assertThat(lock.messageProperty().get()).startsWith("Bob is editing this customer");
    }

    @Test
    void aMessageReceivedWhileHoldingTheLockStaysThroughRenewalsButGoesWhenAnotherTakesTheRecord() {
        lock.modeProperty().set(ConcurrencyMode.LOCK_FOR_EDITING);
        show(v1);
        type("Curitiba");
        EditorNotice fromCarol = EditorNotice.info("Carol: please save, I need this customer");
        wiring.tellAboutTheLock(fromCarol);
        leaseChanged(); // the lease table says the lock is still Alice's
        assertThat(session.noticeProperty().get()).as("still true while Alice holds it").isSameAs(fromCarol);

        bobLeases.breakLease(id);
        bobLocks();
        leaseChanged();

        assertThat(lock.stateProperty().get()).isInstanceOf(LockState.Lost.class);
        assertThat(session.noticeProperty().get()).as("no word left of a request about Alice's lock").isNull();
    }

    @Test
    void aLockNoticeDoesNotTakeBackANoticeThatReplacedIt() {
        Lease bobs = bobLocks();
        show(v1);
        lock.notifyWhenFreeProperty().set(true);
        bobLeases.release(id, bobs.token());
        leaseChanged();
        EditorNotice failed = EditorNotice.error("Not saved", "");
        session.notice(failed);

        bobLeases.as("Carol", "carol-session").acquire(id, Duration.ofHours(1).toMillis());
        leaseChanged();

        assertThat(lock.messageProperty().get()).startsWith("Carol is editing this customer");
        assertThat(session.noticeProperty().get()).as("the error is not about a lock").isSameAs(failed);
    }
}
