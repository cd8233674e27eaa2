package org.lockstep.domain;

import java.time.Instant;
import java.util.Optional;

/**
 * One entry of the lease audit trail ({@code lease_event}).
 *
 * @param recordId  the customer
 * @param token     the grant's fencing token
 * @param holder    the lease holder concerned
 * @param kind      what happened
 * @param actor     who did it (for {@link Kind#BROKEN}: who broke the lock)
 * @param at        when, by the database clock
 * @param expiresAt for grants: the lease's last expiry, renewals included
 */
public record LeaseEvent(long recordId, long token, String holder, Kind kind, String actor, Instant at,
        Optional<Instant> expiresAt) {

    /** The kinds of lease events. */
    public enum Kind {
        ACQUIRED, RELEASED, EXPIRED_TAKEOVER, BROKEN, LOST;

        /** The database's name of the kind, e.g. {@code expired_takeover}. */
        public String dbName() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }
}
