package org.lockstep.domain;

import java.time.Instant;
import java.util.Optional;

/**
 * One committed change of a customer, as the database's history trigger recorded it.
 *
 * @param customerId the customer
 * @param version    the version the change produced (for a delete: the version deleted)
 * @param op         what happened
 * @param changedBy  the Lockstep user, else the database role that wrote it
 * @param changedAt  when, by the database clock
 * @param before     the values before the change; empty for an insert
 * @param after      the values after the change; empty for a delete
 */
public record HistoryEntry(long customerId, long version, Op op, String changedBy, Instant changedAt,
        Optional<CustomerData> before, Optional<CustomerData> after) {

    /** The kind of change. */
    public enum Op { INSERT, UPDATE, DELETE }
}
