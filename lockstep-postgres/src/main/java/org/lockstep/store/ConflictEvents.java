package org.lockstep.store;

import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Records what the conflict report needs and no other table holds ({@code conflict_event}, V17__conflict_report.sql):
 * merges saved and abandoned, lease waits, exhausted lab retries. Written only by the code paths that know them —
 * after a conflict, a refused lease, a lab run — never by a successful plain save. Like {@link ConflictLog}, each
 * recording also purges the events older than {@link ConflictLog#RETENTION}, skipping rows another purge holds.
 */
final class ConflictEvents {

    static final String MERGE_SAVED = "merge_saved";
    static final String MERGE_ABANDONED = "merge_abandoned";
    static final String LEASE_WAIT = "lease_wait";
    static final String LAB_RETRIES_EXHAUSTED = "lab_retries_exhausted";

    /** Binds {@code :kind, :customer, :operator, :session, :version, :detail, :count}; a blank operator is the role. */
    private static final String RECORD = "SELECT lockstep_record_event(:kind, :customer, :operator, :session,"
            + " :version, :detail, :count)";

    private static final Logger LOG = LoggerFactory.getLogger(ConflictEvents.class);

    private ConflictEvents() {
    }

    /**
     * Records one event, once (a lost reply is not repeated: an uncounted event is better than one counted twice),
     * and best effort: what it counts already happened — a merge saved or discarded, a grant refused, a lab run —
     * and failing to count it must not turn that into an error for the operator. A failure is logged without row
     * values.
     */
    static void recordQuietly(Jdbi jdbi, String kind, Long customerId, String operator, String session, Long version,
            String detail, long count) {
        try {
            DatabaseCalls.once(() -> jdbi.withHandle(h -> {
                record(h, kind, customerId, operator, session, version, detail, count);
                return null;
            }), "whether a " + kind + " was counted is unknown");
        } catch (RuntimeException e) {
            LOG.warn("Could not count a {} (customer {}) for the conflict report: {}", kind, customerId,
                    e.toString());
        }
    }

    /**
     * Records one event.
     *
     * @param customerId the customer, or {@code null} (the lab)
     * @param version    for a merge saved, the version saved; else {@code null}
     * @param detail     for the lab, the strategy; else {@code null}
     * @param count      how many (the lab's buyers that gave up), at least 1
     */
    static void record(Handle h, String kind, Long customerId, String operator, String session, Long version,
            String detail, long count) {
        h.createQuery(RECORD).bind("kind", kind).bind("customer", customerId).bind("operator", operator)
                .bind("session", session).bind("version", version).bind("detail", detail)
                .bind("count", (int) Math.min(count, Integer.MAX_VALUE)).mapTo(String.class).one();
    }
}
