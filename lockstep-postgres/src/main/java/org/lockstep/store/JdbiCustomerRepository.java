package org.lockstep.store;

import static org.lockstep.text.Texts.tr;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.lockstep.domain.CancelSignal;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerCount;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerPageRequest;
import org.lockstep.domain.CustomerRepository;
import org.lockstep.domain.CustomerValidator;
import org.lockstep.domain.DeleteOutcome;
import org.lockstep.domain.FieldError;
import org.lockstep.domain.InvalidCustomerException;
import org.lockstep.domain.LeaseInfo;
import org.lockstep.domain.OutcomeUnknownException;
import org.lockstep.domain.RecordBusyException;
import org.lockstep.domain.SaveOutcome;

/**
 * Customers in PostgreSQL through Jdbi. Saves and deletes are versioned single statements (PoEAA, Optimistic
 * Offline Lock): the {@code WHERE version = :base} clause and the row lock that {@code UPDATE} takes make the check
 * and the write one atomic step, so of any number of concurrent saves on one base version exactly one commits
 * (PostgreSQL docs, 13.2.1 Read Committed: a waiting UPDATE re-evaluates its WHERE clause on the new row version).
 */
public final class JdbiCustomerRepository implements CustomerRepository {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(JdbiCustomerRepository.class);

    /** The three saves in JDBC form, run on the handle's connection (see {@link PositionalSave} for why). */
    private static final PositionalSave SAVE = PositionalSave.of(CustomerWriteSql.SAVE_SQL);
    private static final PositionalSave SAVE_UNDER_LEASE = PositionalSave.of(CustomerWriteSql.SAVE_UNDER_LEASE_SQL);
    private static final PositionalSave OVERWRITE = PositionalSave.of(CustomerWriteSql.OVERWRITE_SQL);
    /** What a create whose reply was lost made, found by its request id. */
    private static final String CREATED_BY_REQUEST = "SELECT c.* FROM client_request r JOIN customer c"
            + " ON c.id = r.customer_id WHERE r.request_id = CAST(:request AS uuid)";
    /** The version a save made, from the history, found by its request id. */
    private static final String SAVED_BY_REQUEST = "SELECT (jsonb_populate_record(NULL::customer, new_row)).*"
            + " FROM customer_history WHERE customer_id = :id AND version > :base AND op = 'UPDATE'"
            + " AND request_id = CAST(:request AS uuid)";
    private static final String DELETED_BY_REQUEST = "SELECT EXISTS (SELECT 1 FROM customer_history"
            + " WHERE customer_id = :id AND version = :base AND op = 'DELETE' AND request_id = CAST(:request AS uuid))";

    /** How long a delete waits for this database's queued save announcements to go out first. */
    private static final Duration ANNOUNCED_BEFORE_DELETE = Duration.ofSeconds(2);
    /** How long a save of {@link #announcingBeforeReturning()} waits for its announcement to go out. */
    static final Duration ANNOUNCED_BEFORE_RETURNING = Duration.ofSeconds(2);

    private final Jdbi jdbi;
    private final String user;
    private final String sessionId;
    private final LeaseSecrets secrets;
    /** This writer's lease secret: proves its leases to the triggers ({@link LeaseSecrets}). */
    private final String secret;
    private final boolean announcesBeforeReturning;
    private final CustomerRowMapper mapper = new CustomerRowMapper();
    /** For statements that read exactly {@link CustomerRowMapper#COLUMNS}: the saves and the list's pages. */
    private final CustomerRowMapper columns = CustomerRowMapper.ofColumns();
    /**
     * Writes of this session whose outcome is unknown: asked again, they are sent with the same request id. Shared
     * with the {@link #restoring} store made from this one, so that a restore whose reply was lost, saved again as an
     * ordinary save of the same values, is recognised as itself.
     */
    private final UnknownOutcomes unknown;
    /** The version this store's saves restore ({@link #restoring}); 0: none, an ordinary save. */
    private final long restoredFrom;

    /**
     * A repository for a new client session.
     *
     * @param jdbi the database
     * @param user the operator's name, written to {@code updated_by} on every write
     */
    public JdbiCustomerRepository(Jdbi jdbi, String user) {
        this(jdbi, user, java.util.UUID.randomUUID().toString());
    }

    /**
     * @param sessionId the client session: leases held by this session do not block its optimistic saves
     */
    public JdbiCustomerRepository(Jdbi jdbi, String user, String sessionId) {
        this(jdbi, user, sessionId, LeaseSecrets.ofThisProcess());
    }

    /**
     * @param secrets the client's key for lease secrets: the same as its {@link JdbiLeaseRepository}'s, so that this
     *                repository's writes prove the leases that one takes
     */
    public JdbiCustomerRepository(Jdbi jdbi, String user, String sessionId, LeaseSecrets secrets) {
        this(jdbi, user, sessionId, secrets, false, new UnknownOutcomes(), 0);
    }

    private JdbiCustomerRepository(Jdbi jdbi, String user, String sessionId, LeaseSecrets secrets,
            boolean announcesBeforeReturning, UnknownOutcomes unknown, long restoredFrom) {
        this.jdbi = jdbi;
        this.user = user;
        this.sessionId = sessionId;
        this.secrets = secrets;
        this.secret = secrets.secretOf(sessionId);
        this.announcesBeforeReturning = announcesBeforeReturning;
        this.unknown = unknown;
        this.restoredFrom = restoredFrom;
    }

    /**
     * The same repository, whose saves return only once other clients have been told of them (at most
     * {@link #ANNOUNCED_BEFORE_RETURNING} later): for a process that reports a save and may end at once — the command
     * line, whose {@code set} a user may interrupt, or a script kill, the moment it prints. The desktop's saves are
     * announced from the {@link Announcer}'s thread while the operator goes on.
     */
    public JdbiCustomerRepository announcingBeforeReturning() {
        return new JdbiCustomerRepository(jdbi, user, sessionId, secrets, true, unknown, restoredFrom);
    }

    @Override
    public String sessionId() {
        return sessionId;
    }

    /** A repository of the same operator on the same database, writing as {@code writerId}. */
    @Override
    public JdbiCustomerRepository asWriter(String writerId) {
        return new JdbiCustomerRepository(jdbi, user, writerId, secrets, announcesBeforeReturning,
                new UnknownOutcomes(), restoredFrom);
    }

    /**
     * {@inheritDoc}
     *
     * <p>Each save names the version in its own statement ({@code lockstep.restore}, {@link WriteProtocol}); the
     * customer's trigger checks it and keeps it in the history's {@code restored_from}
     * (db/migration/V23__restored_from.sql).
     */
    @Override
    public JdbiCustomerRepository restoring(long version) {
        if (version < 1) {
            throw new IllegalArgumentException("a restore names a version, 1 or more: " + version);
        }
        return new JdbiCustomerRepository(jdbi, user, sessionId, secrets, announcesBeforeReturning, unknown,
                version);
    }

    /** The operator this repository writes as. */
    public String user() {
        return user;
    }

    @Override
    public Optional<Customer> find(long id) {
        return DatabaseCalls.read(() -> jdbi.withHandle(h -> find(h, id)));
    }

    static Optional<Customer> find(Handle h, long id) {
        return h.createQuery("SELECT * FROM customer WHERE id = :id").bind("id", id)
                .map(new CustomerRowMapper()).findOne();
    }

    /**
     * {@inheritDoc}
     *
     * <p>Safe to repeat: when the reply is lost, the create is sent again with the same request id; if the first
     * attempt committed, the second collides with it in {@code client_request} and the customer it made is returned.
     */
    @Override
    public Customer create(CustomerData data) {
        CustomerData clean = valid(data);
        UnknownOutcomes.Write write = new UnknownOutcomes.Write("create", 0, 0, clean);
        String request = unknown.requestFor(write);
        return unknown.settle(write, request, () -> createOnce(clean, request));
    }

    /**
     * {@inheritDoc}
     *
     * <p>The request id is the caller's: a create sent again collides with the first in {@code client_request}, and
     * the customer that one made is returned.
     */
    @Override
    public Customer create(CustomerData data, UUID request) {
        return createOnce(valid(data), request.toString());
    }

    @Override
    public Optional<Customer> createdBy(UUID request) {
        return DatabaseCalls.read(() -> jdbi.withHandle(h -> h.createQuery(CREATED_BY_REQUEST)
                .bind("request", request.toString()).map(mapper).findOne()));
    }

    /** Inserts {@code clean} under {@code request}, or returns what an earlier attempt under it made. */
    private Customer createOnce(CustomerData clean, String request) {
        return DatabaseCalls.repeatable(() -> jdbi.withHandle(h -> {
            try {
                return insert(h, clean, request);
            } catch (RuntimeException e) {
                if (!StoreErrors.isUniqueViolation(e)) {
                    throw e;
                }
                // A unique violation on a repeated attempt — of the request id, or of the external ref the first
                // attempt took — may be this very create, committed on an attempt whose reply was lost.
                Optional<Customer> mine = h.createQuery(CREATED_BY_REQUEST).bind("request", request).map(mapper)
                        .findOne();
                if (mine.isPresent()) {
                    return mine.get();
                }
                if (StoreErrors.isUniqueViolation(e, "client_request_pkey")) {
                    throw new OutcomeUnknownException(tr("the new customer was created, and deleted again before "
                            + "Lockstep could read it"), e);
                }
                throw e;
            }
        }), tr("whether the new customer was created is unknown — look for it before creating it again"));
    }

    Customer insert(Handle h, CustomerData clean) {
        return insert(h, clean, RequestIds.next());
    }

    private Customer insert(Handle h, CustomerData clean, String request) {
        return Writers.bindValues(h.createQuery(CustomerWriteSql.INSERT_SQL), clean).bind("user", user)
                .bind("session", sessionId).bind("request", request).map(mapper).one();
    }

    /**
     * {@inheritDoc}
     *
     * <p>One statement, one round trip, no explicit {@code BEGIN}/{@code COMMIT}: the versioned UPDATE, whose lease
     * guard the row's trigger checks once the row is locked (see {@link CustomerWriteSql#SAVE_SQL}). Once committed,
     * the save is announced to other clients by this database's {@link Announcer}, from a thread of its own, in a
     * write-free statement ({@link Announcements}: a notification inside the save would serialize concurrent saves).
     * Safe to repeat: the save carries a request id; sent again after a lost reply, it matches zero rows and finds its
     * own request id in the history, so it reports the version it made, never a conflict with itself — and a save by
     * anyone else, even under the same user name, is still a conflict.
     */
    @Override
    public SaveOutcome save(long id, long baseVersion, CustomerData data) {
        return save(false, id, baseVersion, data, 0);
    }

    @Override
    public SaveOutcome saveUnderLease(long id, long baseVersion, CustomerData data, long leaseToken) {
        return save(true, id, baseVersion, data, leaseToken);
    }

    private SaveOutcome save(boolean underLease, long id, long baseVersion, CustomerData data, long token) {
        CustomerData clean = validChanges(id, baseVersion, data);
        PositionalSave statement = underLease ? SAVE_UNDER_LEASE : SAVE;
        UnknownOutcomes.Write write = new UnknownOutcomes.Write("save", id, baseVersion, clean);
        String request = unknown.requestFor(write);
        PositionalSave.Values values = new PositionalSave.Values(id, baseVersion, user, sessionId, request, token,
                secret, restoredFrom, clean);
        return announced(unknown.settle(write, request, () -> DatabaseCalls.repeatable(() -> jdbi.withHandle(h -> {
            Optional<Customer> saved = busyAware(h, id, () -> statement.run(h.getConnection(), values, columns));
            // Zero rows: a repeated attempt of this very save that committed the first time is not a conflict.
            Optional<Customer> mine = saved.isPresent() ? saved : h.createQuery(SAVED_BY_REQUEST).bind("id", id)
                    .bind("base", baseVersion).bind("request", request).map(mapper).findOne();
            if (mine.isPresent()) {
                Announcements.afterCommit(h, id, mine.get().version(), "UPDATE", sessionId);
                return new SaveOutcome.Saved(mine.get());
            }
            // Say why, most actionable reason first.
            Optional<LeaseInfo> lease = LeaseSql.holder(h, id);
            boolean ours = lease.isPresent() && isOurs(h, lease.get());
            if (underLease && (!ours || lease.get().token() != token)) {
                return new SaveOutcome.LeaseLost(lease);
            }
            if (!underLease && lease.isPresent() && !ours) {
                return new SaveOutcome.Locked(lease.get());
            }
            Optional<Customer> theirs = find(h, id);
            // Counted for hot-record advice: one more statement, on the conflict path only; the database counts only a
            // version that existed on a customer that exists.
            ConflictLog.record(h, id, baseVersion, user, sessionId, ConflictLog.SAVE);
            return new SaveOutcome.Conflict(theirs);
        }), tr("whether customer {0} was saved is unknown. Your changes are kept; saving them again is safe",
                id))));
    }

    /** Whether {@code lease} is this writer's: its session, proven by this writer's secret. */
    private boolean isOurs(Handle h, LeaseInfo lease) {
        return lease.sessionId().equals(sessionId) && LeaseSql.proves(h, lease.recordId(), secret);
    }

    /** {@code outcome}, once its announcement went out when this repository {@link #announcingBeforeReturning}. */
    private SaveOutcome announced(SaveOutcome outcome) {
        if (announcesBeforeReturning && outcome instanceof SaveOutcome.Saved
                && !Announcer.flush(jdbi, ANNOUNCED_BEFORE_RETURNING)) {
            LOG.info("The save is not yet announced to other clients; they learn of it when they next read");
        }
        return outcome;
    }

    /**
     * {@inheritDoc}
     *
     * <p>One round trip, like {@link #save}. When it matches no row, the reason is read afterwards: another
     * session's lease, else a deleted row. If neither holds, a lease that blocked the write ended between the two
     * statements, and the write is tried again; each further pass needs another session to take a new lease and let
     * it lapse in that same instant, so the loop ends at once in practice. Not repeated after a lost connection: a
     * blind write has nothing to recognise itself by (that is what makes it unsafe).
     */
    @Override
    public SaveOutcome overwrite(long id, CustomerData data) {
        CustomerData clean = valid(data);
        return announced(DatabaseCalls.once(() -> jdbi.withHandle(h -> {
            while (true) {
                Optional<Customer> saved = busyAware(h, id, () -> OVERWRITE.run(h.getConnection(),
                        new PositionalSave.Values(id, 0, user, sessionId, RequestIds.next(), 0, secret,
                                restoredFrom, clean),
                        columns));
                if (saved.isPresent()) {
                    Announcements.afterCommit(h, id, saved.get().version(), "UPDATE", sessionId);
                    return new SaveOutcome.Saved(saved.get());
                }
                Optional<LeaseInfo> lease = LeaseSql.holder(h, id);
                if (lease.isPresent() && !isOurs(h, lease.get())) {
                    return new SaveOutcome.Locked(lease.get());
                }
                if (find(h, id).isEmpty()) {
                    return new SaveOutcome.Conflict(Optional.empty());
                }
            }
        }), tr("whether customer {0} was overwritten is unknown — check it", id)));
    }

    @Override
    public DeleteOutcome delete(long id, long baseVersion) {
        return delete(id, baseVersion, false, 0);
    }

    @Override
    public DeleteOutcome deleteUnderLease(long id, long baseVersion, long leaseToken) {
        return delete(id, baseVersion, true, leaseToken);
    }

    /**
     * One round trip, like {@link #save}, and safe to repeat the same way: a delete sent again after a lost reply
     * finds its own request id on the history's DELETE entry and reports the deletion, not a conflict.
     */
    private DeleteOutcome delete(long id, long baseVersion, boolean underLease, long token) {
        String sql = underLease ? CustomerWriteSql.DELETE_UNDER_LEASE_SQL : CustomerWriteSql.DELETE_SQL;
        // The trigger announces a delete at its commit, the announcer a save a few ms after its own: the saves queued
        // go first, so that other clients hear of this customer's last save before its deletion, never after.
        Announcer.flush(jdbi, ANNOUNCED_BEFORE_DELETE);
        UnknownOutcomes.Write write = new UnknownOutcomes.Write("delete", id, baseVersion, null);
        String request = unknown.requestFor(write);
        return unknown.settle(write, request, () -> DatabaseCalls.repeatable(() -> jdbi.withHandle(h -> {
            Optional<Long> deleted = busyAware(h, id, () -> h.createQuery(sql).bind("id", id)
                    .bind("base", baseVersion).bind("user", user).bind("session", sessionId).bind("request", request)
                    .bind("secret", secret).bind("token", token).mapTo(Long.class).findOne());
            if (deleted.isPresent() || h.createQuery(DELETED_BY_REQUEST).bind("id", id).bind("base", baseVersion)
                    .bind("request", request).mapTo(Boolean.class).one()) {
                return new DeleteOutcome.Deleted(id);
            }
            Optional<LeaseInfo> lease = LeaseSql.holder(h, id);
            boolean ours = lease.isPresent() && isOurs(h, lease.get());
            if (underLease && (!ours || lease.get().token() != token)) {
                return new DeleteOutcome.LeaseLost(lease);
            }
            if (!underLease && lease.isPresent() && !ours) {
                return new DeleteOutcome.Locked(lease.get());
            }
            // Counted for hot-record advice, on the conflict path only.
            ConflictLog.record(h, id, baseVersion, user, sessionId, ConflictLog.DELETE);
            return new DeleteOutcome.Conflict(find(h, id));
        }), tr("whether customer {0} was deleted is unknown — check it; deleting it again is safe", id)));
    }

    /**
     * Runs a write of customer {@code id}; when it gives up waiting for the row lock ({@code lock_timeout}), says
     * which session holds the row, as far as the database can tell.
     */
    private static <T> T busyAware(Handle h, long id, Supplier<T> write) {
        try {
            return write.get();
        } catch (RuntimeException e) {
            if (!StoreErrors.isLockTimeout(e)) {
                throw e;
            }
            Optional<String> blocker = RowLockHolder.describe(h, id);
            throw new RecordBusyException(blocker.map(b -> tr("Customer {0} is being written by another session "
                    + "({1}); nothing was saved — try again in a moment", id, b)).orElse(tr("Customer {0} is being "
                            + "written by another session; nothing was saved — try again in a moment", id)),
                    blocker, e);
        }
    }

    @Override
    public List<Customer> page(CustomerPageRequest request, CancelSignal cancel) {
        return CancellableReads.read(jdbi, cancel, h -> CustomerListQuery.page(h, request, columns));
    }

    @Override
    public CustomerCount count(String search, long budgetMs, CancelSignal cancel) {
        return CancellableReads.read(jdbi, cancel, h -> CustomerListQuery.count(h, search, budgetMs));
    }

    /**
     * {@inheritDoc}
     *
     * <p>Counts the rows of {@code customer_conflict} (V8__conflict.sql) younger than {@code window} by
     * {@code now()}; rows older than 400 days are purged whenever a conflict is recorded, so a window beyond that
     * counts no more.
     *
     * @throws IllegalArgumentException when the window is not positive
     */
    @Override
    public int recentConflicts(long id, Duration window) {
        if (window.isNegative() || window.isZero()) {
            throw new IllegalArgumentException("The window must be positive: " + window);
        }
        return DatabaseCalls.read(() -> jdbi.withHandle(h -> ConflictLog.recent(h, id, window)));
    }

    @Override
    public void recordMergeSaved(long id, long version) {
        ConflictEvents.recordQuietly(jdbi, ConflictEvents.MERGE_SAVED, id, user, sessionId, version, null, 1);
    }

    @Override
    public void recordMergeAbandoned(long id) {
        ConflictEvents.recordQuietly(jdbi, ConflictEvents.MERGE_ABANDONED, id, user, sessionId, null, null, 1);
    }

    /**
     * The values of a versioned save, normalized, judged only where they change the stored record (ADR 0010): a
     * value another tool stored that breaks a rule blocks no save that leaves it alone
     * ({@link CustomerValidator#validateChanges}). Valid values, the usual case, cost no read; otherwise the stored
     * row is read, and when it is still at {@code baseVersion} it is exactly the base the save is judged against
     * (every write raises the version). When it is not, the save writes nothing anyway: it is a conflict.
     *
     * @throws InvalidCustomerException when a changed value breaks a rule
     */
    private CustomerData validChanges(long id, long baseVersion, CustomerData data) {
        if (CustomerValidator.validate(data).isEmpty()) {
            return data.normalized();
        }
        Optional<Customer> stored = DatabaseCalls.read(() -> jdbi.withHandle(h -> find(h, id)));
        if (stored.isPresent() && stored.get().version() == baseVersion) {
            List<FieldError> errors = CustomerValidator.validateChanges(stored.get().data(), data).errors();
            if (!errors.isEmpty()) {
                throw new InvalidCustomerException(errors);
            }
        }
        return data.normalized();
    }

    static CustomerData valid(CustomerData data) {
        List<FieldError> errors = CustomerValidator.validate(data);
        if (!errors.isEmpty()) {
            throw new InvalidCustomerException(errors);
        }
        return data.normalized();
    }

}
