package org.lockstep.store;

import static org.lockstep.text.Texts.tr;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.lockstep.domain.RecordBusyException;

/**
 * Who holds a row lock (a customer's, or one of the contention lab's rows), for the message of a write that gave up
 * waiting for it. A row lock lives in the row itself: its {@code xmax} is the locking transaction's id while that
 * transaction runs (PostgreSQL docs, 13.3.2 "Row-Level Locks" and 5.6 "System Columns"), which
 * {@code pg_stat_activity.backend_xid} names. Best effort: a row locked by several sessions at once (a multixact), or
 * a server that hides other roles' sessions, tells nothing.
 */
final class RowLockHolder {

    // A role without pg_read_all_stats sees another role's session without its client address and transaction start
    // (PostgreSQL docs, 27.2.3 pg_stat_activity), though it sees the session's application, role and backend_xid:
    // then those parts are null and left out. greatest(0, NULL) is 0, not NULL (GREATEST ignores NULL arguments,
    // docs 9.18.4), which made a psql transaction of the superuser, open for 6 s, read "open for 0 s" to an operator:
    // the clamp applies only to a start the server told. Whole seconds the transaction has been open, rounded down.
    // The parts come as columns, so that the sentence is written in the operator's language (describe).
    private static final String WHO = """
            nullif(a.application_name, '') AS app, a.usename AS role, host(a.client_addr) AS addr,
                   CASE WHEN a.xact_start IS NOT NULL
                        THEN greatest(0, floor(extract(epoch FROM clock_timestamp() - a.xact_start)))::bigint
                   END AS open_s""";

    // The select keyword for a part the server did not tell (ICU's select needs a keyword, not null).
    private static final String NONE = "none";

    private static final String DESCRIBE = "SELECT " + WHO + """

            FROM pg_stat_activity a
            WHERE a.backend_xid IN (%s) AND a.pid <> pg_backend_pid()
            LIMIT 1
            """;

    private static final String HELD_CUSTOMER = "SELECT c.id, " + WHO + """

            FROM customer c JOIN pg_stat_activity a ON a.backend_xid = c.xmax
            WHERE c.id = ANY(CAST(:ids AS bigint[])) AND a.pid <> pg_backend_pid()
            ORDER BY c.id
            LIMIT 1
            """;

    /**
     * A customer's row held by another session.
     *
     * @param id  the customer
     * @param who the session, e.g. "psql, role ops, in a transaction open for 42 s"
     */
    record Held(long id, String who) {
    }

    private RowLockHolder() {
    }

    /** A short description of the session holding the row of customer {@code id}, e.g. "psql, role ops, …". */
    static Optional<String> describe(Handle h, long id) {
        return held(h, List.of(id)).map(Held::who);
    }

    /** The first of the customers {@code ids} (by id) whose row another session holds, and that session. */
    static Optional<Held> held(Handle h, List<Long> ids) {
        try {
            return h.createQuery(HELD_CUSTOMER).bind("ids", ids.toArray(Long[]::new))
                    .map((rs, ctx) -> new Held(rs.getLong("id"), describe(rs))).findOne();
        } catch (RuntimeException e) {
            return Optional.empty(); // the description is a courtesy; the write's failure is what matters
        }
    }

    /**
     * An import gave up waiting for a customer's row (lock_timeout): says which customer, on which line of the
     * file, and who holds it, as a save does — "Customer 7 (line 12) is being written by another session (psql, …);
     * nothing was imported — try again in a moment".
     *
     * @param jdbi     asked on a connection of its own: the import's transaction was aborted by the timeout
     * @param linesById the file's line that updates each customer, by customer id, read on that connection
     * @param timeout  the import's failure, kept as the cause
     */
    static RecordBusyException importBusy(Jdbi jdbi, Function<Handle, Map<Long, Long>> linesById,
            RuntimeException timeout) {
        Map<Long, Long> lineById = Map.of();
        Optional<Held> held = Optional.empty();
        // A handle of its own: withHandle here would reuse the import's handle, whose transaction the timeout aborted.
        try (Handle other = jdbi.open()) {
            lineById = linesById.apply(other);
            held = held(other, List.copyOf(lineById.keySet()));
        } catch (RuntimeException e) {
            timeout.addSuppressed(e); // the description is a courtesy; the import's failure is what matters
        }
        Map<Long, Long> lines = lineById;
        String what = held.map(x -> tr("Customer {0} (line {1}) is being written by another session ({2}); nothing "
                + "was imported — try again in a moment", x.id(), lines.get(x.id()), x.who()))
                .orElse(tr("A customer this file updates is being written by another session; nothing was imported "
                        + "— try again in a moment"));
        return new RecordBusyException(what, held.map(Held::who), timeout);
    }

    /** Who holds the contention lab's row {@code name} ({@code lab_stock}), or its lease's row ({@code lab_lease}). */
    static Optional<String> describeLabRow(Handle h, String name) {
        try {
            return h.createQuery(DESCRIBE.formatted("""
                            SELECT xmax FROM lab_stock WHERE name = :name
                            UNION ALL
                            SELECT l.xmax FROM lab_lease l JOIN lab_stock s ON s.id = l.stock_id WHERE s.name = :name
                            """))
                    .bind("name", name).map((rs, ctx) -> describe(rs)).findOne();
        } catch (RuntimeException e) {
            return Optional.empty(); // the description is a courtesy; the write's failure is what matters
        }
    }

    /**
     * The session in the current language, from {@link #WHO}'s columns: "psql, role ops, from 10.0.0.7, in a
     * transaction open for 42 s"; the parts the server hid are left out.
     */
    private static String describe(ResultSet rs) throws SQLException {
        String app = rs.getString("app");
        long open = rs.getLong("open_s");
        boolean openKnown = !rs.wasNull();
        return tr("{0}{1, select, none {} other {, role {1}}}{2, select, none {} other {, from {2}}}"
                + "{3, select, none {} other {, in a transaction open for {3} s}}",
                app == null ? tr("a database session") : app, orNone(rs.getString("role")),
                orNone(rs.getString("addr")), openKnown ? Long.toString(open) : NONE);
    }

    private static String orNone(String part) {
        return part == null ? NONE : part;
    }
}
