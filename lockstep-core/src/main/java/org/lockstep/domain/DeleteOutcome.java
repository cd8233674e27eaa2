package org.lockstep.domain;

import java.util.Optional;

/** What a versioned delete ({@code DELETE … WHERE id = ? AND version = ?}) returned. */
public sealed interface DeleteOutcome {

    /**
     * What to do with each kind of outcome, one method per kind: a kind added later breaks the compile of every
     * handler instead of falling through one.
     */
    interface Handler {
        void deleted(Deleted outcome);

        void conflict(Conflict outcome);

        void locked(Locked outcome);

        void leaseLost(LeaseLost outcome);
    }

    /** Calls the method of {@code handler} for this kind of outcome. */
    void handle(Handler handler);

    /** The row at the expected version was deleted. */
    record Deleted(long id) implements DeleteOutcome {
        @Override
        public void handle(Handler handler) {
            handler.deleted(this);
        }
    }

    /**
     * Nothing was deleted: someone changed the record since it was loaded, or deleted it already.
     *
     * @param theirs the record now; empty when it no longer exists
     */
    record Conflict(Optional<Customer> theirs) implements DeleteOutcome {
        @Override
        public void handle(Handler handler) {
            handler.conflict(this);
        }
    }

    /** Nothing was deleted: another session holds an unexpired lease on the record. */
    record Locked(LeaseInfo holder) implements DeleteOutcome {
        @Override
        public void handle(Handler handler) {
            handler.locked(this);
        }
    }

    /** Nothing was deleted: the fencing token named is no longer the record's lease. */
    record LeaseLost(Optional<LeaseInfo> current) implements DeleteOutcome {
        @Override
        public void handle(Handler handler) {
            handler.leaseLost(this);
        }
    }
}
