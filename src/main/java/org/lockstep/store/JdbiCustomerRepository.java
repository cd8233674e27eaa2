package org.lockstep.store;

import java.math.BigDecimal;
import java.sql.Types;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.argument.Argument;
import org.jdbi.v3.core.statement.SqlStatement;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerCount;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.CustomerPageRequest;
import org.lockstep.domain.CustomerRepository;
import org.lockstep.domain.CustomerValidator;
import org.lockstep.domain.DeleteOutcome;
import org.lockstep.domain.FieldError;
import org.lockstep.domain.InvalidCustomerException;
import org.lockstep.domain.LeaseInfo;
import org.lockstep.domain.SaveOutcome;

/**
 * Customers in PostgreSQL through Jdbi. Saves and deletes are versioned single statements (PoEAA, Optimistic
 * Offline Lock): the {@code WHERE version = :base} clause and the row lock that {@code UPDATE} takes make the check
 * and the write one atomic step, so of any number of concurrent saves on one base version exactly one commits
 * (PostgreSQL docs, 13.2.1 Read Committed: a waiting UPDATE re-evaluates its WHERE clause on the new row version).
 */
public final class JdbiCustomerRepository implements CustomerRepository {

    static final String COLUMNS = String.join(", ", CustomerField.all().stream().map(CustomerField::column).toList());
    private static final String VALUES = String.join(", ",
            CustomerField.all().stream().map(f -> ":" + f.column()).toList());
    private static final String ASSIGNMENTS = String.join(", ",
            CustomerField.all().stream().map(f -> f.column() + " = :" + f.column()).toList());

    // set_config(…, true) is SET LOCAL inside the statement itself: the triggers of V2__history.sql read the user
    // from it for updated_by and customer_history.changed_by, without an extra round trip per save.
    // The WHERE clause also names the writer's session for the notification trigger (V4__notify.sql): a row is only
    // updated when every condition held, so set_config ran before the row's triggers fire.
    private static final String SET_VALUES = "UPDATE customer SET " + ASSIGNMENTS
            + ", version = version + 1, updated_at = now(), updated_by = set_config('lockstep.user', :user, true)";
    private static final String SET_ALL = SET_VALUES
            + " WHERE id = :id AND version = :base AND set_config('lockstep.session', :session, true) IS NOT NULL";
    static final String NAMES_THE_WRITER = "set_config('lockstep.user', :user, true) IS NOT NULL"
            + " AND set_config('lockstep.session', :session, true) IS NOT NULL";
    /** Optimistic: the version check, and no other session's unexpired lease on the row. */
    static final String SAVE_SQL = SET_ALL + " AND " + LeaseSql.NOT_LOCKED_BY_OTHERS + " RETURNING *";
    /** Under a lease: the version check, and the token is the row's unexpired lease (fencing). */
    static final String SAVE_UNDER_LEASE_SQL = SET_ALL + " AND " + LeaseSql.FENCED + " RETURNING *";
    /**
     * Last write wins (unsafe), the lost-update bug kept for teaching: no version check at all, only no other
     * session's unexpired lease on the row.
     */
    static final String OVERWRITE_SQL = SET_VALUES
            + " WHERE id = :id AND set_config('lockstep.session', :session, true) IS NOT NULL AND "
            + LeaseSql.NOT_LOCKED_BY_OTHERS + " RETURNING *";
    static final String INSERT_SQL = "INSERT INTO customer (" + COLUMNS + ", updated_by) SELECT " + VALUES
            + ", set_config('lockstep.user', :user, true)"
            + " FROM (SELECT set_config('lockstep.session', :session, true)) writer RETURNING *";

    private final Jdbi jdbi;
    private final String user;
    private final String sessionId;
    private final CustomerRowMapper mapper = new CustomerRowMapper();

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
        this.jdbi = jdbi;
        this.user = user;
        this.sessionId = sessionId;
    }

    @Override
    public String sessionId() {
        return sessionId;
    }

    /** The operator this repository writes as. */
    public String user() {
        return user;
    }

    @Override
    public Optional<Customer> find(long id) {
        return call(() -> jdbi.withHandle(h -> find(h, id)));
    }

    static Optional<Customer> find(Handle h, long id) {
        return h.createQuery("SELECT * FROM customer WHERE id = :id").bind("id", id)
                .map(new CustomerRowMapper()).findOne();
    }

    @Override
    public Customer create(CustomerData data) {
        CustomerData clean = valid(data);
        return call(() -> jdbi.withHandle(h -> insert(h, clean)));
    }

    Customer insert(Handle h, CustomerData clean) {
        return bindValues(h.createQuery(INSERT_SQL), clean).bind("user", user).bind("session", sessionId)
                .map(mapper).one();
    }

    /**
     * {@inheritDoc}
     *
     * <p>The UPDATE runs in auto-commit mode, without {@code BEGIN}/{@code COMMIT} around it: one statement is
     * already atomic, and an explicit transaction would cost a second round trip per save (the {@code COMMIT}).
     * Reading theirs after zero rows in the same transaction would add nothing either: under Read Committed each
     * statement takes a new snapshot anyway (PostgreSQL docs, 13.2.1), so the read sees the latest committed row
     * either way.
     */
    @Override
    public SaveOutcome save(long id, long baseVersion, CustomerData data) {
        return save(SAVE_SQL, id, baseVersion, data, 0);
    }

    @Override
    public SaveOutcome saveUnderLease(long id, long baseVersion, CustomerData data, long leaseToken) {
        return save(SAVE_UNDER_LEASE_SQL, id, baseVersion, data, leaseToken);
    }

    private SaveOutcome save(String sql, long id, long baseVersion, CustomerData data, long token) {
        CustomerData clean = validChanges(id, baseVersion, data);
        boolean underLease = sql == SAVE_UNDER_LEASE_SQL;
        return call(() -> jdbi.withHandle(h -> {
            Optional<Customer> saved = bindValues(h.createQuery(sql), clean)
                    .bind("user", user).bind("id", id).bind("base", baseVersion)
                    .bind("session", sessionId).bind("token", token)
                    .map(mapper).findOne();
            if (saved.isPresent()) {
                return new SaveOutcome.Saved(saved.get());
            }
            // Zero rows: say why, most actionable reason first.
            Optional<LeaseInfo> lease = LeaseSql.holder(h, id);
            if (underLease && lease.map(l -> l.token() != token || !l.holder().equals(user)).orElse(true)) {
                return new SaveOutcome.LeaseLost(lease);
            }
            if (!underLease && lease.isPresent() && !lease.get().sessionId().equals(sessionId)) {
                return new SaveOutcome.Locked(lease.get());
            }
            Optional<Customer> theirs = find(h, id);
            if (theirs.isPresent() && isMyOwnSave(theirs.get(), baseVersion, clean)) {
                // A retry after a connection lost during COMMIT: the first attempt did commit. Reporting a conflict
                // with my own values would make the operator merge against themself.
                return new SaveOutcome.Saved(theirs.get());
            }
            // Counted for hot-record advice only now that it is known to be a real conflict (not my own retried
            // save): one more statement, on this path only, so a successful save stays one statement.
            ConflictLog.record(h, id, user, ConflictLog.SAVE);
            return new SaveOutcome.Conflict(theirs);
        }));
    }

    /**
     * {@inheritDoc}
     *
     * <p>One auto-commit statement, like {@link #save}. When it matches no row, the reason is read afterwards: another
     * session's lease, else a deleted row. If neither holds, a lease that blocked the write ended between the two
     * statements, and the write is tried again; each further pass needs another session to take a new lease and let
     * it lapse in that same instant, so the loop ends at once in practice.
     */
    @Override
    public SaveOutcome overwrite(long id, CustomerData data) {
        CustomerData clean = valid(data);
        return call(() -> jdbi.withHandle(h -> {
            while (true) {
                Optional<Customer> saved = bindValues(h.createQuery(OVERWRITE_SQL), clean)
                        .bind("user", user).bind("id", id).bind("session", sessionId)
                        .map(mapper).findOne();
                if (saved.isPresent()) {
                    return new SaveOutcome.Saved(saved.get());
                }
                Optional<LeaseInfo> lease = LeaseSql.holder(h, id);
                if (lease.isPresent() && !lease.get().sessionId().equals(sessionId)) {
                    return new SaveOutcome.Locked(lease.get());
                }
                if (find(h, id).isEmpty()) {
                    return new SaveOutcome.Conflict(Optional.empty());
                }
            }
        }));
    }

    private boolean isMyOwnSave(Customer theirs, long baseVersion, CustomerData mine) {
        return theirs.version() == baseVersion + 1 && user.equals(theirs.updatedBy()) && theirs.data().sameValues(mine);
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
     * One auto-commit statement, like {@link #save}; its WHERE clause also names the writer for the triggers (a row
     * is deleted only when every condition held, so both settings were made before its triggers fire).
     */
    private DeleteOutcome delete(long id, long baseVersion, boolean underLease, long token) {
        String guard = underLease ? LeaseSql.FENCED : LeaseSql.NOT_LOCKED_BY_OTHERS;
        return call(() -> jdbi.withHandle(h -> {
            int rows = h.createUpdate("DELETE FROM customer WHERE id = :id AND version = :base AND " + guard
                            + " AND " + NAMES_THE_WRITER)
                    .bind("id", id).bind("base", baseVersion).bind("user", user).bind("session", sessionId)
                    .bind("token", token).execute();
            if (rows == 1) {
                return new DeleteOutcome.Deleted(id);
            }
            Optional<LeaseInfo> lease = LeaseSql.holder(h, id);
            if (underLease && lease.map(l -> l.token() != token || !l.holder().equals(user)).orElse(true)) {
                return new DeleteOutcome.LeaseLost(lease);
            }
            if (!underLease && lease.isPresent() && !lease.get().sessionId().equals(sessionId)) {
                return new DeleteOutcome.Locked(lease.get());
            }
            // The read of theirs also records the conflict for hot-record advice: no extra round trip.
            String recordAndReadTheirs = ConflictLog.RECORD + " SELECT * FROM customer WHERE id = :id";
            return new DeleteOutcome.Conflict(h.createQuery(recordAndReadTheirs)
                    .bind("id", id).bind("user", user).bind("kind", ConflictLog.DELETE).map(mapper).findOne());
        }));
    }

    @Override
    public List<Customer> page(CustomerPageRequest request) {
        return call(() -> jdbi.withHandle(h -> CustomerListQuery.page(h, request, mapper)));
    }

    @Override
    public CustomerCount count(String search, long budgetMs) {
        return call(() -> jdbi.withHandle(h -> CustomerListQuery.count(h, search, budgetMs)));
    }

    /**
     * {@inheritDoc}
     *
     * <p>Counts the rows of {@code customer_conflict} (V8__conflict.sql) younger than {@code window} by
     * {@code now()}; rows older than 30 days are purged whenever a conflict is recorded, so a window beyond that
     * counts no more.
     *
     * @throws IllegalArgumentException when the window is not positive
     */
    @Override
    public int recentConflicts(long id, Duration window) {
        if (window.isNegative() || window.isZero()) {
            throw new IllegalArgumentException("The window must be positive: " + window);
        }
        return call(() -> jdbi.withHandle(h -> ConflictLog.recent(h, id, window)));
    }

    /**
     * Names the Lockstep user for the rest of the handle's transaction ({@code SET LOCAL lockstep.user}), which the
     * history and stamp triggers record. Call it inside a transaction.
     */
    public static void actAs(Handle h, String user) {
        actAs(h, user, "");
    }

    /**
     * As {@link #actAs(Handle, String)}, also naming the client session ({@code lockstep.session}), which change
     * notifications carry so that a client recognizes its own writes.
     */
    public static void actAs(Handle h, String user, String sessionId) {
        h.createQuery("SELECT set_config('lockstep.user', :user, true), set_config('lockstep.session', :session, true)")
                .bind("user", user).bind("session", sessionId).mapTo(String.class).one();
    }

    /**
     * The values of a versioned save, normalized, judged only where they change the stored record (issue 11): a
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
        Optional<Customer> stored = call(() -> jdbi.withHandle(h -> find(h, id)));
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

    /**
     * Binds each field by column name. The values are bound as ready {@link Argument}s of their SQL type rather than
     * by Java type: the type of every field is known here, and skipping Jdbi's per-value argument-factory look-up
     * takes a measurable part of a save's client-side cost (see docs/benchmarks.md).
     */
    static <S extends SqlStatement<S>> S bindValues(S statement, CustomerData data) {
        for (CustomerField f : CustomerField.values()) {
            Object v = data.get(f);
            Argument argument;
            if (v == null) {
                int type = f.numeric() ? Types.NUMERIC : Types.VARCHAR;
                argument = (position, ps, ctx) -> ps.setNull(position, type);
            } else if (f.numeric()) {
                BigDecimal d = (BigDecimal) v;
                argument = (position, ps, ctx) -> ps.setBigDecimal(position, d);
            } else {
                String text = (String) v;
                argument = (position, ps, ctx) -> ps.setString(position, text);
            }
            statement.bind(f.column(), argument);
        }
        return statement;
    }

    /**
     * Runs a database call, once more when the first attempt found its pooled connection dead (the server restarted
     * since it was opened), and translates failures into {@link StoreErrors outcomes}.
     */
    static <T> T call(Supplier<T> body) {
        try {
            return body.get();
        } catch (InvalidCustomerException | org.lockstep.domain.ImportConflictException e) {
            throw e;
        } catch (RuntimeException e) {
            if (!StoreErrors.isConnectionLost(e)) {
                throw StoreErrors.translate(e);
            }
        }
        try {
            return body.get();
        } catch (InvalidCustomerException | org.lockstep.domain.ImportConflictException e) {
            throw e;
        } catch (RuntimeException e) {
            throw StoreErrors.translate(e);
        }
    }
}
