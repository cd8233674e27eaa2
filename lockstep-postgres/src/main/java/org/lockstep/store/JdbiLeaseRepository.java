package org.lockstep.store;

import static org.lockstep.text.Texts.tr;

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
 * version). Expiry is set and compared with {@code clock_timestamp()}, the database clock, read only once the statement
 * holds the row it changes: a grant, renewal, release or break that waited for a lock is judged by the moment it got
 * it, never by when it began ({@code now()}). Every operation but {@link #breakLease} is its holder session's only.
 */
public final class JdbiLeaseRepository implements LeaseRepository {

    // The grant first locks the customer's row FOR SHARE, which conflicts with the row lock every write takes first
    // (CustomerWriteSql#SAVE_SQL): a grant waits for a save in flight to commit, and a save that comes later
    // waits for the grant and then sees it. So no optimistic save ever commits inside a lease. A customer that does
    // not exist gives no row to lock, and nothing is granted.
    // In DO UPDATE, the token and clock_timestamp() are taken after the lease row's lock is held, and in the first
    // grant's SELECT after the customer row's: a grant starts (by the database clock) after the previous holder's
    // last renewal, release or break and after any write it waited for, and is valid for its whole TTL from there;
    // its token is larger than every earlier grant's. (The SELECT's token is taken only for the first grant of a
    // record, which has no predecessor.)
    public static final String ACQUIRE = """
            WITH target AS (
                SELECT id FROM customer WHERE id = :id FOR SHARE
            ), granted AS (
                INSERT INTO record_lease AS l (record_id, holder, session_id, token, acquired_at, expires_at)
                SELECT id, :holder, :session,
                        -- Only a record's first grant takes its token here; later ones take it in DO UPDATE. Not
                        -- drawing one needlessly keeps tokens dense: the next grant after t is usually t + 1.
                        CASE WHEN EXISTS (SELECT 1 FROM record_lease WHERE record_id = :id) THEN 0
                             ELSE nextval('lease_token_seq') END,
                        clock_timestamp(),
                        clock_timestamp() + make_interval(secs => :ttlMs / 1000.0)
                FROM target
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

    // A renewal, a release and a break may wait for the lease's row: a save under the lease holds it FOR SHARE until
    // it commits, a takeover or another client while they change it. The statement first takes the row lock
    // (locked), then reads the clock (clock: computed from locked's row, so only once the lock is granted), and
    // judges and sets the expiry by that moment. An UPDATE that compared with clock_timestamp() directly would read
    // it before waiting: a lease that lapsed during the wait would be renewed, released or broken after all, and a
    // renewal would lose the wait from its TTL. A row changed by someone else during the wait is re-read by the
    // UPDATE (EvalPlanQual: PostgreSQL docs, 13.2.1 "Read Committed Isolation Level"), so a new token or an end
    // is seen.
    private static final String RENEW = """
            WITH locked AS MATERIALIZED (
                SELECT record_id FROM record_lease
                WHERE record_id = :id AND token = :token AND session_id = :session
                FOR NO KEY UPDATE
            ), clock AS MATERIALIZED (
                SELECT clock_timestamp() AS now FROM locked
            ), renewed AS (
                UPDATE record_lease l SET expires_at = c.now + make_interval(secs => :ttlMs / 1000.0)
                FROM clock c
                WHERE l.record_id = :id AND l.token = :token AND l.session_id = :session AND l.ended IS NULL
                  AND l.expires_at > c.now
                RETURNING l.token, l.acquired_at, l.expires_at
            ), logged AS (
                UPDATE lease_event e SET expires_at = r.expires_at FROM renewed r
                WHERE e.record_id = :id AND e.token = r.token AND e.event IN ('acquired', 'expired_takeover')
            )
            SELECT token, acquired_at, expires_at,
                   (extract(epoch FROM expires_at - clock_timestamp()) * 1000)::bigint AS remaining_ms
            FROM renewed
            """;

    /**
     * Ends a grant early (release or break): the row stays, expired as of now; the grant's event records the end. The
     * {@code %1$s} condition chooses the grant (a release: this session's token); like {@link #RENEW}, the clock is
     * read once the row's lock is held.
     */
    public static final String END = """
            WITH locked AS MATERIALIZED (
                SELECT record_id FROM record_lease WHERE record_id = :id AND %1$s FOR NO KEY UPDATE
            ), clock AS MATERIALIZED (
                SELECT clock_timestamp() AS now FROM locked
            ), ended AS (
                UPDATE record_lease l SET expires_at = c.now, ended = :how
                FROM clock c
                WHERE l.record_id = :id AND l.ended IS NULL AND l.expires_at > c.now AND %1$s
                RETURNING l.record_id, l.holder, l.session_id, l.token, l.acquired_at, l.expires_at
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
    public JdbiLeaseRepository asWriter(String writerId) {
        return new JdbiLeaseRepository(jdbi, holder, writerId);
    }

    /**
     * {@inheritDoc}
     *
     * <p>Safe to repeat after a lost reply: a second attempt from the same session is granted again, with a newer
     * token that supersedes the first one's.
     *
     * @throws org.lockstep.domain.RecordBusyException when another session holds the customer's row longer than
     *         Lockstep waits for a lock ({@code lock_timeout}): nothing was granted
     */
    @Override
    public AcquireOutcome acquire(long recordId, long ttlMs) {
        if (ttlMs < 1) {
            throw new IllegalArgumentException("A lease lasts at least 1 ms, not " + ttlMs);
        }
        // Refused means someone held it when the statement ran; if that lease ended before we could read who held
        // it, try again rather than report a holder that is gone.
        for (int attempt = 0;; attempt++) {
            Optional<Lease> granted = DatabaseCalls.repeatable(() -> jdbi.withHandle(h -> busyAware(h, recordId,
                    () -> h.createQuery(ACQUIRE).bind("id", recordId).bind("holder", holder)
                            .bind("session", sessionId).bind("ttlMs", ttlMs)
                            .map((rs, ctx) -> lease(recordId, rs)).findOne())),
                    tr("whether customer {0} was locked is unknown — check with lease list", recordId));
            if (granted.isPresent()) {
                return new AcquireOutcome.Granted(granted.get());
            }
            Optional<LeaseInfo> current = holder(recordId);
            if (current.isPresent()) {
                // A lease wait, for the conflict report: this operator has to wait for another's lock.
                ConflictEvents.recordQuietly(jdbi, ConflictEvents.LEASE_WAIT, recordId, holder, sessionId, null, null,
                        1);
                return new AcquireOutcome.HeldByOther(current.get());
            }
            if (DatabaseCalls.read(() -> jdbi.withHandle(h -> JdbiCustomerRepository.find(h, recordId))).isEmpty()) {
                return new AcquireOutcome.Gone(recordId);
            }
            if (attempt >= 20) {
                throw new StoreUnavailableException(tr("The lock of customer {0} changes hands too quickly to take "
                        + "it; try again", recordId), null);
            }
        }
    }

    /**
     * {@inheritDoc}
     *
     * <p>Only the session that holds the lease renews it: a token is shown to everyone, so it proves nothing alone.
     * Safe to repeat.
     */
    @Override
    public Optional<Lease> renew(long recordId, long token, long ttlMs) {
        return DatabaseCalls.repeatable(() -> jdbi.withHandle(h -> h.createQuery(RENEW).bind("id", recordId)
                .bind("token", token).bind("session", sessionId).bind("ttlMs", ttlMs)
                .map((rs, ctx) -> lease(recordId, rs)).findOne()),
                tr("whether the lock of customer {0} was renewed is unknown", recordId));
    }

    /**
     * {@inheritDoc}
     *
     * <p>Only the session that holds the lease releases it. Safe to repeat: a release sent again after a lost reply
     * finds its own grant already ended as released, and reports it released.
     */
    @Override
    public boolean release(long recordId, long token) {
        return DatabaseCalls.repeatable(() -> jdbi.withHandle(h -> {
            boolean released = h.createQuery(END.formatted("token = :token AND session_id = :session"))
                    .bind("id", recordId).bind("token", token).bind("session", sessionId).bind("how", "released")
                    .bind("actor", holder).map((rs, ctx) -> LeaseSql.info(rs)).findOne().isPresent();
            return released || h.createQuery("""
                            SELECT EXISTS (SELECT 1 FROM record_lease WHERE record_id = :id
                                AND token = :token AND session_id = :session AND ended = 'released')""")
                    .bind("id", recordId).bind("token", token).bind("session", sessionId)
                    .mapTo(Boolean.class).one();
        }), tr("whether the lock of customer {0} was released is unknown — check with lease list",
                recordId));
    }

    /**
     * {@inheritDoc}
     *
     * <p>Not repeated after a lost connection (a second break would find nothing to break, and say so): the outcome
     * is then unknown.
     */
    @Override
    public Optional<LeaseInfo> breakLease(long recordId) {
        return DatabaseCalls.once(() -> jdbi.withHandle(h -> h.createQuery(END.formatted("true"))
                .bind("id", recordId).bind("how", "broken").bind("actor", holder)
                .map((rs, ctx) -> LeaseSql.info(rs)).findOne()),
                tr("whether the lock of customer {0} was broken is unknown — check with lease list", recordId));
    }

    @Override
    public void recordLost(long recordId, long token) {
        DatabaseCalls.once(() -> jdbi.withHandle(h -> h.createUpdate("""
                        INSERT INTO lease_event (record_id, token, holder, event, actor)
                        VALUES (:id, :token, :holder, 'lost', :holder)""")
                .bind("id", recordId).bind("token", token).bind("holder", holder).execute()),
                tr("whether the loss of the lock was recorded is unknown"));
    }

    @Override
    public Optional<LeaseInfo> holder(long recordId) {
        return DatabaseCalls.read(() -> jdbi.withHandle(h -> LeaseSql.holder(h, recordId)));
    }

    @Override
    public List<LeaseInfo> active() {
        return DatabaseCalls.read(() -> jdbi.withHandle(h -> h.createQuery(LeaseSql.SELECT_INFO
                + " WHERE expires_at > clock_timestamp() ORDER BY record_id").map((rs, ctx) -> LeaseSql.info(rs))
                .list()));
    }

    @Override
    public List<LeaseEvent> events(long recordId) {
        return DatabaseCalls.read(() -> jdbi.withHandle(h -> h.createQuery("""
                        SELECT record_id, token, holder, event, actor, at, expires_at FROM lease_event
                        WHERE record_id = :id ORDER BY id""").bind("id", recordId)
                .map((rs, ctx) -> new LeaseEvent(rs.getLong("record_id"), rs.getLong("token"), rs.getString("holder"),
                        LeaseEvent.Kind.valueOf(rs.getString("event").toUpperCase(java.util.Locale.ROOT)),
                        rs.getString("actor"), rs.getObject("at", OffsetDateTime.class).toInstant(),
                        Optional.ofNullable(rs.getObject("expires_at", OffsetDateTime.class))
                                .map(OffsetDateTime::toInstant)))
                .list()));
    }

    /** Runs a grant; when it gives up waiting for the customer's row lock, says so as a busy record. */
    private static <T> T busyAware(org.jdbi.v3.core.Handle h, long recordId, java.util.function.Supplier<T> grant) {
        try {
            return grant.get();
        } catch (RuntimeException e) {
            if (!StoreErrors.isLockTimeout(e)) {
                throw e;
            }
            Optional<String> blocker = RowLockHolder.describe(h, recordId);
            throw new org.lockstep.domain.RecordBusyException(blocker.map(b -> tr("Customer {0} is being written "
                    + "by another session ({1}); it was not locked — try again in a moment", recordId, b))
                    .orElse(tr("Customer {0} is being written by another session; it was not locked — try again in "
                            + "a moment", recordId)),
                    blocker, e);
        }
    }

    private static Lease lease(long recordId, java.sql.ResultSet rs) throws java.sql.SQLException {
        return new Lease(recordId, rs.getLong("token"), rs.getObject("acquired_at", OffsetDateTime.class).toInstant(),
                rs.getObject("expires_at", OffsetDateTime.class).toInstant(), rs.getLong("remaining_ms"));
    }
}
