package org.lockstep.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.UUID;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.DeleteOutcome;
import org.lockstep.domain.Lease;
import org.lockstep.domain.LeaseRepository;
import org.lockstep.server.Database;
import org.lockstep.testing.CustomerBuilder;
import org.lockstep.testing.LeaseRepositoryContractTest;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.FreshDatabase;

/**
 * The lease repository's contract, kept by the Jdbi store: one database for the class's cases, the database clock
 * for every lease. What only PostgreSQL shows — saves fenced by a lease, grants racing on one row, waits for a row
 * lock — stays in {@code JdbiLeaseRepositoryTest}, {@code LeaseTimesAfterWaitTest} and {@code RowLockWaitTest}.
 */
@DatabaseTest
class JdbiLeaseRepositoryContractTest extends LeaseRepositoryContractTest {

    @FreshDatabase
    static Database db;

    @Override
    protected LeaseRepository client(String holder) {
        return new JdbiLeaseRepository(db.jdbi(), holder, holder + "-" + UUID.randomUUID());
    }

    @Override
    protected long aCustomer() {
        return new JdbiCustomerRepository(db.jdbi(), "Setup")
                .create(CustomerBuilder.aCustomer().with(CustomerField.EXTERNAL_REF, "LC-" + UUID.randomUUID()).build())
                .id();
    }

    /** As a script on the database would (no lease runs when the contract calls this). */
    @Override
    protected void deleteCustomer(long recordId) {
        db.jdbi().useHandle(h -> h.execute("DELETE FROM customer WHERE id = ?", recordId));
    }

    @Override
    protected void deleteAsHolder(long recordId, LeaseRepository holder, Lease lease) {
        JdbiCustomerRepository repo = new JdbiCustomerRepository(db.jdbi(), "Alice", holder.sessionId());
        long version = repo.find(recordId).orElseThrow().version();
        assertThat(repo.deleteUnderLease(recordId, version, lease.token())).isInstanceOf(DeleteOutcome.Deleted.class);
    }

    /**
     * Moves the record's lease and its trail into the past by as much as the lease had left, and a millisecond more:
     * what the database clock would show had the TTL passed with no renewal.
     */
    @Override
    protected void lapse(long recordId) {
        db.jdbi().useHandle(h -> h.createUpdate("""
                WITH shift AS (
                    SELECT expires_at - clock_timestamp() + interval '1 millisecond' AS by
                    FROM record_lease WHERE record_id = :id
                ), lease AS (
                    UPDATE record_lease l SET acquired_at = l.acquired_at - s.by, expires_at = l.expires_at - s.by
                    FROM shift s WHERE l.record_id = :id
                )
                UPDATE lease_event e SET at = e.at - s.by, expires_at = e.expires_at - s.by
                FROM shift s WHERE e.record_id = :id""").bind("id", recordId).execute());
    }
}
