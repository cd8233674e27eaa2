package org.lockstep.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.lockstep.server.Database;
import org.lockstep.domain.CancelSignal;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerCount;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.CustomerPageRequest;
import org.lockstep.domain.ReadCancelledException;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.OutsideSession;
import org.lockstep.testing.db.TestDatabases;

/**
 * A list read whose {@link CancelSignal} is cancelled stops on the server, not only in the client: the customer table
 * is held by an outside session ({@code LOCK TABLE … IN ACCESS EXCLUSIVE MODE} in psql), so a read waits there until
 * it is cancelled; the sessions waiting are read from {@code pg_stat_activity}. The database's lock_timeout is raised
 * to a minute for this, so that only the cancel can end a wait.
 */
@DatabaseTest
class CancelledReadsTest {

    static String name;
    static Database db;
    static JdbiCustomerRepository repository;

    @BeforeAll
    static void open() {
        name = TestDatabases.freshName();
        TestDatabases.Server s = TestDatabases.server();
        db = Database.open(s.url(name) + "?options=-c%20lock_timeout%3D60000%20-c%20statement_timeout%3D60000",
                s.user(), s.password(), "Lockstep test");
        repository = new JdbiCustomerRepository(db.jdbi(), "Alice");
        for (int i = 1; i <= 30; i++) {
            repository.create(aCustomer().with(CustomerField.COMPANY, "Berg " + i)
                    .with(CustomerField.EXTERNAL_REF, "BERG-" + i).build());
        }
    }

    @AfterAll
    static void close() {
        db.close();
    }

    @Test
    void cancellingAWaitingPageReadEndsItsStatementOnTheServer() throws SQLException {
        try (Connection psql = OutsideSession.holdingCustomerTable(name)) {
            CancelSignal cancel = new CancelSignal();
            CompletableFuture<List<Customer>> read = CompletableFuture
                    .supplyAsync(() -> repository.page(CustomerPageRequest.first("berg"), cancel));
            OutsideSession.awaitLockWaiters(db.jdbi(), 1);

            cancel.cancel();

            assertThatThrownBy(read::join).isInstanceOf(CompletionException.class)
                    .hasCauseInstanceOf(ReadCancelledException.class);
            assertThat(OutsideSession.lockWaiters(db.jdbi())).isZero(); // the server gave the statement up: nobody waits for the table
        }
    }

    @Test
    void cancellingAWaitingCountEndsItOnTheServerToo() throws SQLException {
        try (Connection psql = OutsideSession.holdingCustomerTable(name)) {
            CancelSignal cancel = new CancelSignal();
            CompletableFuture<CustomerCount> count = CompletableFuture
                    .supplyAsync(() -> repository.count("berg", 60_000, cancel));
            OutsideSession.awaitLockWaiters(db.jdbi(), 1);

            cancel.cancel();

            assertThatThrownBy(count::join).hasCauseInstanceOf(ReadCancelledException.class);
            assertThat(OutsideSession.lockWaiters(db.jdbi())).isZero();
        }
    }

    @Test
    void aReadCancelledBeforeItStartsIsNeverSent() {
        CancelSignal cancel = new CancelSignal();
        cancel.cancel();

        assertThatThrownBy(() -> repository.page(CustomerPageRequest.first(""), cancel))
                .isInstanceOf(ReadCancelledException.class);
        assertThatThrownBy(() -> repository.count("", 1_000, cancel)).isInstanceOf(ReadCancelledException.class);
    }

    @Test
    void aCancelAfterTheReadEndedTouchesNothingElseOnItsPooledConnection() {
        CancelSignal cancel = new CancelSignal();
        List<Customer> page = repository.page(CustomerPageRequest.first("berg"), cancel);

        cancel.cancel(); // the read's hooks were removed when its statements closed: no cancel request is sent

        assertThat(page).hasSize(30);
        for (int i = 0; i < 20; i++) { // every pooled connection serves its next statements in full
            assertThat(repository.count("berg", 1_000).count()).isEqualTo(30);
        }
    }

}
