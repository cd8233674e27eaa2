package org.lockstep.domain;

import java.util.Optional;

/**
 * What a versioned save returned. A conflict is a value, not an exception: the caller must decide what to do with
 * theirs (PoEAA, Optimistic Offline Lock: "zero rows updated" means someone else committed first).
 */
public sealed interface SaveOutcome {

    /** One row came back: the save committed and {@code saved} is the new base (version = base + 1). */
    record Saved(Customer saved) implements SaveOutcome {
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
    }

    /**
     * Nothing was written: another session holds an unexpired lease on the record ("Locked by Alice until 10:07").
     *
     * @param holder who holds it and until when
     */
    record Locked(LeaseInfo holder) implements SaveOutcome {
    }

    /**
     * Nothing was written: the save named a fencing token that is no longer the record's lease (it lapsed and was
     * taken, or was broken or released).
     *
     * @param current who holds the record now, if anyone
     */
    record LeaseLost(java.util.Optional<LeaseInfo> current) implements SaveOutcome {
    }
}
