package org.lockstep.domain;

import java.time.Instant;

/**
 * A lease this session holds on a record (PoEAA, Pessimistic Offline Lock; the token is a fencing token, DDIA ch. 8).
 *
 * @param recordId    the customer
 * @param token       the fencing token; a save under this lease names it and fails once a newer grant exists
 * @param acquiredAt  when it was granted, by the database clock
 * @param expiresAt   when it lapses unless renewed, by the database clock
 * @param remainingMs how long it had left when the database answered, in ms — the basis of the client's local,
 *                    monotonic deadline (the client never compares its own clock with {@code expiresAt})
 */
public record Lease(long recordId, long token, Instant acquiredAt, Instant expiresAt, long remainingMs) {
}
