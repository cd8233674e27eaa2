package org.lockstep.domain;

import java.util.Optional;

/**
 * What a versioned save returned. A conflict is a value, not an exception: the caller must decide what to do with
 * theirs (PoEAA, Optimistic Offline Lock: "zero rows updated" means someone else committed first).
 */
public sealed interface SaveOutcome {

    /**
     * What to do with each kind of outcome, one method per kind: a kind added later breaks the compile of every
     * handler instead of falling through one.
     */
    interface Handler {
        void saved(Saved outcome);

        void conflict(Conflict outcome);

        void locked(Locked outcome);

        void leaseLost(LeaseLost outcome);
    }

    /** Calls the method of {@code handler} for this kind of outcome. */
    void handle(Handler handler);

    /** One row came back: the save committed and {@code saved} is the new base (version = base + 1). */
    record Saved(Customer saved) implements SaveOutcome {
        @Override
        public void handle(Handler handler) {
            handler.saved(this);
        }
    }

    /**
     * Zero rows came back: the row's version is no longer the base version, or the row is gone.
     *
     * @param theirs the record as the database holds it now; empty when it was deleted
     */
    record Conflict(Optional<Customer> theirs) implements SaveOutcome {

        /** Whether someone deleted the record. */
        public boolean deleted() {
            return theirs.isEmpty();
        }

        @Override
        public void handle(Handler handler) {
            handler.conflict(this);
        }
    }

    /**
     * Nothing was written: another session holds an unexpired lease on the record ("Locked by Alice until 10:07").
     *
     * @param holder who holds it and until when
     */
    record Locked(LeaseInfo holder) implements SaveOutcome {
        @Override
        public void handle(Handler handler) {
            handler.locked(this);
        }
    }

    /**
     * Nothing was written: the save named a fencing token that is no longer the record's lease (it lapsed and was
     * taken, or was broken or released).
     *
     * @param current who holds the record now, if anyone
     */
    record LeaseLost(Optional<LeaseInfo> current) implements SaveOutcome {
        @Override
        public void handle(Handler handler) {
            handler.leaseLost(this);
        }
    }
}
