package org.lockstep.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;
import org.lockstep.domain.CancelSignal;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerCount;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerPageRequest;
import org.lockstep.domain.CustomerRepository;
import org.lockstep.domain.CustomerValidator;
import org.lockstep.domain.DeleteOutcome;
import org.lockstep.domain.FieldError;
import org.lockstep.domain.HistoryEntry;
import org.lockstep.domain.InvalidCustomerException;
import org.lockstep.domain.OutcomeUnknownException;
import org.lockstep.domain.SaveOutcome;
import org.lockstep.domain.StoreUnavailableException;

/**
 * Customers kept in memory, for view-model tests that need a repository but not PostgreSQL's semantics (mvvmFX's
 * contacts example does the same). {@code CustomerRepositoryContractTest} runs the same cases against this class and
 * the Jdbi store, so the two cannot drift apart.
 *
 * <p>What it keeps: versioned saves and deletes (a stale base version is a conflict with theirs, and is counted for
 * hot-record advice), blind overwrites, validation as the store does it (ADR 0010: a save is judged only where it
 * changes the stored values), one writer id per repository ({@link #asWriter}). What it does not: leases live in the
 * lease repository ({@link InMemoryLeaseRepository} is its fake), which this fake does not consult, so no save is
 * ever {@link SaveOutcome.Locked} and every save under a lease is {@link SaveOutcome.LeaseLost}; the list's paging and counting are PostgreSQL's (search folding,
 * keyset pages) and throw here. Tests of locks, of the list and of concurrency belong on the real database.
 *
 * <p>Every write that changes a customer leaves its history, as the database's triggers write it, in the store's
 * {@link #history()} ({@link InMemoryHistoryRepository}): an INSERT for a create, an UPDATE with the values before and
 * after for a save or an overwrite, a DELETE with the values deleted for a delete; each by the writing user, at the
 * store's clock. A write that changes nothing (a conflict, invalid values, a save under a lease) leaves none.
 *
 * <p>Repositories made by {@link #as} and {@link #asWriter} share the customers, as clients of one database do.
 * Thread-safe: every method holds the shared store's monitor.
 */
public final class InMemoryCustomerRepository implements CustomerRepository {

    private final Store store;
    private final String user;
    private final String sessionId;
    /** The version this client's saves restore ({@link #restoring}); 0: none. */
    private final long restoredFrom;

    private InMemoryCustomerRepository(Store store, String user, String sessionId) {
        this(store, user, sessionId, 0);
    }

    private InMemoryCustomerRepository(Store store, String user, String sessionId, long restoredFrom) {
        this.store = store;
        this.user = user;
        this.sessionId = sessionId;
        this.restoredFrom = restoredFrom;
    }

    /** An empty store, and a client of it acting as {@code user}; times come from the system clock. */
    public static InMemoryCustomerRepository empty(String user) {
        return empty(user, Clock.systemUTC());
    }

    /** An empty store whose writes are stamped by {@code clock}, and a client of it acting as {@code user}. */
    public static InMemoryCustomerRepository empty(String user, Clock clock) {
        return new InMemoryCustomerRepository(new Store(clock), user, UUID.randomUUID().toString());
    }

    /**
     * The version history of the store's customers, as every client of it wrote them: one history per store, as one
     * database has one {@code customer_history}.
     */
    public InMemoryHistoryRepository history() {
        return store.history;
    }

    /** Another client of the same customers, acting as {@code otherUser} in a session of its own. */
    public InMemoryCustomerRepository as(String otherUser) {
        return new InMemoryCustomerRepository(store, otherUser, UUID.randomUUID().toString());
    }

    @Override
    public Optional<Customer> find(long id) {
        synchronized (store) {
            return Optional.ofNullable(store.customers.get(id));
        }
    }

    @Override
    public Optional<Customer> createdBy(UUID request) {
        synchronized (store) {
            return Optional.ofNullable(store.created.get(request)).map(store.customers::get);
        }
    }

    @Override
    public Customer create(CustomerData data) {
        return create(data, UUID.randomUUID());
    }

    @Override
    public Customer create(CustomerData data, UUID request) {
        CustomerData clean = valid(CustomerValidator.validate(data), data);
        synchronized (store) {
            Long made = store.created.get(request);
            if (made != null) {
                return Optional.ofNullable(store.customers.get(made)).orElseThrow(() -> new OutcomeUnknownException(
                        "the new customer was created, and deleted again before Lockstep could read it", null));
            }
            Customer created = new Customer(store.nextId++, 1, clean, store.clock.instant(), user);
            store.customers.put(created.id(), created);
            store.created.put(request, created.id());
            store.history.record(new HistoryEntry(created.id(), 1, HistoryEntry.Op.INSERT, user, created.updatedAt(),
                    Optional.empty(), Optional.of(clean)));
            return created;
        }
    }

    @Override
    public SaveOutcome save(long id, long baseVersion, CustomerData data) {
        synchronized (store) {
            Customer stored = store.customers.get(id);
            // As the store: values valid on their own need no read; otherwise judged against the base, if still there.
            List<FieldError> errors = CustomerValidator.validate(data).isEmpty() || stored == null
                    || stored.version() != baseVersion ? List.of()
                            : CustomerValidator.validateChanges(stored.data(), data).errors();
            CustomerData clean = valid(errors, data);
            if (stored == null || stored.version() != baseVersion) {
                store.conflicts.add(new Conflict(id, store.clock.instant()));
                return new SaveOutcome.Conflict(Optional.ofNullable(stored));
            }
            return new SaveOutcome.Saved(store.write(stored, clean, user, restoredFrom));
        }
    }

    /** No lease exists here, so the token is never the record's lease: nothing is written. */
    @Override
    public SaveOutcome saveUnderLease(long id, long baseVersion, CustomerData data, long leaseToken) {
        return new SaveOutcome.LeaseLost(Optional.empty());
    }

    @Override
    public SaveOutcome overwrite(long id, CustomerData data) {
        CustomerData clean = valid(CustomerValidator.validate(data), data);
        synchronized (store) {
            Customer stored = store.customers.get(id);
            return stored == null ? new SaveOutcome.Conflict(Optional.empty())
                    : new SaveOutcome.Saved(store.write(stored, clean, user, restoredFrom));
        }
    }

    @Override
    public DeleteOutcome delete(long id, long baseVersion) {
        synchronized (store) {
            Customer stored = store.customers.get(id);
            if (stored == null || stored.version() != baseVersion) {
                store.conflicts.add(new Conflict(id, store.clock.instant()));
                return new DeleteOutcome.Conflict(Optional.ofNullable(stored));
            }
            store.customers.remove(id);
            store.history.record(new HistoryEntry(id, stored.version(), HistoryEntry.Op.DELETE, user,
                    store.clock.instant(), Optional.of(stored.data()), Optional.empty()));
            return new DeleteOutcome.Deleted(id);
        }
    }

    /** As {@link #saveUnderLease}: no lease exists here. */
    @Override
    public DeleteOutcome deleteUnderLease(long id, long baseVersion, long leaseToken) {
        return new DeleteOutcome.LeaseLost(Optional.empty());
    }

    @Override
    public String sessionId() {
        return sessionId;
    }

    @Override
    public InMemoryCustomerRepository asWriter(String writerId) {
        return new InMemoryCustomerRepository(store, user, writerId, restoredFrom);
    }

    /** {@inheritDoc} As the database's trigger, a version the history does not hold with values is refused. */
    @Override
    public InMemoryCustomerRepository restoring(long version) {
        if (version < 1) {
            throw new IllegalArgumentException("a restore names a version, 1 or more: " + version);
        }
        return new InMemoryCustomerRepository(store, user, sessionId, version);
    }

    /** Not kept here: the list's pages are PostgreSQL's (search folding, keyset paging). */
    @Override
    public List<Customer> page(CustomerPageRequest request, CancelSignal cancel) {
        throw new UnsupportedOperationException("the customer list runs on PostgreSQL; use TestDatabases.fresh()");
    }

    /** Not kept here, as {@link #page}. */
    @Override
    public CustomerCount count(String search, long budgetMs, CancelSignal cancel) {
        throw new UnsupportedOperationException("the customer list runs on PostgreSQL; use TestDatabases.fresh()");
    }

    @Override
    public int recentConflicts(long id, Duration window) {
        synchronized (store) {
            Instant since = store.clock.instant().minus(window);
            return (int) store.conflicts.stream().filter(c -> c.id() == id && !c.at().isBefore(since)).count();
        }
    }

    /** Kept with the writer's session, as the Jdbi store's {@code conflict_event} row; the conflict report reads it. */
    @Override
    public void recordMergeSaved(long id, long version) {
        synchronized (store) {
            store.merges.add(new MergeEvent(id, version, sessionId));
        }
    }

    /** Kept as {@link #recordMergeSaved}, with no version. */
    @Override
    public void recordMergeAbandoned(long id) {
        synchronized (store) {
            store.merges.add(new MergeEvent(id, 0, sessionId));
        }
    }

    private static CustomerData valid(List<FieldError> errors, CustomerData data) {
        if (!errors.isEmpty()) {
            throw new InvalidCustomerException(errors);
        }
        return data.normalized();
    }

    private record Conflict(long id, Instant at) {
    }

    /** A merge saved as {@code version}, or abandoned ({@code version} 0). */
    private record MergeEvent(long id, long version, String session) {
    }

    /** The customers every client of one in-memory store shares. */
    private static final class Store {

        final Clock clock;
        final Map<Long, Customer> customers = new HashMap<>();
        /** Each create's request id and the customer it made. */
        final Map<UUID, Long> created = new HashMap<>();
        final List<Conflict> conflicts = new ArrayList<>();
        final List<MergeEvent> merges = new ArrayList<>();
        final InMemoryHistoryRepository history = new InMemoryHistoryRepository(this);
        long nextId = 1;

        Store(Clock clock) {
            this.clock = clock;
        }

        /** @param restoredFrom the version this save restores, 0 for none: refused when the history lacks it */
        Customer write(Customer stored, CustomerData values, String user, long restoredFrom) {
            if (restoredFrom > 0 && history.valuesAt(stored.id(), restoredFrom).isEmpty()) {
                throw new StoreUnavailableException("The database refused the request: customer " + stored.id()
                        + " has no version " + restoredFrom + " to restore", null);
            }
            Customer saved = new Customer(stored.id(), stored.version() + 1, values, clock.instant(), user);
            customers.put(saved.id(), saved);
            history.record(new HistoryEntry(saved.id(), saved.version(), HistoryEntry.Op.UPDATE, user,
                    saved.updatedAt(), Optional.of(stored.data()), Optional.of(values),
                    restoredFrom > 0 ? OptionalLong.of(restoredFrom) : OptionalLong.empty()));
            return saved;
        }
    }
}
