package org.lockstep.store;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import org.lockstep.domain.LeaseInfo;

/** SQL fragments and reads shared by the customer writes and the lease store (V3__lease.sql). */
final class LeaseSql {

    /**
     * No other session holds an unexpired lease on the row {@code :id} (binds {@code :session}). Judged by the clock
     * at the moment the statement runs ({@code clock_timestamp()}), not the start of its transaction ({@code now()}),
     * which may be long before when the write waited for a row lock first.
     */
    static final String NOT_LOCKED_BY_OTHERS = """
            NOT EXISTS (SELECT 1 FROM record_lease WHERE record_id = :id
                AND expires_at > clock_timestamp() AND session_id <> :session)""";

    /**
     * {@code :token} is the unexpired lease of row {@code :id}, judged by the database clock, and it is held by the
     * writer's session ({@code :session}): a token is not a password, it is shown in lock listings and notifications,
     * so another client who learns it — another operator, or another desk sharing the same login — still cannot
     * write under it. FOR SHARE serializes the save with a concurrent takeover of the lease row: either the save
     * commits first, or it sees the new token. The expiry is compared outside the locking query, so only once the
     * lock is held: a save that waited for the lease's row (held by a renewal, a takeover, psql) while the lease
     * lapsed is refused, not written under a lease that has ended. A MATERIALIZED CTE keeps the comparison there:
     * PostgreSQL 17 pushes even a {@code clock_timestamp()} condition down into a plain subquery, below its lock.
     */
    static final String FENCED = """
            EXISTS (WITH l AS MATERIALIZED (SELECT expires_at FROM record_lease
                    WHERE record_id = :id AND token = :token AND session_id = :session AND ended IS NULL FOR SHARE)
                SELECT 1 FROM l WHERE l.expires_at > clock_timestamp())""";

    static final String SELECT_INFO = """
            SELECT record_id, holder, session_id, token, acquired_at, expires_at
            FROM record_lease""";

    private LeaseSql() {
    }

    /** The unexpired lease on a record, if any. */
    static Optional<LeaseInfo> holder(Handle h, long recordId) {
        return h.createQuery(SELECT_INFO + " WHERE record_id = :id AND expires_at > clock_timestamp()")
                .bind("id", recordId)
                .map((rs, ctx) -> info(rs)).findOne();
    }

    /**
     * The live leases on the customers {@code recordIds}, by customer id. Whoever holds those customers' rows locked
     * sees every lease granted before, and none can be granted until they let go: a grant locks its row first.
     */
    static Map<Long, LeaseInfo> liveOn(Handle h, Collection<Long> recordIds) {
        Map<Long, LeaseInfo> leases = new HashMap<>();
        h.createQuery(SELECT_INFO + """

                WHERE record_id = ANY(:ids) AND ended IS NULL AND expires_at > clock_timestamp()""")
                .bindArray("ids", Long.class, recordIds).map((rs, ctx) -> info(rs))
                .forEach(l -> leases.put(l.recordId(), l));
        return leases;
    }

    static LeaseInfo info(ResultSet rs) throws SQLException {
        return new LeaseInfo(rs.getLong("record_id"), rs.getString("holder"), rs.getString("session_id"),
                rs.getLong("token"), rs.getObject("acquired_at", OffsetDateTime.class).toInstant(),
                rs.getObject("expires_at", OffsetDateTime.class).toInstant());
    }
}
