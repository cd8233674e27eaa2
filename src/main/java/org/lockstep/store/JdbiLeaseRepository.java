package org.lockstep.store;

import java.time.OffsetDateTime;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Jdbi;
import org.lockstep.domain.AcquireOutcome;
import org.lockstep.domain.Lease;
import org.lockstep.domain.LeaseEvent;
import org.lockstep.domain.LeaseInfo;
import org.lockstep.domain.LeaseRepository;
import org.lockstep.domain.StoreUnavailableException;

/**
 * Leases in {@code record_lease}, audited in {@code lease_event} (V3__lease.sql). Every operation is one SQL
 * statement — the lease change and its audit entry together, through data-modifying CTEs — so there is no
 * read-then-write window between two clients (PostgreSQL docs, 7.8.4 "Data-Modifying Statements in WITH"; and
 * INSERT … ON CONFLICT DO UPDATE, which locks the existing row and re-checks its WHERE clause on the newest row
 * version). Expiry is set and compared with {@code now()}, the database clock.
 */
public final class JdbiLeaseRepository implements LeaseRepository {

    // In DO UPDATE, the token and clock_timestamp() are taken after the row lock is held, so a grant starts (by the
    // database clock) after the previous holder's last renewal, release or break committed, and its token is larger
    // than every earlier grant's. (The VALUES token is taken before any wait; it is only ever used for the first grant
    // of a record, which has no predecessor.)
    static final String ACQUIRE = """
            WITH granted AS (
                INSERT INTO record_lease AS l (record_id, holder, session_id, token, acquired_at, expires_at)
                VALUES (:id, :holder, :session,
                        -- Only a record's first grant takes its token here; later ones take it in DO UPDATE. Not
                        -- drawing one needlessly keeps tokens dense: the next grant after t is usually t + 1.
                        CASE WHEN EXISTS (SELECT 1 FROM record_lease WHERE record_id = :id) THEN 0
                             ELSE nextval('lease_token_seq') END,
                        clock_timestamp(),
                        clock_timestamp() + make_interval(secs => :ttlMs / 1000.0))
                ON CONFLICT (record_id) DO UPDATE
                    SET holder = excluded.holder, session_id = excluded.session_id,
                        token = nextval('lease_token_seq'),
                        acquired_at = clock_timestamp(),
                        expires_at = clock_timestamp() + make_interval(secs => :ttlMs / 1000.0),
                        ended = NULL, previous_session = l.session_id, previous_token = l.token,
                        previous_ended = l.ended
                    WHERE l.expires_at <= clock_timestamp() OR l.session_id = excluded.session_id
                RETURNING record_id, token, acquired_at, expires_at, previous_session, previous_token, previous_ended,
                          (xmax <> 0) AS replaced
            ), superseded AS (
                -- This session took a new token while its old one still ran: the old grant ends here.
                UPDATE lease_event e SET expires_at = g.acquired_at FROM granted g
                WHERE g.replaced AND e.record_id = g.record_id AND e.token = g.previous_token
                  AND e.event IN ('acquired', 'expired_takeover') AND e.expires_at > g.acquired_at
            ), logged AS (
                INSERT INTO lease_event (record_id, token, holder, event, actor, at, expires_at)
                SELECT record_id, token, :holder,
                       CASE WHEN replaced AND previous_ended IS NULL AND previous_session <> :session
                            THEN 'expired_takeover' ELSE 'acquired' END,
                       :holder, acquired_at, expires_at
                FROM granted
            )
            SELECT token, acquired_at, expires_at,
                   (extract(epoch FROM expires_at - clock_timestamp()) * 1000)::bigint AS remaining_ms
            FROM granted
            """;

    private static final String RENEW = """
            WITH renewed AS (
                UPDATE record_lease SET expires_at = clock_timestamp() + make_interval(secs => :ttlMs / 1000.0)
                WHERE record_id = :id AND token = :token AND ended IS NULL AND expires_at > clock_timestamp()
                RETURNING token, acquired_at, expires_at
            ), logged AS (
                UPDATE lease_event e SET expires_at = r.expires_at FROM renewed r
                WHERE e.record_id = :id AND e.token = r.token AND e.event IN ('acquired', 'expired_takeover')
            )
            SELECT token, acquired_at, expires_at,
                   (extract(epoch FROM expires_at - clock_timestamp()) * 1000)::bigint AS remaining_ms
            FROM renewed
            """;

    /** Ends a grant early (release or break): the row stays, expired as of now; the grant's event records the end. */
    static final String END = """
            WITH ended AS (
                UPDATE record_lease SET expires_at = clock_timestamp(), ended = :how
                WHERE record_id = :id AND ended IS NULL AND expires_at > clock_timestamp() AND %s
                RETURNING record_id, holder, session_id, token, acquired_at, expires_at
            ), logged AS (
                INSERT INTO lease_event (record_id, token, holder, event, actor, at)
                SELECT record_id, token, holder, :how, :actor, expires_at FROM ended
            ), closed AS (
                UPDATE lease_event e SET expires_at = x.expires_at FROM ended x
                WHERE e.record_id = x.record_id AND e.token = x.token AND e.event IN ('acquired', 'expired_takeover')
            )
            SELECT * FROM ended
            """;

    private final Jdbi jdbi;
    private final String holder;
    private final String sessionId;

    /**
     * @param jdbi      the database
     * @param holder    the operator's name, shown to others while this session holds a lease
     * @param sessionId this client session (the same id its {@link JdbiCustomerRepository} writes as)
     */
    public JdbiLeaseRepository(Jdbi jdbi, String holder, String sessionId) {
        this.jdbi = jdbi;
        this.holder = holder;
        this.sessionId = sessionId;
    }

    @Override
    public String sessionId() {
        return sessionId;
    }

    @Override
    public AcquireOutcome acquire(long recordId, long ttlMs) {
        if (ttlMs < 1) {
            throw new IllegalArgumentException("A lease lasts at least 1 ms, not " + ttlMs);
        }
        // Refused means someone held it when the statement ran; if that lease ended before we could read who held
        // it, try again rather than report a holder that is gone.
        for (int attempt = 0; ; attempt++) {
            Optional<Lease> granted = JdbiCustomerRepository.call(() -> jdbi.withHandle(h -> h.createQuery(ACQUIRE)
                    .bind("id", recordId).bind("holder", holder).bind("session", sessionId).bind("ttlMs", ttlMs)
                    .map((rs, ctx) -> lease(recordId, rs)).findOne()));
            if (granted.isPresent()) {
                return new AcquireOutcome.Granted(granted.get());
            }
            Optional<LeaseInfo> current = holder(recordId);
            if (current.isPresent()) {
                return new AcquireOutcome.HeldByOther(current.get());
            }
            if (attempt >= 20) {
                throw new StoreUnavailableException("The lock of customer " + recordId
                        + " changes hands too quickly to take it; try again", null);
            }
        }
    }

    @Override
    public Optional<Lease> renew(long recordId, long token, long ttlMs) {
        return JdbiCustomerRepository.call(() -> jdbi.withHandle(h -> h.createQuery(RENEW).bind("id", recordId)
                .bind("token", token).bind("ttlMs", ttlMs).map((rs, ctx) -> lease(recordId, rs)).findOne()));
    }

    @Override
    public boolean release(long recordId, long token) {
        return JdbiCustomerRepository.call(() -> jdbi.withHandle(h -> h.createQuery(END.formatted("token = :token AND holder = :actor"))
                .bind("id", recordId).bind("token", token).bind("how", "released").bind("actor", holder)
                .map((rs, ctx) -> LeaseSql.info(rs)).findOne().isPresent()));
    }

    @Override
    public Optional<LeaseInfo> breakLease(long recordId) {
        return JdbiCustomerRepository.call(() -> jdbi.withHandle(h -> h.createQuery(END.formatted("true"))
                .bind("id", recordId).bind("how", "broken").bind("actor", holder)
                .map((rs, ctx) -> LeaseSql.info(rs)).findOne()));
    }

    @Override
    public void recordLost(long recordId, long token) {
        JdbiCustomerRepository.call(() -> jdbi.withHandle(h -> h.createUpdate(
                        "INSERT INTO lease_event (record_id, token, holder, event, actor)"
                                + " VALUES (:id, :token, :holder, 'lost', :holder)")
                .bind("id", recordId).bind("token", token).bind("holder", holder).execute()));
    }

    @Override
    public Optional<LeaseInfo> holder(long recordId) {
        return JdbiCustomerRepository.call(() -> jdbi.withHandle(h -> LeaseSql.holder(h, recordId)));
    }

    @Override
    public List<LeaseInfo> active() {
        return JdbiCustomerRepository.call(() -> jdbi.withHandle(h -> h.createQuery(LeaseSql.SELECT_INFO
                + " WHERE expires_at > now() ORDER BY record_id").map((rs, ctx) -> LeaseSql.info(rs)).list()));
    }

    @Override
    public List<LeaseEvent> events(long recordId) {
        return JdbiCustomerRepository.call(() -> jdbi.withHandle(h -> h.createQuery(
                        "SELECT record_id, token, holder, event, actor, at, expires_at FROM lease_event"
                                + " WHERE record_id = :id ORDER BY id").bind("id", recordId)
                .map((rs, ctx) -> new LeaseEvent(rs.getLong("record_id"), rs.getLong("token"), rs.getString("holder"),
                        LeaseEvent.Kind.valueOf(rs.getString("event").toUpperCase(java.util.Locale.ROOT)),
                        rs.getString("actor"), rs.getObject("at", OffsetDateTime.class).toInstant(),
                        Optional.ofNullable(rs.getObject("expires_at", OffsetDateTime.class))
                                .map(OffsetDateTime::toInstant)))
                .list()));
    }

    private static Lease lease(long recordId, java.sql.ResultSet rs) throws java.sql.SQLException {
        return new Lease(recordId, rs.getLong("token"), rs.getObject("acquired_at", OffsetDateTime.class).toInstant(),
                rs.getObject("expires_at", OffsetDateTime.class).toInstant(), rs.getLong("remaining_ms"));
    }
}
