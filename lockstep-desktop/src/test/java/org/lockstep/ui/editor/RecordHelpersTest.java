package org.lockstep.ui.editor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.lockstep.concurrency.TaskExecutor;
import org.lockstep.domain.ConcurrencyMode;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.HotRecordAdvice;
import org.lockstep.domain.LeaseEvent;
import org.lockstep.editing.LeaseSettings;
import org.lockstep.editing.LockState;
import org.lockstep.testing.InMemoryCustomerRepository;
import org.lockstep.testing.InMemoryLeaseRepository;
import org.lockstep.testing.ManualClock;
import org.lockstep.ui.lock.EditLockViewModel;

/**
 * The record-scoped helpers of one editor, alone: {@link RecordHelpers} takes the lock, messaging (none here), the
 * {@link HotRecordWatch} over the store's counted conflicts, the presence board (none here) and whether the editor
 * is dirty. What attaching and detaching do is read back from the in-memory leases; the hot-record advice follows the
 * conflicts the in-memory store counted, which Bob's stale saves make.
 */
class RecordHelpersTest {

    static final LeaseSettings SETTINGS = new LeaseSettings(Duration.ofHours(1), Duration.ofHours(2),
            Duration.ofMinutes(1), Duration.ofHours(1));

    @RegisterExtension
    final ListenerExceptions listenerExceptions = new ListenerExceptions();

    final ManualClock clock = new ManualClock();
    final InMemoryCustomerRepository bob = InMemoryCustomerRepository.empty("Bob", clock);
    final InMemoryCustomerRepository alice = bob.as("Alice").asWriter("alice-client/editor-1");
    final InMemoryLeaseRepository leases = InMemoryLeaseRepository.over(alice, clock, "Alice");
    final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
    final EditLockViewModel lock = new EditLockViewModel(leases, TaskExecutor.sameThread(), Runnable::run, scheduler,
            clock, SETTINGS);
    final ReadOnlyBooleanWrapper dirty = new ReadOnlyBooleanWrapper();
    final RecordHelpers helpers = new RecordHelpers(lock, Optional.empty(),
            new HotRecordWatch(alice, TaskExecutor.sameThread()), null, dirty.getReadOnlyProperty());

    @AfterEach
    void closeTheLock() {
        lock.close();
        scheduler.shutdownNow();
    }

    Customer customer() {
        return bob.create(aCustomer().with(CustomerField.EXTERNAL_REF, null).build());
    }

    /** Bob's saves on version 1 of a customer already at version 2: each is a conflict the store counts. */
    void conflicts(Customer c, int count) {
        if (bob.find(c.id()).orElseThrow().version() == 1) {
            bob.save(c.id(), 1, c.data().with(CustomerField.CITY, "Curitiba"));
        }
        for (int i = 0; i < count; i++) {
            bob.save(c.id(), 1, c.data().with(CustomerField.PHONE, "+55 " + i));
        }
    }

    static String advice(int conflicts) {
        return HotRecordAdvice.advice(conflicts, HotRecordAdvice.WINDOW).orElseThrow().headline();
    }

    @Test
    void attachingTheRecordAttachedAlreadyLeavesItsLeaseAlone() {
        Customer c = customer();
        helpers.attach(c.id());
        lock.lock();
        long token = leases.holder(c.id()).orElseThrow().token();

        helpers.attach(c.id());

        assertThat(helpers.attached()).isTrue();
        assertThat(lock.stateProperty().get()).isInstanceOf(LockState.Held.class);
        assertThat(leases.holder(c.id()).orElseThrow().token()).isEqualTo(token);
        assertThat(leases.events(c.id())).extracting(LeaseEvent::kind).containsExactly(LeaseEvent.Kind.ACQUIRED);
    }

    @Test
    void attachingAnotherRecordLetsTheFirstOnesLeaseGo() {
        Customer first = customer();
        Customer second = customer();
        helpers.attach(first.id());
        lock.lock();

        helpers.attach(second.id());

        assertThat(leases.holder(first.id())).isEmpty();
        assertThat(leases.events(first.id())).extracting(LeaseEvent::kind)
                .containsExactly(LeaseEvent.Kind.ACQUIRED, LeaseEvent.Kind.RELEASED);
        lock.lock();
        assertThat(leases.holder(second.id()).orElseThrow().holder()).isEqualTo("Alice");
    }

    @Test
    void detachingLetsTheLeaseGoOnceAndAgainDoesNothing() {
        Customer c = customer();
        helpers.attach(c.id());
        lock.lock();

        helpers.detach();
        helpers.detach();

        assertThat(helpers.attached()).isFalse();
        assertThat(leases.holder(c.id())).isEmpty();
        assertThat(lock.stateProperty().get()).isInstanceOf(LockState.Free.class);
        assertThat(leases.events(c.id())).extracting(LeaseEvent::kind)
                .containsExactly(LeaseEvent.Kind.ACQUIRED, LeaseEvent.Kind.RELEASED);
    }

    @Test
    void closingLeavesTheLeaseToTheApplicationsOpenLocks() {
        Customer c = customer();
        helpers.attach(c.id());
        lock.lock();

        helpers.close();

        assertThat(helpers.attached()).isFalse();
        assertThat(leases.holder(c.id()).orElseThrow().holder()).isEqualTo("Alice");
    }

    @Test
    void theHotRecordAdviceShowsOnceTheStoreCountedEnoughConflicts() {
        Customer c = customer();
        helpers.attach(c.id());
        conflicts(c, HotRecordAdvice.THRESHOLD - 1);

        helpers.readHotRecord(c.id());
        assertThat(helpers.hotRecordAdviceProperty().get()).isNull();
        assertThat(helpers.hotRecordDetailProperty().get()).isNull();

        conflicts(c, 1);
        helpers.readHotRecord(c.id());
        assertThat(helpers.hotRecordAdviceProperty().get()).isEqualTo(advice(HotRecordAdvice.THRESHOLD))
                .isEqualTo("Often edited at the same time — consider Lock for editing");
        assertThat(helpers.hotRecordDetailProperty().get())
                .isEqualTo("3 conflicts on this customer in the last 7 days");
    }

    @Test
    void theAdviceShowsOnlyWhileEditingOptimistically() {
        Customer c = customer();
        helpers.attach(c.id());
        conflicts(c, HotRecordAdvice.THRESHOLD);
        helpers.readHotRecord(c.id());

        lock.modeProperty().set(ConcurrencyMode.LOCK_FOR_EDITING);
        assertThat(helpers.hotRecordAdviceProperty().get()).isNull();
        assertThat(helpers.hotRecordDetailProperty().get()).isNull();

        lock.modeProperty().set(ConcurrencyMode.OPTIMISTIC);
        assertThat(helpers.hotRecordAdviceProperty().get()).isEqualTo(advice(HotRecordAdvice.THRESHOLD));
    }

    @Test
    void followingTheAdviceSwitchesToLockForEditingAndTheAdviceGoes() {
        Customer c = customer();
        helpers.attach(c.id());
        conflicts(c, HotRecordAdvice.THRESHOLD);
        helpers.readHotRecord(c.id());

        helpers.useLockForEditing();

        assertThat(lock.modeProperty().get()).isEqualTo(ConcurrencyMode.LOCK_FOR_EDITING);
        assertThat(helpers.hotRecordAdviceProperty().get()).isNull();
    }

    @Test
    void detachingOrClearingDropsTheAdvice() {
        Customer c = customer();
        conflicts(c, HotRecordAdvice.THRESHOLD);
        helpers.attach(c.id());
        helpers.readHotRecord(c.id());

        helpers.detach();
        assertThat(helpers.hotRecordAdviceProperty().get()).isNull();

        helpers.readHotRecord(c.id());
        helpers.clearHotRecord();
        assertThat(helpers.hotRecordAdviceProperty().get()).isNull();
    }

    @Test
    void withoutPresenceOrMessagingNobodyIsAlsoHereAndThereIsNoOneToMessage() {
        helpers.attach(customer().id());
        dirty.set(true);

        assertThat(helpers.alsoHereProperty().get()).isEmpty();
        assertThat(helpers.messaging()).isEmpty();
    }
}
