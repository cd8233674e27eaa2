package org.lockstep.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.lockstep.server.Database;
import org.lockstep.domain.AcquireOutcome;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.DeleteOutcome;
import org.lockstep.domain.Lease;
import org.lockstep.domain.LeaseEvent;
import org.lockstep.domain.Presence;
import org.lockstep.domain.SaveOutcome;
import org.lockstep.lab.StockStore;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.OutsideSession;
import org.lockstep.testing.db.TestDatabases;

/**
 * A lease operation that waited for a lock is judged, and its times set, by the database clock when the lock was
 * granted — not when the statement began. A session outside Lockstep (psql, here a plain JDBC connection) holds the
 * lease's row (or the customer's) with {@code SELECT … FOR UPDATE} in an open transaction while the operation waits,
 * then commits.
 */
@DatabaseTest
class LeaseTimesAfterWaitTest {

    static final AtomicInteger REFS = new AtomicInteger();
    static final String LEASE_ROW = "SELECT 1 FROM record_lease WHERE record_id = ? FOR UPDATE";
    static final String CUSTOMER_ROW = "SELECT 1 FROM customer WHERE id = ? FOR UPDATE";

    static Database db;
    static String name;
    static JdbiCustomerRepository alice;
    static JdbiLeaseRepository aliceLeases;
    static JdbiLeaseRepository bobLeases;

    Connection psql;

    @BeforeAll
    static void open() {
        name = TestDatabases.freshName();
        TestDatabases.Server s = TestDatabases.server();
        db = Database.open(s.url(name), s.user(), s.password(), "Lockstep test");
        alice = new JdbiCustomerRepository(db.jdbi(), "Alice", "alice-session");
        aliceLeases = new JdbiLeaseRepository(db.jdbi(), "Alice", "alice-session");
        bobLeases = new JdbiLeaseRepository(db.jdbi(), "Bob", "bob-session");
    }

    @AfterAll
    static void close() {
        db.close();
    }

    @AfterEach
    void endBlocker() throws SQLException {
        if (psql != null) {
            psql.close();
        }
    }

    /**
     * A renewal or a takeover that waited is valid for its whole TTL from the moment the lock was free: the wait is
     * not counted against it, in what it returns nor in what it stores.
     */
    @ParameterizedTest(name = "{0} waiting for the {1} row")
    @CsvSource(textBlock = """
            renewal,  lease
            takeover, lease
            takeover, customer
            """)
    void anOperationThatWaitedIsValidForItsWholeTtlFromTheMomentItGotTheLock(String operation, String blocked)
            throws Exception {
        Customer c = customer();
        long ttlMs = 3_000;
        Supplier<Lease> op;
        if (operation.equals("renewal")) {
            Lease held = granted(aliceLeases.acquire(c.id(), 60_000));
            op = () -> aliceLeases.renew(c.id(), held.token(), ttlMs).orElseThrow();
        } else {
            Lease lapsing = granted(aliceLeases.acquire(c.id(), 1));
            await().atMost(Duration.ofSeconds(5)).until(() -> dbNow().isAfter(lapsing.expiresAt()));
            op = () -> granted(bobLeases.acquire(c.id(), ttlMs));
        }
        hold(blocked.equals("lease") ? LEASE_ROW : CUSTOMER_ROW, c.id());
        CompletableFuture<Lease> waiting = CompletableFuture.supplyAsync(op);
        awaitWaiters(1);
        Instant waitingSince = dbNow();
        await().atMost(Duration.ofSeconds(5)).until(() -> Duration.between(waitingSince, dbNow()).toMillis() > 1_500);
        Instant free = dbNow();

        psql.commit();

        Lease lease = waiting.get(10, TimeUnit.SECONDS);
        assertThat(lease.expiresAt()).isAfterOrEqualTo(free.plusMillis(ttlMs));
        Instant stored = leaseColumn(c.id(), "expires_at");
        assertThat(stored).isEqualTo(lease.expiresAt());
        assertThat(grantEvent(c.id(), lease.token()).expiresAt()).contains(lease.expiresAt());
        if (operation.equals("takeover")) {
            assertThat(lease.acquiredAt()).isAfterOrEqualTo(free);
            assertThat(Duration.between(lease.acquiredAt(), lease.expiresAt()).toMillis()).isEqualTo(ttlMs);
        }
    }

    /**
     * A lease that lapsed while the operation waited is not revived by a renewal, not reported released or broken,
     * and nothing is written under it: each statement looks at the clock only once it holds the lease's row.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource(textBlock = """
            renew
            release
            break
            save under the lease
            delete under the lease
            """)
    void aLeaseThatLapsedDuringTheWaitIsNotRenewedEndedOrWrittenUnder(String operation) throws Exception {
        Customer c = customer();
        Lease lease = granted(aliceLeases.acquire(c.id(), 2_000));
        Supplier<Boolean> succeeded = switch (operation) {
            case "renew" -> () -> aliceLeases.renew(c.id(), lease.token(), 60_000).isPresent();
            case "release" -> () -> aliceLeases.release(c.id(), lease.token());
            case "break" -> () -> bobLeases.breakLease(c.id()).isPresent();
            case "save under the lease" -> () -> alice.saveUnderLease(c.id(), 1,
                    c.data().with(CustomerField.CITY, "After the lapse"), lease.token()) instanceof SaveOutcome.Saved;
            default -> () -> alice.deleteUnderLease(c.id(), 1, lease.token()) instanceof DeleteOutcome.Deleted;
        };
        hold(LEASE_ROW, c.id());
        CompletableFuture<Boolean> waiting = CompletableFuture.supplyAsync(succeeded);
        awaitWaiters(1);
        await().atMost(Duration.ofSeconds(5)).until(() -> dbNow().isAfter(lease.expiresAt()));

        psql.commit();

        assertThat(waiting.get(10, TimeUnit.SECONDS)).isFalse();
        assertThat(leaseColumn(c.id(), "expires_at")).isEqualTo(lease.expiresAt());
        String ended = db.jdbi().withHandle(h -> h.createQuery("SELECT ended FROM record_lease WHERE record_id = :id")
                .bind("id", c.id()).mapTo(String.class).one());
        assertThat(ended).isNull();
        assertThat(aliceLeases.events(c.id())).extracting(LeaseEvent::kind).containsExactly(LeaseEvent.Kind.ACQUIRED);
        Customer now = alice.find(c.id()).orElseThrow();
        assertThat(now.version()).isEqualTo(1);
        assertThat(now.data().city()).isEqualTo(c.data().city());
    }

    /** A release or a break that waited ends the lease, and says so, at the moment it happened. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(textBlock = """
            release, RELEASED
            break,   BROKEN
            """)
    void anEndThatWaitedIsRecordedWhenItHappened(String operation, LeaseEvent.Kind kind) throws Exception {
        Customer c = customer();
        Lease lease = granted(aliceLeases.acquire(c.id(), 60_000));
        hold(LEASE_ROW, c.id());
        CompletableFuture<Boolean> waiting = CompletableFuture.supplyAsync(() -> operation.equals("release")
                ? aliceLeases.release(c.id(), lease.token()) : bobLeases.breakLease(c.id()).isPresent());
        awaitWaiters(1);
        Instant waitingSince = dbNow();
        await().atMost(Duration.ofSeconds(5)).until(() -> Duration.between(waitingSince, dbNow()).toMillis() > 1_000);
        Instant free = dbNow();

        psql.commit();

        assertThat(waiting.get(10, TimeUnit.SECONDS)).isTrue();
        Instant ended = leaseColumn(c.id(), "expires_at");
        assertThat(ended).isAfterOrEqualTo(free);
        List<LeaseEvent> events = aliceLeases.events(c.id());
        LeaseEvent end = events.stream().filter(e -> e.kind() == kind).findFirst().orElseThrow();
        assertThat(end.at()).isEqualTo(ended);
        assertThat(grantEvent(c.id(), lease.token()).expiresAt()).contains(ended);
    }

    /** The contention lab's lease strategy follows the same rule: no write under, nor release of, a lapsed lease. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(textBlock = """
            fenced write
            release
            """)
    void theLabsLeaseThatLapsedDuringTheWaitIsNeitherWrittenUnderNorReleased(String operation) throws Exception {
        JdbiLabStore lab = new JdbiLabStore(db.jdbi(), () -> {});
        long row = lab.reset("wait-" + REFS.incrementAndGet(), 5);
        try (StockStore.Session buyer = lab.openSession()) {
            long token = buyer.acquireLease(row, "lab buyer 1", 2_000).orElseThrow();
            Instant expires = db.jdbi().withHandle(h -> h.createQuery("SELECT expires_at FROM lab_lease"
                    + " WHERE stock_id = :id").bind("id", row).mapTo(OffsetDateTime.class).one()).toInstant();
            hold("SELECT 1 FROM lab_lease WHERE stock_id = ? FOR UPDATE", row);
            CompletableFuture<Boolean> waiting = CompletableFuture.supplyAsync(() -> operation.equals("release")
                    ? buyer.releaseLease(row, token) : buyer.writeFenced(row, token, 4));
            awaitWaiters(1);
            await().atMost(Duration.ofSeconds(5)).until(() -> dbNow().isAfter(expires));

            psql.commit();

            assertThat(waiting.get(10, TimeUnit.SECONDS)).isFalse();
            assertThat(lab.stock(row)).isEqualTo(5);
            Instant after = db.jdbi().withHandle(h -> h.createQuery("SELECT expires_at FROM lab_lease"
                    + " WHERE stock_id = :id").bind("id", row).mapTo(OffsetDateTime.class).one()).toInstant();
            assertThat(after).isEqualTo(expires);
        }
    }

    /** Presence is judged by the same clock: a heartbeat that waited for its row lives its whole TTL from then. */
    @Test
    void aHeartbeatThatWaitedLivesItsWholeTtlFromTheMomentItGotTheRow() throws Exception {
        JdbiPresenceRepository bob = new JdbiPresenceRepository(db.jdbi(), "Bob", "bob-presence",
                Duration.ofSeconds(3));
        bob.heartbeat(Map.of(77L, Presence.State.VIEWING));
        hold("SELECT 1 FROM presence WHERE customer_id = ? FOR UPDATE", 77L);
        CompletableFuture<Void> waiting = CompletableFuture.runAsync(
                () -> bob.heartbeat(Map.of(77L, Presence.State.EDITING)));
        awaitWaiters(1);
        Instant waitingSince = dbNow();
        await().atMost(Duration.ofSeconds(5)).until(() -> Duration.between(waitingSince, dbNow()).toMillis() > 1_500);
        Instant free = dbNow();

        psql.commit();

        waiting.get(10, TimeUnit.SECONDS);
        Instant expires = db.jdbi().withHandle(h -> h.createQuery("SELECT expires_at FROM presence"
                + " WHERE customer_id = 77").mapTo(OffsetDateTime.class).one()).toInstant();
        assertThat(expires).isAfterOrEqualTo(free.plusSeconds(3));
    }

    private static Customer customer() {
        return alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "WAIT-" + REFS.incrementAndGet()).build());
    }

    private static Lease granted(AcquireOutcome outcome) {
        assertThat(outcome).isInstanceOf(AcquireOutcome.Granted.class);
        return ((AcquireOutcome.Granted) outcome).lease();
    }

    private static LeaseEvent grantEvent(long id, long token) {
        return aliceLeases.events(id).stream().filter(e -> e.token() == token
                && (e.kind() == LeaseEvent.Kind.ACQUIRED || e.kind() == LeaseEvent.Kind.EXPIRED_TAKEOVER))
                .findFirst().orElseThrow();
    }

    private static Instant leaseColumn(long id, String column) {
        return db.jdbi().withHandle(h -> h.createQuery("SELECT " + column + " FROM record_lease WHERE record_id = :id")
                .bind("id", id).mapTo(OffsetDateTime.class).one()).toInstant();
    }

    /** Opens a session outside Lockstep that runs {@code lockSql} in an open transaction, as psql would. */
    private void hold(String lockSql, long id) throws SQLException {
        psql = OutsideSession.holding(name, lockSql, id);
    }

    private static void awaitWaiters(int n) {
        OutsideSession.awaitLockWaiters(db.jdbi(), n);
    }

    private static Instant dbNow() {
        return db.jdbi().withHandle(h -> h.createQuery("SELECT clock_timestamp()").mapTo(OffsetDateTime.class).one())
                .toInstant();
    }
}
