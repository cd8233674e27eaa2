package org.lockstep.testing;

import java.time.Duration;
import org.lockstep.domain.Lease;
import org.lockstep.domain.LeaseRepository;

/**
 * The lease repository's contract, kept by the fake view-model tests use: leases and customers of their own per case,
 * on a {@link ManualClock} that only {@link #lapse} moves.
 */
class InMemoryLeaseRepositoryContractTest extends LeaseRepositoryContractTest {

    private final ManualClock clock = new ManualClock();
    private final InMemoryCustomerRepository customers = InMemoryCustomerRepository.empty("Setup", clock);
    private final InMemoryLeaseRepository leases = InMemoryLeaseRepository.over(customers, clock, "Setup");

    @Override
    protected LeaseRepository client(String holder) {
        return leases.as(holder);
    }

    @Override
    protected long aCustomer() {
        return customers.create(CustomerBuilder.aCustomer().build()).id();
    }

    @Override
    protected void deleteCustomer(long recordId) {
        customers.delete(recordId, customers.find(recordId).orElseThrow().version());
    }

    @Override
    protected void deleteAsHolder(long recordId, LeaseRepository holder, Lease lease) {
        deleteCustomer(recordId);
    }

    /** Moves the clock a millisecond past the lease's expiry: every lease that ends by then lapses too. */
    @Override
    protected void lapse(long recordId) {
        clock.advance(Duration.between(clock.instant(), leases.holder(recordId).orElseThrow().expiresAt())
                .plusMillis(1));
    }
}
