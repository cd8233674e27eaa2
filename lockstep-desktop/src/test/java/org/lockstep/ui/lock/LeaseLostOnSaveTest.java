package org.lockstep.ui.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.lockstep.concurrency.TaskExecutor;
import org.lockstep.domain.AcquireOutcome;
import org.lockstep.domain.ConcurrencyMode;
import org.lockstep.domain.Customer;
import org.lockstep.editing.LeaseSettings;
import org.lockstep.editing.LockState;
import org.lockstep.testing.InMemoryCustomerRepository;
import org.lockstep.testing.InMemoryLeaseRepository;

/**
 * A save refused because this editor's lease was lost ({@code SaveOutcome.LeaseLost}) ends the lease here for good:
 * its renewals stop with it. They did not: the keeper was dropped but still renewed every third of the TTL, and the
 * first refused renewal reported the loss again — so an operator who had chosen "Save without lock" meanwhile was
 * thrown back to "Lost" and read-only a moment later. In-memory leases on the system clock with a short TTL, so that
 * several renewal ticks pass while the test watches the state stay put.
 */
class LeaseLostOnSaveTest {

    static final Duration TTL = Duration.ofMillis(150);
    static final LeaseSettings SETTINGS = new LeaseSettings(TTL, Duration.ofHours(1), Duration.ofMinutes(1),
            Duration.ofHours(1));

    final Clock clock = Clock.systemUTC();
    final InMemoryCustomerRepository alice = InMemoryCustomerRepository.empty("Alice", clock);
    final InMemoryLeaseRepository aliceLeases = InMemoryLeaseRepository.over(alice, clock, "Alice");
    final InMemoryLeaseRepository bobLeases = aliceLeases.as("Bob");
    final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
    final EditLockViewModel lock = new EditLockViewModel(aliceLeases, TaskExecutor.sameThread(), Runnable::run,
            scheduler, clock, SETTINGS);

    @AfterEach
    void closeTheLock() {
        lock.close();
        scheduler.shutdownNow();
    }

    @Test
    void afterALeaseLostOnSaveSavingWithoutTheLockStaysOptimistic() {
        Customer c = alice.create(aCustomer().build());
        lock.attach(c.id());
        lock.lock();
        assertThat(lock.stateProperty().get()).isInstanceOf(LockState.Held.class);
        // Bob breaks Alice's lease and takes one of his own; Alice's next save is refused as lease-lost.
        bobLeases.breakLease(c.id());
        assertThat(bobLeases.acquire(c.id(), Duration.ofMinutes(1).toMillis()))
                .isInstanceOf(AcquireOutcome.Granted.class);
        lock.leaseLostOnSave(bobLeases.holder(c.id()));
        assertThat(lock.stateProperty().get()).isInstanceOf(LockState.Lost.class);

        lock.continueOptimistically();

        // Many renewal ticks of the dropped lease (every 50 ms) pass: nothing may bring "Lost" back.
        await().during(Duration.ofMillis(600)).atMost(Duration.ofSeconds(3))
                .until(() -> lock.stateProperty().get() instanceof LockState.Free);
        assertThat(lock.modeProperty().get()).isEqualTo(ConcurrencyMode.OPTIMISTIC);
        assertThat(lock.readOnlyProperty().get()).isFalse();
        assertThat(bobLeases.holder(c.id())).map(h -> h.holder()).contains("Bob");
    }
}
