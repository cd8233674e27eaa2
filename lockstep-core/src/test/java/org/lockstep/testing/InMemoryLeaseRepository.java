package org.lockstep.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.LongPredicate;
import org.lockstep.domain.AcquireOutcome;
import org.lockstep.domain.CustomerRepository;
import org.lockstep.domain.Lease;
import org.lockstep.domain.LeaseEvent;
import org.lockstep.domain.LeaseInfo;
import org.lockstep.domain.LeaseRepository;

/**
 * Leases kept in memory, for view-model tests that need a lock but not PostgreSQL. It does what
 * {@code JdbiLeaseRepository} and its SQL do (V3__lease.sql, V15__clock_after_wait.sql), with {@code clock} in place
 * of the database clock — give it a {@link ManualClock} and a lease lapses exactly when the test moves the clock past
 * its expiry, never by itself. {@code LeaseRepositoryContractTest} runs the same cases against this class and the
 * Jdbi store, so the two cannot drift apart.
 *
 * <p>What it keeps, as the store does: one lease per customer, granted when nobody holds it, when it lapsed or ended,
 * or when the same session asks again (then with a new token that supersedes the old); a fencing token per grant,
 * larger than every earlier grant's on any customer; renewals, releases and every other operation but
 * {@link #breakLease} only for the holding session, a repeated release answered as released; a lease gone with its
 * customer; and the audit trail ({@code lease_event}) with the same kinds, holders, actors and expiries. What it does
 * not: the customers' rows are not locked, so there is nothing to wait for, no {@code RecordBusyException}, and no
 * lease wait is recorded for the conflict report; and no save is fenced by it ({@link InMemoryCustomerRepository}
 * saves under no lease). Tests of those belong on the real database.
 *
 * <p>Repositories made by {@link #as} and {@link #asWriter} share the leases, as clients of one database do.
 * Thread-safe: every method holds the shared table's monitor.
 */
public final class InMemoryLeaseRepository implements LeaseRepository {

    private final Table table;
    private final String holder;
    private final String sessionId;

    private InMemoryLeaseRepository(Table table, String holder, String sessionId) {
        this.table = table;
        this.holder = holder;
        this.sessionId = sessionId;
    }

    /**
     * An empty lease table over the customers that {@code customerExists} says exist (asked at every operation, as
     * the foreign key of {@code record_lease} does), judged by {@code clock}, and a client of it.
     *
     * @param holder    the operator's name, shown to others while this client holds a lease
     * @param sessionId this client's session (or writer id)
     */
    public static InMemoryLeaseRepository over(LongPredicate customerExists, Clock clock, String holder,
            String sessionId) {
        return new InMemoryLeaseRepository(new Table(customerExists, clock), holder, sessionId);
    }

    /**
     * Leases on the customers of {@code customers}, judged by {@code clock}; this client holds them as
     * {@code holder}, in the customers' client session ({@link CustomerRepository#sessionId()}), as the product
     * pairs the two stores.
     */
    public static InMemoryLeaseRepository over(CustomerRepository customers, Clock clock, String holder) {
        return over(id -> customers.find(id).isPresent(), clock, holder, customers.sessionId());
    }

    /** Another client of the same leases, acting as {@code otherHolder} in a session of its own. */
    public InMemoryLeaseRepository as(String otherHolder) {
        return as(otherHolder, UUID.randomUUID().toString());
    }

    /** Another client of the same leases, acting as {@code otherHolder} in the session {@code otherSessionId}. */
    public InMemoryLeaseRepository as(String otherHolder, String otherSessionId) {
        return new InMemoryLeaseRepository(table, otherHolder, otherSessionId);
    }

    @Override
    public String sessionId() {
        return sessionId;
    }

    @Override
    public InMemoryLeaseRepository asWriter(String writerId) {
        return new InMemoryLeaseRepository(table, holder, writerId);
    }

    /** {@inheritDoc} As the store's one statement: a grant, or who holds it, or {@link AcquireOutcome.Gone}. */
    @Override
    public AcquireOutcome acquire(long recordId, long ttlMs) {
        if (ttlMs < 1) {
            throw new IllegalArgumentException("A lease lasts at least 1 ms, not " + ttlMs);
        }
        synchronized (table) {
            if (!table.exists(recordId)) {
                return new AcquireOutcome.Gone(recordId);
            }
            Instant now = table.clock.instant();
            Row previous = table.leases.get(recordId);
            if (previous != null && previous.runsAt(now) && !previous.sessionId.equals(sessionId)) {
                return new AcquireOutcome.HeldByOther(previous.info(recordId));
            }
            Row granted = new Row(holder, sessionId, ++table.lastToken, now, now.plusMillis(ttlMs));
            table.leases.put(recordId, granted);
            if (previous != null) {
                // This session took a new token while its old one still ran: the old grant ends here.
                table.grantOf(recordId, previous.token).filter(e -> e.expiresAt.isAfter(now))
                        .ifPresent(e -> e.expiresAt = now);
            }
            boolean takeover = previous != null && previous.ended == null && !previous.sessionId.equals(sessionId);
            table.events.add(new Event(recordId, granted.token, holder,
                    takeover ? LeaseEvent.Kind.EXPIRED_TAKEOVER : LeaseEvent.Kind.ACQUIRED, holder, now,
                    granted.expiresAt));
            return new AcquireOutcome.Granted(granted.lease(recordId, now));
        }
    }

    /** {@inheritDoc} Only the holding session renews, and only a lease that still runs. */
    @Override
    public Optional<Lease> renew(long recordId, long token, long ttlMs) {
        synchronized (table) {
            Instant now = table.clock.instant();
            Optional<Row> held = table.held(recordId).filter(r -> r.token == token && r.sessionId.equals(sessionId)
                    && r.runsAt(now));
            held.ifPresent(r -> {
                r.expiresAt = now.plusMillis(ttlMs);
                table.grantOf(recordId, token).ifPresent(e -> e.expiresAt = r.expiresAt);
            });
            return held.map(r -> r.lease(recordId, now));
        }
    }

    /** {@inheritDoc} Only the holding session releases; a release of a grant it released already says released. */
    @Override
    public boolean release(long recordId, long token) {
        synchronized (table) {
            Optional<Row> mine = table.held(recordId).filter(r -> r.token == token && r.sessionId.equals(sessionId));
            if (mine.isPresent() && "released".equals(mine.get().ended)) {
                return true;
            }
            return mine.flatMap(r -> table.end(recordId, r, "released", holder)).isPresent();
        }
    }

    /** {@inheritDoc} Anyone may break; the trail names this client's holder as who broke it. */
    @Override
    public Optional<LeaseInfo> breakLease(long recordId) {
        synchronized (table) {
            return table.held(recordId).flatMap(r -> table.end(recordId, r, "broken", holder));
        }
    }

    @Override
    public void recordLost(long recordId, long token) {
        synchronized (table) {
            table.events.add(new Event(recordId, token, holder, LeaseEvent.Kind.LOST, holder, table.clock.instant(),
                    null));
        }
    }

    @Override
    public Optional<LeaseInfo> holder(long recordId) {
        synchronized (table) {
            Instant now = table.clock.instant();
            return table.held(recordId).filter(r -> r.expiresAt.isAfter(now)).map(r -> r.info(recordId));
        }
    }

    @Override
    public List<LeaseInfo> active() {
        synchronized (table) {
            Instant now = table.clock.instant();
            return table.leases.keySet().stream().sorted().filter(table::exists)
                    .map(id -> Map.entry(id, table.leases.get(id))).filter(e -> e.getValue().expiresAt.isAfter(now))
                    .map(e -> e.getValue().info(e.getKey())).toList();
        }
    }

    @Override
    public List<LeaseEvent> events(long recordId) {
        synchronized (table) {
            return table.events.stream().filter(e -> e.recordId == recordId).map(Event::value).toList();
        }
    }

    /** A record's lease row ({@code record_lease}): kept after it lapses or ends, as the store keeps it. */
    private static final class Row {
        final String holder;
        final String sessionId;
        final long token;
        final Instant acquiredAt;
        Instant expiresAt;
        /** {@code released} or {@code broken} once ended early, else null. */
        String ended;

        Row(String holder, String sessionId, long token, Instant acquiredAt, Instant expiresAt) {
            this.holder = holder;
            this.sessionId = sessionId;
            this.token = token;
            this.acquiredAt = acquiredAt;
            this.expiresAt = expiresAt;
        }

        boolean runsAt(Instant now) {
            return ended == null && expiresAt.isAfter(now);
        }

        LeaseInfo info(long recordId) {
            return new LeaseInfo(recordId, holder, sessionId, token, acquiredAt, expiresAt);
        }

        Lease lease(long recordId, Instant now) {
            return new Lease(recordId, token, acquiredAt, expiresAt, Duration.between(now, expiresAt).toMillis());
        }
    }

    /** One entry of the trail ({@code lease_event}); a grant's expiry follows its renewals and its end. */
    private static final class Event {
        final long recordId;
        final long token;
        final String holder;
        final LeaseEvent.Kind kind;
        final String actor;
        final Instant at;
        Instant expiresAt;

        Event(long recordId, long token, String holder, LeaseEvent.Kind kind, String actor, Instant at,
                Instant expiresAt) {
            this.recordId = recordId;
            this.token = token;
            this.holder = holder;
            this.kind = kind;
            this.actor = actor;
            this.at = at;
            this.expiresAt = expiresAt;
        }

        boolean isGrant() {
            return kind == LeaseEvent.Kind.ACQUIRED || kind == LeaseEvent.Kind.EXPIRED_TAKEOVER;
        }

        LeaseEvent value() {
            return new LeaseEvent(recordId, token, holder, kind, actor, at, Optional.ofNullable(expiresAt));
        }
    }

    /** The leases and the trail every client of one in-memory store shares. */
    private static final class Table {
        final LongPredicate customerExists;
        final Clock clock;
        final Map<Long, Row> leases = new HashMap<>();
        final List<Event> events = new ArrayList<>();
        /** The last token drawn ({@code lease_token_seq}): one sequence for every record. */
        long lastToken;

        Table(LongPredicate customerExists, Clock clock) {
            this.customerExists = customerExists;
            this.clock = clock;
        }

        boolean exists(long recordId) {
            return customerExists.test(recordId);
        }

        /** The record's lease row, of any state; none once the customer is gone (ON DELETE CASCADE). */
        Optional<Row> held(long recordId) {
            if (!exists(recordId)) {
                leases.remove(recordId);
                return Optional.empty();
            }
            return Optional.ofNullable(leases.get(recordId));
        }

        Optional<Event> grantOf(long recordId, long token) {
            return events.stream().filter(e -> e.recordId == recordId && e.token == token && e.isGrant()).findFirst();
        }

        /** Ends a running grant now ({@code how}: released or broken), as the store's END statement does. */
        Optional<LeaseInfo> end(long recordId, Row row, String how, String actor) {
            Instant now = clock.instant();
            if (!row.runsAt(now)) {
                return Optional.empty();
            }
            row.expiresAt = now;
            row.ended = how;
            events.add(new Event(recordId, row.token, row.holder,
                    how.equals("released") ? LeaseEvent.Kind.RELEASED : LeaseEvent.Kind.BROKEN, actor, now, null));
            grantOf(recordId, row.token).ifPresent(e -> e.expiresAt = now);
            return Optional.of(row.info(recordId));
        }
    }
}
