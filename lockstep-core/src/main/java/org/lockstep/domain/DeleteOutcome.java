package org.lockstep.domain;

import java.util.Optional;

/** What a versioned delete ({@code DELETE … WHERE id = ? AND version = ?}) returned. */
public sealed interface DeleteOutcome {

    /** The row at the expected version was deleted. */
    record Deleted(long id) implements DeleteOutcome {
    }

    /**
     * Nothing was deleted: someone changed the record since it was loaded, or deleted it already.
     *
     * @param theirs the record now; empty when it no longer exists
     */
    record Conflict(Optional<Customer> theirs) implements DeleteOutcome {
    }

    /** Nothing was deleted: another session holds an unexpired lease on the record. */
    record Locked(LeaseInfo holder) implements DeleteOutcome {
    }

    /** Nothing was deleted: the fencing token named is no longer the record's lease. */
    record LeaseLost(Optional<LeaseInfo> current) implements DeleteOutcome {
    }
}
