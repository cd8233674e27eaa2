package org.lockstep.store;

import java.util.Optional;
import org.jdbi.v3.core.Handle;

/**
 * Who holds a row lock (a customer's, or one of the contention lab's rows), for the message of a write that gave up
 * waiting for it. A row lock lives in the row itself: its {@code xmax} is the locking transaction's id while that
 * transaction runs (PostgreSQL docs, 13.3.2 "Row-Level Locks" and 5.6 "System Columns"), which
 * {@code pg_stat_activity.backend_xid} names. Best effort: a row locked by several sessions at once (a multixact), or
 * a server that hides other roles' sessions, tells nothing.
 */
final class RowLockHolder {

    private static final String DESCRIBE = """
            SELECT coalesce(nullif(a.application_name, ''), 'a database session')
                   || coalesce(', role ' || a.usename, '')
                   || coalesce(', from ' || host(a.client_addr), '')
                   || ', in a transaction open for '
                   || greatest(0, extract(epoch FROM clock_timestamp() - a.xact_start))::bigint || ' s'
            FROM pg_stat_activity a
            WHERE a.backend_xid IN (%s) AND a.pid <> pg_backend_pid()
            LIMIT 1
            """;

    private RowLockHolder() {
    }

    /** A short description of the session holding the row of customer {@code id}, e.g. "psql, role ops, …". */
    static Optional<String> describe(Handle h, long id) {
        return describe(h, "SELECT xmax FROM customer WHERE id = :id", "id", id);
    }

    /** Who holds the contention lab's row {@code name} ({@code lab_stock}), or its lease's row ({@code lab_lease}). */
    static Optional<String> describeLabRow(Handle h, String name) {
        return describe(h, "SELECT xmax FROM lab_stock WHERE name = :name UNION ALL SELECT l.xmax FROM lab_lease l"
                + " JOIN lab_stock s ON s.id = l.stock_id WHERE s.name = :name", "name", name);
    }

    /** @param xmaxOfRows a query of the {@code xmax} of the rows a write waited for, binding {@code :key} */
    private static Optional<String> describe(Handle h, String xmaxOfRows, String key, Object value) {
        try {
            return h.createQuery(DESCRIBE.formatted(xmaxOfRows)).bind(key, value).mapTo(String.class).findOne();
        } catch (RuntimeException e) {
            return Optional.empty(); // the description is a courtesy; the write's failure is what matters
        }
    }
}
