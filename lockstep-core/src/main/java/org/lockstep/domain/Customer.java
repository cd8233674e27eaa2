package org.lockstep.domain;

import java.time.Instant;

/**
 * A customer as stored: identity, the values, and the version that an optimistic offline lock checks
 * (PoEAA, Optimistic Offline Lock). Every committed change raises {@code version} by one.
 *
 * @param id        the database identity
 * @param version   the integer version of the row; conflict detection compares only this
 * @param data      the values
 * @param updatedAt when the row was last written, by the database clock
 * @param updatedBy who wrote it last: a Lockstep user name or a database role; may be {@code null}
 */
public record Customer(long id, long version, CustomerData data, Instant updatedAt, String updatedBy) {

    /** This record's values with one field replaced, keeping identity and version. */
    public Customer withData(CustomerData newData) {
        return new Customer(id, version, newData, updatedAt, updatedBy);
    }
}
