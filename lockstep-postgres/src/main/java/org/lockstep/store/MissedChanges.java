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
 * pile up. A transaction that keeps history rows uncommitted while more changes than that commit (an import of
 * 20,000 rows beside a few saves, a psql session left open) is caught by its transaction id instead: a mark also
 * keeps the ids of the transactions running when it was taken ({@code pg_snapshot_xip}, PostgreSQL docs, 9.28
 * "Transaction ID and Snapshot Information Functions"), and the history rows of those that committed since are
 * listed whatever their id (a history row's {@code xmin} is the transaction that wrote it: rows are never updated).
 * Not covered: rows written in a subtransaction (a SAVEPOINT) of such a transaction, more than
 * {@value #HOLE_WINDOW} ids below the mark, since a snapshot does not list subtransactions.
 */
public final class MissedChanges {

    /** How many of the newest history ids a mark checks for rows that were not yet committed. */
    static final int HOLE_WINDOW = 10_000;

    /**
     * A point in the customer history, by id: everything up to {@code lastId} except the {@code holes} was committed
     * when it was taken.
     *
     * @param lastId  the highest history id committed then (0 for an empty history)
     * @param holes   ids below {@code lastId}, within the last {@value #HOLE_WINDOW}, that were not committed then
     * @param running the transactions running then (64-bit transaction ids, {@code xid8})
     */
    public record Mark(long lastId, List<Long> holes, List<Long> running) {

        /** The start of the history: every change is after it. */
        public static final Mark BEGINNING = new Mark(0, List.of(), List.of());

        /** Copies the lists. */
        public Mark {
            holes = List.copyOf(holes);
            running = List.copyOf(running);
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
                         ORDER BY c.id) AS holes,
                   ARRAY(SELECT CAST(CAST(x AS text) AS bigint) FROM pg_snapshot_xip(pg_current_snapshot()) x) AS running
            FROM top
            """;

    // The latest history row of each customer changed after the mark: its version now, or the one deleted.
    private static final String CHANGED_SINCE = """
            SELECT DISTINCT ON (customer_id) id, customer_id, version, op
            FROM customer_history
            WHERE id > :after OR id = ANY(CAST(:holes AS bigint[]))%s
            ORDER BY customer_id, id DESC
            """;
    // Rows of transactions that ran at the mark and committed since, whatever their id: xmin is a 32-bit xid, the
    // mark's are 64-bit (epoch and xid). It costs a scan of the history, so it is added only when there are such.
    private static final String OR_WRITTEN_BY =
            " OR CAST(CAST(xmin AS text) AS bigint) = ANY(CAST(:writers AS bigint[]))";
    // Which of the mark's running transactions committed since. NULL: too old for the server to tell; counted in.
    private static final String COMMITTED_SINCE = """
            SELECT x % 4294967296 FROM unnest(CAST(:running AS bigint[])) x
            WHERE coalesce(pg_xact_status(CAST(CAST(x AS text) AS xid8)), 'committed') = 'committed'
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
                        List.of((Long[]) rs.getArray("holes").getArray()),
                        List.of((Long[]) rs.getArray("running").getArray())))
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
        return DatabaseCalls.read(() -> jdbi.withHandle(h -> {
            List<Long> writers = mark.running().isEmpty() ? List.of() : h.createQuery(COMMITTED_SINCE)
                    .bind("running", mark.running().toArray(Long[]::new)).mapTo(Long.class).list();
            org.jdbi.v3.core.statement.Query query = h.createQuery(CHANGED_SINCE.formatted(
                    writers.isEmpty() ? "" : OR_WRITTEN_BY));
            if (!writers.isEmpty()) {
                query.bind("writers", writers.toArray(Long[]::new));
            }
            return query.bind("after", mark.lastId())
                    .bind("holes", mark.holes().toArray(Long[]::new))
                    .map((rs, ctx) -> new Latest(rs.getLong("id"), new ChangeEvent("customer",
                            rs.getLong("customer_id"), rs.getLong("version"), rs.getString("op"), Optional.empty())))
                    .list();
        }))
                .stream().sorted(Comparator.comparingLong(Latest::historyId)).map(Latest::event).toList();
    }
}
