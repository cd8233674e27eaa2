package org.lockstep.domain;

/** What an attempt to take a record's lease returned. */
public sealed interface AcquireOutcome {

    /** The lease is ours, with a new fencing token. */
    record Granted(Lease lease) implements AcquireOutcome {
    }

    /** Someone else holds an unexpired lease. */
    record HeldByOther(LeaseInfo holder) implements AcquireOutcome {
    }

    /** The record does not exist (any more): there is nothing to lock. */
    record Gone(long recordId) implements AcquireOutcome {
    }
}
