package org.lockstep.store;

import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.transfer.CustomerBulkStore;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.lockstep.server.Database;
import org.lockstep.domain.AcquireOutcome;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.Lease;
import org.lockstep.domain.RecordBusyException;
import org.lockstep.domain.SaveOutcome;
import org.lockstep.testing.db.OutsideSession;
import org.lockstep.testing.db.TestDatabases;

/**
 * Waits are bounded, and a write that waited is judged by what is true when it writes. A session outside Lockstep
 * (psql, here a plain JDBC connection) holds a customer's row with {@code SELECT … FOR UPDATE} in an open
 * transaction.
 */
@DatabaseTest
class RowLockWaitTest {

    static Database db;
    static String name;
    static JdbiCustomerRepository alice;
    static JdbiCustomerRepository bob;
    static JdbiLeaseRepository aliceLeases;

    Connection psql;

    @BeforeAll
    static void open() {
        name = TestDatabases.freshName();
        TestDatabases.Server s = TestDatabases.server();
        db = Database.open(s.url(name), s.user(), s.password(), "Lockstep test");
        alice = new JdbiCustomerRepository(db.jdbi(), "Alice", "alice-session");
        bob = new JdbiCustomerRepository(db.jdbi(), "Bob", "bob-session");
        aliceLeases = new JdbiLeaseRepository(db.jdbi(), "Alice", "alice-session");
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

    @Test
    void aSaveOnARowHeldByAnotherSessionGivesUpNamingItAndNeverCommitsLater() throws Exception {
        Customer c = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "HELD-1").build());
        holdRow(c.id());

        assertThatThrownBy(() -> bob.save(c.id(), 1, c.data().with(CustomerField.CITY, "Campinas")))
                .isInstanceOf(RecordBusyException.class)
                .hasMessageContaining("Customer " + c.id() + " is being written by another session")
                .hasMessageContaining("psql (test blocker)")
                .hasMessageContaining("nothing was saved")
                .satisfies(e -> assertThat(((RecordBusyException) e).blocker()).hasValueSatisfying(
                        b -> assertThat(b).contains("psql (test blocker)")));

        psql.commit(); // the lock goes: a save the server had not really given up on would commit now
        // The server cancelled the statement and rolled its transaction back: nothing is left to commit. Any write
        // after the blocker's commit would have to pass through the row, so one more versioned save proves it.
        assertThat(bob.save(c.id(), 1, c.data().with(CustomerField.PHONE, "1"))).isInstanceOf(SaveOutcome.Saved.class);
        Customer now = alice.find(c.id()).orElseThrow();
        assertThat(now.version()).isEqualTo(2);
        assertThat(now.data().city()).isEqualTo(c.data().city());
    }

    @Test
    void aLeaseGrantedWhileASaveWaitedForTheRowRefusesThatSave() throws Exception {
        Customer c = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "HELD-2").build());
        holdRow(c.id());
        // Alice asks for the lease first, then Bob saves optimistically: both wait for psql, in that order.
        CompletableFuture<AcquireOutcome> grant = CompletableFuture.supplyAsync(
                () -> aliceLeases.acquire(c.id(), 60_000));
        awaitWaiters(1);
        CompletableFuture<SaveOutcome> save = CompletableFuture.supplyAsync(
                () -> bob.save(c.id(), 1, c.data().with(CustomerField.CITY, "Inside the lease")));
        awaitWaiters(2);

        psql.commit();

        Lease lease = ((AcquireOutcome.Granted) grant.get(10, TimeUnit.SECONDS)).lease();
        SaveOutcome outcome = save.get(10, TimeUnit.SECONDS);
        assertThat(outcome).isInstanceOf(SaveOutcome.Locked.class);
        assertThat(((SaveOutcome.Locked) outcome).holder().token()).isEqualTo(lease.token());
        assertThat(alice.find(c.id()).orElseThrow().version()).isEqualTo(1);
    }

    @Test
    void aSaveWaitsForARenewalInProgressAndIsRefusedByTheLeaseItKeepsRunning() throws Exception {
        Customer c = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "HELD-RENEW").build());
        aliceLeases.acquire(c.id(), 60_000);
        // The lease's expiry just passed, as a renewal that checked it a moment before commits: the renewal (here
        // by hand, as the keeper's statement does it) holds the lease's row until it commits.
        db.jdbi().useHandle(h -> h.execute("UPDATE record_lease SET expires_at = clock_timestamp() - interval '1 ms' "
                + "WHERE record_id = ?", c.id()));
        psql = OutsideSession.holding(name, "UPDATE record_lease SET expires_at = clock_timestamp() + interval '60 s' "
                + "WHERE record_id = ? RETURNING 1", c.id());
        CompletableFuture<SaveOutcome> save = CompletableFuture.supplyAsync(
                () -> bob.save(c.id(), 1, c.data().with(CustomerField.CITY, "Inside the renewed lease")));
        awaitWaiters(1);

        psql.commit();

        assertThat(save.get(10, TimeUnit.SECONDS)).isInstanceOf(SaveOutcome.Locked.class);
        assertThat(alice.find(c.id()).orElseThrow().version()).isEqualTo(1);
    }

    @Test
    void aSaveThatWaitedBeforeALeaseCommitsBeforeTheLeaseBegins() throws Exception {
        Customer c = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "HELD-3").build());
        holdRow(c.id());
        // Now Bob's save waits first, then the grant.
        CompletableFuture<SaveOutcome> save = CompletableFuture.supplyAsync(
                () -> bob.save(c.id(), 1, c.data().with(CustomerField.CITY, "Before the lease")));
        awaitWaiters(1);
        CompletableFuture<AcquireOutcome> grant = CompletableFuture.supplyAsync(
                () -> aliceLeases.acquire(c.id(), 60_000));
        awaitWaiters(2);

        psql.commit();

        Customer saved = ((SaveOutcome.Saved) save.get(10, TimeUnit.SECONDS)).saved();
        Lease lease = ((AcquireOutcome.Granted) grant.get(10, TimeUnit.SECONDS)).lease();
        // By the database clock: the lease began after the save wrote its row, and the history says when that was.
        assertThat(lease.acquiredAt()).isAfter(saved.updatedAt());
        Instant changedAt = db.jdbi().withHandle(h -> h.createQuery("SELECT changed_at FROM customer_history"
                + " WHERE customer_id = :id AND version = 2").bind("id", c.id())
                .mapTo(OffsetDateTime.class).one()).toInstant();
        assertThat(changedAt).isEqualTo(saved.updatedAt());
    }

    @Test
    void aLeaseGrantedAfterWaitingForTheRowIsValidForItsWholeTtlFromTheGrant() throws Exception {
        Customer c = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "HELD-4").build());
        holdRow(c.id());
        long ttlMs = 3_000;
        CompletableFuture<AcquireOutcome> grant =
                CompletableFuture.supplyAsync(() -> aliceLeases.acquire(c.id(), ttlMs));
        awaitWaiters(1);
        // Hold the row for a while longer than nothing: the grant must not count the wait against its TTL.
        Instant waitingSince = dbNow();
        await().atMost(Duration.ofSeconds(5)).until(() -> Duration.between(waitingSince, dbNow()).toMillis() > 1_500);
        psql.commit();

        Lease lease = ((AcquireOutcome.Granted) grant.get(10, TimeUnit.SECONDS)).lease();
        assertThat(Duration.between(lease.acquiredAt(), lease.expiresAt()).toMillis()).isEqualTo(ttlMs);
        assertThat(lease.acquiredAt()).isAfter(waitingSince.plusMillis(1_500));
        assertThat(lease.remainingMs()).isGreaterThan(ttlMs - 1_000);
    }

    @Test
    void aLeaseGrantOnARowHeldTooLongGivesUpAsBusy() throws Exception {
        Customer c = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "HELD-5").build());
        holdRow(c.id());

        assertThatThrownBy(() -> aliceLeases.acquire(c.id(), 60_000))
                .isInstanceOf(RecordBusyException.class)
                .hasMessageContaining("it was not locked");

        assertThat(aliceLeases.holder(c.id())).isEmpty();
    }

    @Test
    void anImportThatUpdatesARowHeldByAnotherSessionGivesUpNamingTheLineAndImportsNothing() throws Exception {
        Customer c = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "HELD-6").build());
        long before = count();
        holdRow(c.id());
        CustomerBulkStore bulk = new JdbiCustomerBulkStore(db.jdbi(), "Carol", "carol-session");
        List<CustomerBulkStore.ImportRow> rows = List.of(
                new CustomerBulkStore.ImportRow(2, null, aCustomer().with(CustomerField.EXTERNAL_REF, "NEW-6").build()),
                new CustomerBulkStore.ImportRow(3, c.id(), c.data().with(CustomerField.CITY, "Imported city")));

        assertThatThrownBy(() -> bulk.write(CustomerBulkStore.ImportKey.ID, rows.iterator()))
                .isInstanceOf(RecordBusyException.class)
                .hasMessageContaining("Customer " + c.id() + " (line 3) is being written by another session")
                .hasMessageContaining("psql (test blocker)")
                .hasMessageContaining("nothing was imported");

        psql.commit();
        assertThat(alice.find(c.id()).orElseThrow().data().city()).isEqualTo(c.data().city());
        assertThat(count()).isEqualTo(before); // the file's new row went with the rest: all or nothing
    }

    @Test
    void aRowLockMessageGivesTheSecondsTheHoldersTransactionHasBeenOpenByTheDatabaseClock() throws Exception {
        Customer c = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "HELD-AGE").build());
        holdRow(c.id());
        // The holder's transaction began at its first statement; its age as the server measures it.
        await().atMost(Duration.ofSeconds(10)).until(() -> holderAgeSeconds() >= 3);
        double before = holderAgeSeconds();

        Throwable refused = org.assertj.core.api.Assertions.catchThrowable(
                () -> bob.save(c.id(), 1, c.data().with(CustomerField.CITY, "Campinas")));
        double after = holderAgeSeconds();

        assertThat(refused).isInstanceOf(RecordBusyException.class);
        java.util.regex.Matcher open = java.util.regex.Pattern.compile("in a transaction open for (\\d+) s")
                .matcher(refused.getMessage());
        assertThat(open.find()).as(refused.getMessage()).isTrue();
        // Told after the save waited its lock_timeout: between the age then and the age now, in whole seconds.
        assertThat(Long.parseLong(open.group(1))).isBetween(
                (long) Math.floor(before + SessionSettings.LOCK_TIMEOUT_MS / 1000.0), (long) Math.ceil(after));
    }

    @Test
    void aHolderWhoseTransactionStartTheOperatorMayNotSeeIsNamedWithoutAnAge() throws Exception {
        TestDatabases.Server s = TestDatabases.server();
        assumeTrue(!s.adminUser().equals(s.user()), "the test server's one role sees all its sessions: skipped");
        Customer c = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "HELD-HIDDEN").build());
        // psql as the superuser, as an administrator would: the operator's role is no member of it.
        java.util.Properties props = new java.util.Properties();
        props.setProperty("user", s.adminUser());
        props.setProperty("password", s.adminPassword());
        props.setProperty("ApplicationName", "psql (administrator)");
        psql = java.sql.DriverManager.getConnection(s.url(name), props);
        psql.setAutoCommit(false);
        try (var lock = psql.prepareStatement("SELECT 1 FROM customer WHERE id = ? FOR UPDATE")) {
            lock.setLong(1, c.id());
            lock.executeQuery().close();
        }

        assertThatThrownBy(() -> bob.save(c.id(), 1, c.data().with(CustomerField.CITY, "Campinas")))
                .isInstanceOf(RecordBusyException.class)
                .hasMessageContaining("Customer " + c.id() + " is being written by another session (psql "
                        + "(administrator), role " + s.adminUser() + ")")
                .hasMessageNotContaining("open for");
    }

    /** How long the holder's transaction has been open, s, by the database's clock, asked in that transaction. */
    private double holderAgeSeconds() throws SQLException {
        try (var st = psql.createStatement(); var rs = st.executeQuery(
                "SELECT extract(epoch FROM clock_timestamp() - now())::float8")) {
            rs.next();
            return rs.getDouble(1);
        }
    }

    private static long count() {
        return db.jdbi().withHandle(h -> h.createQuery("SELECT count(*) FROM customer").mapTo(Long.class).one());
    }

    /** Opens a session outside Lockstep that holds the row, as {@code BEGIN; SELECT … FOR UPDATE;} in psql. */
    private void holdRow(long id) throws SQLException {
        psql = OutsideSession.holding(name, "SELECT 1 FROM customer WHERE id = ? FOR UPDATE", id);
    }

    private static void awaitWaiters(int n) {
        OutsideSession.awaitLockWaiters(db.jdbi(), n);
    }

    private static Instant dbNow() {
        return db.jdbi().withHandle(h -> h.createQuery("SELECT clock_timestamp()").mapTo(OffsetDateTime.class).one())
                .toInstant();
    }
}
