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

/**
 * SQL fragments and reads shared by the customer writes and the lease store (V3__lease.sql). A customer write's own
 * lease guard — no other session's lease, or the writer's own token (fencing) — is checked by the row's trigger
 * (V19__stored_search_text.sql, {@code customer_before_write}).
 */
final class LeaseSql {

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
     * Whether {@code secret} proves the customer's lease (its SHA-256 is the lease's): a session id anyone can read
     * names a lease; only the secret makes it this writer's (issue 26). Read on a refused write's path only.
     */
    static boolean proves(Handle h, long recordId, String secret) {
        return h.createQuery("SELECT secret_hash = sha256(convert_to(:secret, 'UTF8')) FROM record_lease"
                + " WHERE record_id = :id").bind("id", recordId).bind("secret", secret).mapTo(Boolean.class)
                .findOne().orElse(false);
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
