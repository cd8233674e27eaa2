package org.lockstep.domain;

import java.time.Instant;

/**
 * Who holds a record's lease, as others see it.
 *
 * @param recordId   the customer
 * @param holder     the operator's name
 * @param sessionId  the holding client session
 * @param token      the fencing token of the grant
 * @param acquiredAt when it was granted, by the database clock
 * @param expiresAt  when it lapses unless renewed, by the database clock
 */
public record LeaseInfo(long recordId, String holder, String sessionId, long token, Instant acquiredAt,
        Instant expiresAt) {
}
