package org.lockstep.store;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Jdbi;
import org.lockstep.domain.ChangeEvent;

/**
 * What a change feed's listener missed while it was away, read back from {@code customer_history}
 * (V2__history.sql), which the database writes for every change to a customer by any writer. Notifications sent
 * while a listener is disconnected are gone (PostgreSQL docs, LISTEN); the history is not.
 *
 * <p>A listener takes a {@link Mark} while it is connected and after each batch it hears; after a reconnection it
 * asks which customers have history rows the mark had not seen. History ids come from an identity column, so they
 * are handed out in order but committed in any order: a row may be invisible when the mark is taken (its transaction
 * still running) and commit later, during the gap, below the mark's highest id. A mark therefore also keeps the ids
 * below its highest that it could not see, its holes, and checks them again each time; a hole that stays empty was
 * rolled back. Holes are tracked among the last {@value #HOLE_WINDOW} ids only, so that rolled-back writes do not
 * pile up: a transaction that keeps a history row uncommitted while that many later changes commit is not covered.
 */
public final class MissedChanges {

    /** How many of the newest history ids a mark checks for rows that were not yet committed. */
    static final int HOLE_WINDOW = 10_000;

    /**
     * A point in the customer history, by id: everything up to {@code lastId} except the {@code holes} was committed
     * when it was taken.
     *
     * @param lastId the highest history id committed then (0 for an empty history)
     * @param holes  ids below {@code lastId}, within the last {@value #HOLE_WINDOW}, that were not committed then
     */
    public record Mark(long lastId, List<Long> holes) {

        /** The start of the history: every change is after it. */
        public static final Mark BEGINNING = new Mark(0, List.of());

        /** Copies the holes. */
        public Mark {
            holes = List.copyOf(holes);
        }
    }

    // One statement, so that the highest id and the holes come from the same snapshot.
    private static final String MARK = """
            WITH top AS (SELECT coalesce(max(id), 0) AS last_id FROM customer_history)
            SELECT top.last_id,
                   ARRAY(SELECT c.id
                         FROM (SELECT unnest(CAST(:holes AS bigint[])) AS id
                               UNION
                               SELECT generate_series(greatest(:after, top.last_id - :window) + 1, top.last_id)) c
                         WHERE c.id > top.last_id - :window
                           AND NOT EXISTS (SELECT 1 FROM customer_history h WHERE h.id = c.id)
                         ORDER BY c.id) AS holes
            FROM top
            """;

    // The latest history row of each customer changed after the mark: its version now, or the one deleted.
    private static final String CHANGED_SINCE = """
            SELECT DISTINCT ON (customer_id) id, customer_id, version, op
            FROM customer_history
            WHERE id > :after OR id = ANY(CAST(:holes AS bigint[]))
            ORDER BY customer_id, id DESC
            """;

    private final Jdbi jdbi;

    /** @param jdbi the database */
    public MissedChanges(Jdbi jdbi) {
        this.jdbi = jdbi;
    }

    /**
     * The history's mark now, following {@code previous}: its holes that are still empty stay holes.
     *
     * @param previous the last mark taken, or {@link Mark#BEGINNING}
     * @throws org.lockstep.domain.StoreUnavailableException when the database cannot be read
     */
    public Mark markAfter(Mark previous) {
        return DatabaseCalls.read(() -> jdbi.withHandle(h -> h.createQuery(MARK)
                .bind("holes", previous.holes().toArray(Long[]::new))
                .bind("after", previous.lastId())
                .bind("window", HOLE_WINDOW)
                .map((rs, ctx) -> new Mark(rs.getLong("last_id"),
                        List.of((Long[]) rs.getArray("holes").getArray())))
                .one()));
    }

    /**
     * One change per customer changed after {@code mark}, oldest change first: the customer's latest history entry,
     * i.e. its current version and how it got there ({@code INSERT}, {@code UPDATE}, or {@code DELETE} with the
     * version deleted). The events carry no session: the history does not record one.
     *
     * @throws org.lockstep.domain.StoreUnavailableException when the database cannot be read
     */
    public List<ChangeEvent> customersChangedSince(Mark mark) {
        record Latest(long historyId, ChangeEvent event) {
        }
        return DatabaseCalls.read(() -> jdbi.withHandle(h -> h.createQuery(CHANGED_SINCE)
                .bind("after", mark.lastId())
                .bind("holes", mark.holes().toArray(Long[]::new))
                .map((rs, ctx) -> new Latest(rs.getLong("id"), new ChangeEvent("customer", rs.getLong("customer_id"),
                        rs.getLong("version"), rs.getString("op"), Optional.empty())))
                .list()))
                .stream().sorted(Comparator.comparingLong(Latest::historyId)).map(Latest::event).toList();
    }
}
