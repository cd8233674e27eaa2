package org.lockstep.domain;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

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
 * @param restoredFrom for an update that restored an earlier version ("Restore this version", {@code lockstep
 *                   restore}): that version, which the database checked the customer's history holds; empty for every
 *                   other change
 */
public record HistoryEntry(long customerId, long version, Op op, String changedBy, Instant changedAt,
        Optional<CustomerData> before, Optional<CustomerData> after, OptionalLong restoredFrom) {

    /** Checks that only an update names a version it restored. */
    public HistoryEntry {
        Objects.requireNonNull(restoredFrom, "restoredFrom");
        if (restoredFrom.isPresent() && op != Op.UPDATE) {
            throw new IllegalArgumentException("only an update restores a version, not a " + op);
        }
    }

    /** A change that restored no earlier version. */
    public HistoryEntry(long customerId, long version, Op op, String changedBy, Instant changedAt,
            Optional<CustomerData> before, Optional<CustomerData> after) {
        this(customerId, version, op, changedBy, changedAt, before, after, OptionalLong.empty());
    }

    /** The kind of change. */
    public enum Op { INSERT, UPDATE, DELETE }
}
