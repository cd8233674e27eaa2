package org.lockstep.store;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.mapper.RowMapper;
import org.jdbi.v3.core.transaction.TransactionIsolationLevel;
import org.lockstep.domain.ConflictRecord;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.HistoryEntry;
import org.lockstep.domain.LeaseEvent;
import org.lockstep.domain.RecordedStory;

/**
 * Reads one customer's {@link RecordedStory} for its timeline: the latest rows of {@code customer_history},
 * {@code lease_event} and {@code customer_conflict}, each through its index by customer (V2, V3, V8) and each bounded
 * by {@link RecordedStory#LIMIT}, in one REPEATABLE READ transaction so that the three agree with each other and with
 * the clock read beside them (PostgreSQL docs, 13.2.2 Repeatable Read Isolation Level).
 */
final class StoryQueries {

    /**
     * The latest {@code :limit} history rows of {@code :id} and one more, oldest first, with the old row of each
     * UPDATE taken from its predecessor's new row (V16 keeps the new row only). The extra, oldest row has no
     * predecessor here and is only there to give the next one its old row; the caller drops it. Ordered by version
     * (a customer's versions only grow; its DELETE repeats the last one, after it by id) so that the index
     * {@code customer_history (customer_id, version)} is read backwards and stops after {@code :limit} rows: ordered by
     * id alone, every history row of the customer was read and sorted, 20,000 for a busy one.
     */
    static final String CHANGES = """
            SELECT customer_id, version, op, changed_by, changed_at, old_row::text AS old_row, new_row::text AS new_row,
                   restored_from
            FROM (SELECT id, customer_id, version, op, changed_by, changed_at,
                         CASE WHEN op = 'UPDATE' THEN coalesce(old_row, lag(new_row) OVER (ORDER BY version, id))
                              ELSE old_row END AS old_row,
                         new_row, restored_from
                  FROM (SELECT * FROM customer_history WHERE customer_id = :id
                        ORDER BY version DESC, id DESC LIMIT :limit) latest
                 ) h
            ORDER BY version, id
            """;
    private static final String LEASE_EVENTS = """
            SELECT * FROM (SELECT id, record_id, token, holder, event, actor, at, expires_at FROM lease_event
                           WHERE record_id = :id ORDER BY id DESC LIMIT :limit) latest
            ORDER BY id
            """;
    private static final String CONFLICTS = """
            SELECT * FROM (SELECT id, customer_id, detected_at, detected_by, kind, session_id FROM customer_conflict
                           WHERE customer_id = :id ORDER BY detected_at DESC, id DESC LIMIT :limit) latest
            ORDER BY detected_at, id
            """;
    /**
     * The versions a merge saved, among the story's changes: bounded by the time of the oldest change kept, so that
     * the index {@code conflict_event (happened_at)} serves it (a merge is recorded after its save, never before).
     */
    private static final String MERGES = """
            SELECT DISTINCT version FROM conflict_event
            WHERE happened_at >= :since AND kind = 'merge_saved' AND customer_id = :id AND version IS NOT NULL
            """;
    /**
     * The first customer created after {@code :id} with the deleted one's external reference: found by its creation
     * in the history (index {@code customer_history_created_ref}, V18), so a re-created customer deleted again is
     * still found, and in the live table (unique, so indexed) for one whose history an administrator purged.
     */
    static final String RECREATED = """
            SELECT min(id) FROM (
                SELECT customer_id AS id FROM customer_history
                WHERE op = 'INSERT' AND new_row ->> 'external_ref' = :ref AND customer_id > :id
                UNION ALL
                SELECT id FROM customer WHERE external_ref = :ref AND id > :id) created
            """;

    private StoryQueries() {
    }

    /** Reads the story of customer {@code id}; {@code changes} maps history rows as the history repository does. */
    static RecordedStory read(Handle h, long id, RowMapper<HistoryEntry> changes) {
        return h.inTransaction(TransactionIsolationLevel.REPEATABLE_READ, tx -> {
            int fetch = RecordedStory.LIMIT + 1;
            List<HistoryEntry> history = new ArrayList<>(tx.createQuery(CHANGES).bind("id", id)
                    .bind("limit", fetch).map(changes).list());
            List<LeaseEvent> leases = new ArrayList<>(tx.createQuery(LEASE_EVENTS).bind("id", id)
                    .bind("limit", fetch).map((rs, ctx) -> new LeaseEvent(rs.getLong("record_id"), rs.getLong("token"),
                            rs.getString("holder"),
                            LeaseEvent.Kind.valueOf(rs.getString("event").toUpperCase(Locale.ROOT)),
                            rs.getString("actor"), instant(rs.getObject("at", OffsetDateTime.class)),
                            Optional.ofNullable(rs.getObject("expires_at", OffsetDateTime.class))
                                    .map(OffsetDateTime::toInstant)))
                    .list());
            List<ConflictRecord> conflicts = new ArrayList<>(tx.createQuery(CONFLICTS).bind("id", id)
                    .bind("limit", fetch).map((rs, ctx) -> new ConflictRecord(rs.getLong("customer_id"),
                            instant(rs.getObject("detected_at", OffsetDateTime.class)), rs.getString("detected_by"),
                            ConflictRecord.Kind.valueOf(rs.getString("kind").toUpperCase(Locale.ROOT)),
                            Optional.ofNullable(rs.getString("session_id"))))
                    .list());
            boolean cut = dropOldest(history) | dropOldest(leases) | dropOldest(conflicts);
            Instant readAt = instant(tx.createQuery("SELECT clock_timestamp()").mapTo(OffsetDateTime.class).one());
            Set<Long> merged = history.isEmpty() ? Set.of() : Set.copyOf(tx.createQuery(MERGES).bind("id", id)
                    .bind("since", history.get(0).changedAt().atOffset(ZoneOffset.UTC)).mapTo(Long.class).list());
            return new RecordedStory(id, history, leases, conflicts, readAt, cut, recreated(tx, id, history),
                    merged);
        });
    }

    /** Drops the extra oldest row fetched beyond the limit; answers whether there was one. */
    private static boolean dropOldest(List<?> rows) {
        if (rows.size() > RecordedStory.LIMIT) {
            rows.remove(0);
            return true;
        }
        return false;
    }

    private static OptionalLong recreated(Handle h, long id, List<HistoryEntry> history) {
        if (history.isEmpty() || history.get(history.size() - 1).op() != HistoryEntry.Op.DELETE) {
            return OptionalLong.empty();
        }
        Object ref = history.get(history.size() - 1).before().map(d -> d.get(CustomerField.EXTERNAL_REF))
                .orElse(null);
        if (ref == null) {
            return OptionalLong.empty();
        }
        return h.createQuery(RECREATED).bind("ref", ref.toString()).bind("id", id).mapTo(Long.class).findOne()
                .filter(Objects::nonNull).map(OptionalLong::of).orElse(OptionalLong.empty());
    }

    private static Instant instant(OffsetDateTime t) {
        return t.toInstant();
    }
}
