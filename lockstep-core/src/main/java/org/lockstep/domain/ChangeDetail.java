package org.lockstep.domain;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * What a change notification leaves out, read back from what the database recorded: who made the change, when by the
 * database clock, which fields it changed and which customer it was. A notification carries identifiers only
 * ({@link ChangeEvent}); this is how {@code lockstep watch} tells a reader "Ana changed city, phone" instead of
 * "customer 63 v5 UPDATE".
 *
 * @param user    the Lockstep user the history or lease trail names (a display name: many desks share one login)
 * @param at      when, by the database clock; empty when the database did not record it (a lease removed with its
 *                customer)
 * @param fields  for a customer update, the fields whose values changed (in form order); empty otherwise
 * @param company the customer's company after the change (before it, for a delete), when it has one
 * @param lease   for a lease change, what happened to the lease; empty for customer changes
 */
public record ChangeDetail(String user, Optional<Instant> at, List<CustomerField> fields, Optional<String> company,
        Optional<LeaseStep> lease) {

    /** Copies the field list. */
    public ChangeDetail {
        fields = List.copyOf(fields);
    }

    /**
     * What a lease change was, from the lease's audit trail ({@code lease_event}, V3).
     *
     * @param event     {@code acquired}, {@code expired_takeover}, {@code released}, {@code broken}, {@code lost},
     *                  or {@code removed} (the lease row went with its customer)
     * @param actor     who did it (for a break: who broke it; otherwise the holder)
     * @param holder    whose lease it is
     * @param expiresAt for a lease in force, when it lapses unless renewed (database clock)
     */
    public record LeaseStep(String event, String actor, String holder, Optional<Instant> expiresAt) {
    }
}
