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
     * Records one conflict and purges every expired one, whoever's, through the owner's function (operators cannot
     * write the table: R__40_audit.sql, which keeps {@link #RETENTION} in days). The purge walks the {@code
     * detected_at} index over only the rows that expired since the last conflict anywhere, so it stays cheap, and it
     * also clears the rows of deleted customers, which no later conflict on their id would reach; rows another
     * conflict's purge is deleting right now are skipped, not waited for ({@code SKIP LOCKED}). Binds {@code :id},
     * {@code :user}, {@code :kind} and {@code :session} (the writer id); the database records the login where the
     * login may not name its operators. Binds {@code :base} too, the version the write was based on: the function
     * counts only a version that existed and that the customer moved past, on a customer that exists (issue 27).
     */
    static final String RECORD = "SELECT lockstep_record_conflict(:id, :user, :kind, :session, :base)";

    static final String SAVE = "save";
    static final String DELETE = "delete";

    private ConflictLog() {
    }

    /**
     * Records a conflict on its own: one extra statement on a path that already read theirs. The database decides
     * whether it is one: a base version above the current one, or a customer that is gone, counts nothing.
     *
     * @return whether it was counted
     */
    static boolean record(Handle h, long customerId, long baseVersion, String user, String session, String kind) {
        return h.createQuery(RECORD).bind("id", customerId).bind("user", user).bind("kind", kind)
                .bind("session", session).bind("base", baseVersion).mapTo(Boolean.class).one();
    }

    /**
     * The conflicts on a customer within the last {@code window}, by the database clock; none for a customer that no
     * longer exists, which is never hot (issue 27), though its rows are kept for the report's days.
     */
    static int recent(Handle h, long customerId, Duration window) {
        long count = h.createQuery("SELECT count(*) FROM customer_conflict WHERE customer_id = :id"
                + " AND detected_at > now() - make_interval(secs => :windowMs / 1000.0)"
                + " AND EXISTS (SELECT 1 FROM customer c WHERE c.id = :id)")
                .bind("id", customerId).bind("windowMs", window.toMillis()).mapTo(Long.class).one();
        return (int) Math.min(count, Integer.MAX_VALUE);
    }
}
