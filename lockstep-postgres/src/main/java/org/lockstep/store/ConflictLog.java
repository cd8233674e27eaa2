package org.lockstep.store;

import java.time.Duration;
import org.jdbi.v3.core.Handle;

/**
 * The conflicts met per customer ({@code customer_conflict}, V8__conflict.sql), for hot-record advice. Only the
 * conflict paths of {@link JdbiCustomerRepository} write here: a successful save never pays for it.
 */
final class ConflictLog {

    /**
     * How long a conflict is kept: longer than any advice window ({@code HotRecordAdvice.WINDOW}, 7 days) and than
     * the conflict report's longest range (a year and a day, {@code ConflictReport.MAX_DAYS}); 30 days until V17.
     */
    static final Duration RETENTION = Duration.ofDays(400);

    /**
     * The start of a statement that records one conflict and purges every expired one, whoever's; the caller adds
     * the main query. The purge walks the {@code detected_at} index over only the rows that expired since the last
     * conflict anywhere, so it stays cheap, and it also clears the rows of deleted customers, which no later conflict
     * on their id would reach. Rows another conflict's purge is deleting right now are skipped, not waited for
     * ({@code SKIP LOCKED}): two conflicts on a hot record often come together, and neither should wait on, or
     * deadlock with, the other's clean-up. Each sub-statement of a WITH runs exactly once whether or not the main query reads it
     * (PostgreSQL docs, 7.8.4 Data-Modifying Statements in WITH). Binds {@code :id}, {@code :user} and
     * {@code :kind} and {@code :session} (the writer id); a blank user is recorded as the database role, as the
     * history triggers do.
     */
    static final String RECORD = """
            WITH purged AS (DELETE FROM customer_conflict WHERE id IN (SELECT id
                    FROM customer_conflict WHERE detected_at < now() - interval '%d days'
                    FOR UPDATE SKIP LOCKED)),
                recorded AS (INSERT INTO customer_conflict (customer_id, detected_by, kind, session_id)
                    VALUES (:id, coalesce(nullif(:user, ''), session_user), :kind, :session))
            """.formatted(RETENTION.toDays());

    static final String SAVE = "save";
    static final String DELETE = "delete";

    private ConflictLog() {
    }

    /** Records a conflict on its own: one extra statement on a path that already read theirs. */
    static void record(Handle h, long customerId, String user, String session, String kind) {
        h.createQuery(RECORD + " SELECT 1").bind("id", customerId).bind("user", user).bind("kind", kind)
                .bind("session", session).mapTo(Integer.class).one();
    }

    /** The conflicts on a customer within the last {@code window}, by the database clock. */
    static int recent(Handle h, long customerId, Duration window) {
        long count = h.createQuery("SELECT count(*) FROM customer_conflict WHERE customer_id = :id"
                + " AND detected_at > now() - make_interval(secs => :windowMs / 1000.0)")
                .bind("id", customerId).bind("windowMs", window.toMillis()).mapTo(Long.class).one();
        return (int) Math.min(count, Integer.MAX_VALUE);
    }
}
