package org.lockstep.domain;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Set;

/**
 * What the database recorded about one customer, for its timeline: its committed changes ({@code customer_history}),
 * its lease trail ({@code lease_event}) and the conflicts its writers met ({@code customer_conflict}), each oldest
 * first and each cut to the latest {@link #LIMIT} rows. Reads, renewals one by one and refused fenced saves are not
 * recorded by the database, so they are not here (docs/decisions/0014-timeline.md).
 *
 * @param customerId  the customer
 * @param changes     inserts, updates and deletes, with the values before and after each
 * @param leaseEvents grants (with their last expiry), releases, takeovers, breaks and losses
 * @param conflicts   saves and deletes that matched zero rows
 * @param readAt      the database clock when this was read: a grant whose expiry is earlier and that nothing ended
 *                    has lapsed
 * @param cut         whether older rows of any of the three were left out
 * @param recreatedAs after a deletion: the customer created later with the same external reference, if any
 * @param mergedVersions the versions among {@code changes} that a merge saved, as its writer recorded them
 *                    ({@code conflict_event} 'merge_saved', V17): a save is a merge because its writer said so, never
 *                    because its writer's name met a conflict just before
 */
public record RecordedStory(long customerId, List<HistoryEntry> changes, List<LeaseEvent> leaseEvents,
        List<ConflictRecord> conflicts, Instant readAt, boolean cut, OptionalLong recreatedAs,
        Set<Long> mergedVersions) {

    /** How many rows of each table a story holds at most: the latest ones. */
    public static final int LIMIT = 400;

    /** Copies the lists. */
    public RecordedStory {
        changes = List.copyOf(changes);
        leaseEvents = List.copyOf(leaseEvents);
        conflicts = List.copyOf(conflicts);
        mergedVersions = Set.copyOf(mergedVersions);
        Objects.requireNonNull(readAt, "readAt");
        Objects.requireNonNull(recreatedAs, "recreatedAs");
    }

    /** Whether the database recorded nothing at all about this id: no customer ever had it. */
    public boolean isEmpty() {
        return changes.isEmpty() && leaseEvents.isEmpty() && conflicts.isEmpty();
    }
}
