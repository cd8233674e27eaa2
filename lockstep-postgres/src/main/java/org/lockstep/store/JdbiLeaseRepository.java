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
import org.lockstep.domain.NotPermittedException;
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

    /**
     * A grant: the owner's {@code lockstep_lease_acquire} (R__30_leases.sql), one statement that locks the customer's
     * row, grants or takes over the lease and audits it. The database records the holder it knows for this login, and
     * keeps the SHA-256 of {@code :secret}, which this writer's later saves, renewals and its release prove.
     */
    public static final String ACQUIRE =
            "SELECT token, acquired_at, expires_at, remaining_ms FROM lockstep_lease_acquire(:id, :holder, :session,"
                    + " :secret, :ttlMs)";
    private static final String RENEW =
            "SELECT token, acquired_at, expires_at, remaining_ms FROM lockstep_lease_renew(:id, :token, :secret, :ttlMs)";
    /** A release by the holder, proven by its secret; true when the grant is (now or already) released. */
    public static final String RELEASE = "SELECT lockstep_lease_release(:id, :token, :secret)";
    /** A break: the database refuses it unless this login is a supervisor's (SQLSTATE LS403). */
    private static final String BREAK = "SELECT record_id, holder, session_id, token, acquired_at, expires_at"
            + " FROM lockstep_lease_break(:id, :holder)";
    private static final String LOST = "SELECT lockstep_lease_lost(:id, :token, :holder)";

    private final Jdbi jdbi;
    private final String holder;
    private final String sessionId;
    private final LeaseSecrets secrets;
    private final String secret;

    /**
     * @param jdbi      the database
     * @param holder    the operator's name, shown to others while this session holds a lease (where the login may
     *                  name its operators; else the database records the login)
     * @param sessionId this client session (the same id its {@link JdbiCustomerRepository} writes as)
     */
    public JdbiLeaseRepository(Jdbi jdbi, String holder, String sessionId) {
        this(jdbi, holder, sessionId, LeaseSecrets.ofThisProcess());
    }

    /**
     * @param secrets the client's key for lease secrets, the same as its {@link JdbiCustomerRepository}'s
     */
    public JdbiLeaseRepository(Jdbi jdbi, String holder, String sessionId, LeaseSecrets secrets) {
        this.jdbi = jdbi;
        this.holder = holder;
        this.sessionId = sessionId;
        this.secrets = secrets;
        this.secret = secrets.secretOf(sessionId);
    }

    @Override
    public String sessionId() {
        return sessionId;
    }

    @Override
    public JdbiLeaseRepository asWriter(String writerId) {
        return new JdbiLeaseRepository(jdbi, holder, writerId, secrets);
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
                            .bind("session", sessionId).bind("secret", secret).bind("ttlMs", ttlMs)
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
     * <p>Only the writer that holds the lease renews it, proven by its secret: a token is shown to everyone, so it
     * proves nothing alone. Safe to repeat.
     */
    @Override
    public Optional<Lease> renew(long recordId, long token, long ttlMs) {
        return DatabaseCalls.repeatable(() -> jdbi.withHandle(h -> h.createQuery(RENEW).bind("id", recordId)
                .bind("token", token).bind("secret", secret).bind("ttlMs", ttlMs)
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
        return DatabaseCalls.repeatable(() -> jdbi.withHandle(h -> h.createQuery(RELEASE).bind("id", recordId)
                .bind("token", token).bind("secret", secret).mapTo(Boolean.class).one()),
                tr("whether the lock of customer {0} was released is unknown — check with lease list",
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
        try {
            return DatabaseCalls.once(() -> jdbi.withHandle(h -> h.createQuery(BREAK).bind("id", recordId)
                    .bind("holder", holder).map((rs, ctx) -> LeaseSql.info(rs)).findOne()),
                    tr("whether the lock of customer {0} was broken is unknown — check with lease list", recordId));
        } catch (RuntimeException e) {
            // LS403 from the function; 42501 where the login may not even call it (grants: supervisors only).
            if (StoreErrors.hasSqlState(e, StoreErrors.NOT_A_SUPERVISOR)
                    || StoreErrors.hasSqlState(e, StoreErrors.INSUFFICIENT_PRIVILEGE)) {
                throw new NotPermittedException(tr("Only a supervisor can break the lock of customer {0}; nothing "
                        + "was broken. Ask a supervisor to break it, or wait for the lock to end.", recordId), e);
            }
            throw e;
        }
    }

    @Override
    public void recordLost(long recordId, long token) {
        DatabaseCalls.once(() -> jdbi.withHandle(h -> h.createQuery(LOST)
                .bind("id", recordId).bind("token", token).bind("holder", holder).mapTo(String.class).one()),
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
