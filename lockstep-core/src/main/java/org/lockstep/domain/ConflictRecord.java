package org.lockstep.domain;

import java.time.Instant;
import java.util.Optional;

/**
 * A versioned save or delete that matched zero rows because the customer had moved on (or was gone), as the database
 * recorded it in {@code customer_conflict} (V8__conflict.sql).
 *
 * @param customerId the customer
 * @param at         when, by the database clock
 * @param by         the Lockstep user whose write met the newer version
 * @param kind       whether a save or a delete met it
 * @param session    the session (writer id) whose write met it (V17); empty for rows recorded before V17. Many desks
 *                   share one user name, so only the session says which writer met the conflict
 */
public record ConflictRecord(long customerId, Instant at, String by, Kind kind, Optional<String> session) {

    /** Checks the session is given (possibly empty). */
    public ConflictRecord {
        java.util.Objects.requireNonNull(session, "session");
    }

    /** Which write met the newer version. */
    public enum Kind { SAVE, DELETE }
}
