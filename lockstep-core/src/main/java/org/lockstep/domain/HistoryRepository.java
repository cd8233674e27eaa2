package org.lockstep.domain;

import java.util.List;
import java.util.Optional;

/**
 * The version history of customers, written by database triggers on every change by any writer. Methods block:
 * call them off the JavaFX thread. They throw {@link StoreUnavailableException} when the database fails.
 */
public interface HistoryRepository {

    /** Every recorded change of a customer, oldest first. */
    List<HistoryEntry> history(long customerId);

    /** The customer's values as of a version (what that version's change left), or empty when none was recorded. */
    Optional<CustomerData> valuesAt(long customerId, long version);

    /** The changes after {@code fromVersion} up to and including {@code toVersion}, oldest first. */
    List<HistoryEntry> between(long customerId, long fromVersion, long toVersion);

    /**
     * The customer's deletion, the latest if several were recorded: what tells a customer that was deleted from an
     * id that never was a customer's. Empty for both an id never used and a customer that still exists.
     */
    Optional<HistoryEntry> deletion(long customerId);

    /**
     * Everything the database recorded about a customer, for its timeline: the latest changes, lease events and
     * conflicts ({@link RecordedStory#LIMIT} of each at most), read in one transaction. An id no customer ever had
     * gives an empty story.
     */
    RecordedStory story(long customerId);
}
