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
}
