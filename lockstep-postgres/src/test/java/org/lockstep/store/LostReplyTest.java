package org.lockstep.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.lockstep.server.Database;
import org.lockstep.domain.AcquireOutcome;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.DeleteOutcome;
import org.lockstep.domain.OutcomeUnknownException;
import org.lockstep.domain.SaveOutcome;
import org.lockstep.domain.StoreUnavailableException;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.transfer.CustomerBulkStore.ImportCounts;
import org.lockstep.transfer.CustomerBulkStore.ImportKey;
import org.lockstep.transfer.CustomerBulkStore.ImportRow;
import org.lockstep.testing.db.LostReplyProxy;
import org.lockstep.testing.db.TestDatabases;

/**
 * A connection lost right after the server committed: the reply never arrives. Every write either recognises
 * itself when it is sent again (by its request id — never by the user name), or is not sent again and says what it
 * knows. The fault is real: a proxy between the pool and the server drops the connection when the reply to the
 * write under test comes back. What the database holds afterwards is read through a direct connection.
 */
@DatabaseTest
class LostReplyTest {

    static String name;
    static Database direct;
    static JdbiCustomerRepository aliceDirect;
    /**
     * A proxy and a pool through it for each test: the proxy relays each pooled connection on threads of its own,
     * and a test that loses a connection makes the pool open another, so ending them with the test is what keeps
     * one test's connections (and their threads) from outliving it.
     */
    LostReplyProxy proxy;
    Database throughProxy;
    JdbiCustomerRepository alice;

    @BeforeAll
    static void open() {
        name = TestDatabases.freshName();
        TestDatabases.Server s = TestDatabases.server();
        direct = Database.open(s.url(name), s.user(), s.password(), "Lockstep test (direct)");
        aliceDirect = new JdbiCustomerRepository(direct.jdbi(), "Alice");
    }

    @BeforeEach
    void openThroughProxy() {
        TestDatabases.Server s = TestDatabases.server();
        proxy = LostReplyProxy.inFrontOfTestServer();
        throughProxy = Database.open(proxy.url(name), s.user(), s.password(), "Lockstep test (proxy)");
        alice = new JdbiCustomerRepository(throughProxy.jdbi(), "Alice");
    }

    @AfterEach
    void closeThroughProxy() throws Exception {
        throughProxy.close();
        proxy.close();
    }

    @AfterAll
    static void close() {
        direct.close();
    }

    @Test
    void aSaveWhoseReplyWasLostIsSentAgainAndReportsTheVersionItMade() {
        Customer c = aliceDirect.create(aCustomer().with(CustomerField.EXTERNAL_REF, "LOST-SAVE").build());
        int lostBefore = proxy.lostReplies();
        proxy.loseReplyTo("Santos-lost-save");

        SaveOutcome outcome = alice.save(c.id(), 1, c.data().with(CustomerField.CITY, "Santos-lost-save"));

        assertThat(proxy.lostReplies()).isEqualTo(lostBefore + 1);
        assertThat(outcome).isInstanceOf(SaveOutcome.Saved.class);
        assertThat(((SaveOutcome.Saved) outcome).saved().version()).isEqualTo(2);
        Customer stored = aliceDirect.find(c.id()).orElseThrow();
        assertThat(stored.version()).isEqualTo(2);
        assertThat(stored.data().city()).isEqualTo("Santos-lost-save");
        assertThat(conflictsRecorded(c.id())).isZero();
    }

    @Test
    void aSaveWhoseReplyWasLostIsStillRecognisedWhenSomeoneSavedRightAfterIt() {
        // The retry reads the history, not the row: it finds its own version even when another has come since.
        Customer c = aliceDirect.create(aCustomer().with(CustomerField.EXTERNAL_REF, "LOST-SAVE-2").build());
        JdbiCustomerRepository bob = new JdbiCustomerRepository(direct.jdbi(), "Bob");
        proxy.loseReplyTo("Recife-lost-save");
        // Bob's save lands between the lost reply and the retry: the pool's retry needs a new connection first.
        SaveOutcome outcome;
        try (var racer = new Racer(() -> {
            Customer v2 = waitForVersion(c.id(), 2);
            bob.save(c.id(), 2, v2.data().with(CustomerField.PHONE, "+55 81 0000-0000"));
        })) {
            outcome = alice.save(c.id(), 1, c.data().with(CustomerField.CITY, "Recife-lost-save"));
        }

        assertThat(outcome).isInstanceOf(SaveOutcome.Saved.class);
        assertThat(((SaveOutcome.Saved) outcome).saved().version()).isEqualTo(2);
        assertThat(((SaveOutcome.Saved) outcome).saved().data().city()).isEqualTo("Recife-lost-save");
    }

    @Test
    void aDeleteWhoseReplyWasLostReportsTheDeletionNotAConflict() {
        Customer c = aliceDirect.create(aCustomer().with(CustomerField.EXTERNAL_REF, "LOST-DELETE").build());
        // The marker: the DELETE statement's text, sent in the Parse message of the delete under test only.
        proxy.loseReplyTo("DELETE FROM customer WHERE id");

        DeleteOutcome outcome = alice.delete(c.id(), 1);

        assertThat(outcome).isEqualTo(new DeleteOutcome.Deleted(c.id()));
        assertThat(aliceDirect.find(c.id())).isEmpty();
        assertThat(conflictsRecorded(c.id())).isZero();
    }

    @Test
    void aCreateWhoseReplyWasLostCreatesOneCustomerAndReturnsIt() {
        proxy.loseReplyTo("LOST-CREATE");

        Customer created = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "LOST-CREATE").build());

        List<Long> ids = direct.jdbi().withHandle(h -> h.createQuery(
                "SELECT id FROM customer WHERE external_ref = 'LOST-CREATE'").mapTo(Long.class).list());
        assertThat(ids).containsExactly(created.id());
        assertThat(created.version()).isEqualTo(1);
        assertThat(created.data().externalRef()).isEqualTo("LOST-CREATE");
    }

    @Test
    void aCreateWithoutAnExternalRefWhoseReplyWasLostStillCreatesOnlyOne() {
        // Nothing unique in the values to catch a second insert: only the request id does.
        CustomerData values = aCustomer().with(CustomerField.EXTERNAL_REF, null)
                .with(CustomerField.COMPANY, "Lost Create Without Ref").build();
        proxy.loseReplyTo("Lost Create Without Ref");

        Customer created = alice.create(values);

        List<Long> ids = direct.jdbi().withHandle(h -> h.createQuery(
                "SELECT id FROM customer WHERE company = 'Lost Create Without Ref'").mapTo(Long.class).list());
        assertThat(ids).containsExactly(created.id());
    }

    @Test
    void anImportWhoseConnectionIsLostHalfWayWritesNothingAndSaysSo() {
        JdbiCustomerBulkStore store = new JdbiCustomerBulkStore(throughProxy.jdbi(), "Alice");
        // 5,000 rows in batches of 1,000: the connection is lost at the batch holding row 2,500.
        proxy.loseReplyTo("IMPORT-HALF-2500");

        assertThatThrownBy(() -> store.write(ImportKey.NONE, rows("IMPORT-HALF-", 5_000)))
                .isInstanceOf(StoreUnavailableException.class)
                .isNotInstanceOf(OutcomeUnknownException.class)
                .hasMessageContaining("nothing was imported");

        assertThat(countWithRefPrefix("IMPORT-HALF-")).isZero();
    }

    @Test
    void anImportWhoseConnectionIsLostAfterCommitReportsWhatItWroteOnce() {
        JdbiCustomerBulkStore store = new JdbiCustomerBulkStore(throughProxy.jdbi(), "Alice");
        // Jdbi ends the transaction with the driver's commit: the COMMIT message is the last request of the import.
        proxy.loseReplyTo("COMMIT");

        ImportCounts counts = store.write(ImportKey.NONE, rows("IMPORT-DONE-", 2_500));

        assertThat(counts).isEqualTo(new ImportCounts(2_500, 0, 0));
        assertThat(countWithRefPrefix("IMPORT-DONE-")).isEqualTo(2_500);
    }

    @Test
    void aLeaseReleaseWhoseReplyWasLostReportsItReleased() {
        Customer c = aliceDirect.create(aCustomer().with(CustomerField.EXTERNAL_REF, "LOST-RELEASE").build());
        JdbiLeaseRepository leases = new JdbiLeaseRepository(throughProxy.jdbi(), "Alice", "alice-session");
        long token = ((AcquireOutcome.Granted) leases.acquire(c.id(), 60_000)).lease().token();
        proxy.loseReplyTo("'released'");

        assertThat(leases.release(c.id(), token)).isTrue();

        assertThat(leases.holder(c.id())).isEmpty();
    }

    private static Iterator<ImportRow> rows(String refPrefix, int n) {
        List<ImportRow> rows = new ArrayList<>();
        IntStream.range(0, n).forEach(i -> rows.add(new ImportRow(i + 2, null,
                aCustomer().with(CustomerField.EXTERNAL_REF, refPrefix + i).build())));
        return rows.iterator();
    }

    private static long countWithRefPrefix(String prefix) {
        return direct.jdbi().withHandle(h -> h.createQuery(
                "SELECT count(*) FROM customer WHERE starts_with(external_ref, :p)").bind("p", prefix)
                .mapTo(Long.class).one());
    }

    private static long conflictsRecorded(long id) {
        return direct.jdbi().withHandle(h -> h.createQuery(
                "SELECT count(*) FROM customer_conflict WHERE customer_id = :id").bind("id", id)
                .mapTo(Long.class).one());
    }

    private static Customer waitForVersion(long id, long version) {
        return org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10))
                .until(() -> aliceDirect.find(id).orElseThrow(), c -> c.version() == version);
    }

    /** Runs a task on its own thread while the test's main action runs, and waits for it on close. */
    private static final class Racer implements AutoCloseable {
        private final Thread thread;
        private volatile Throwable failure;

        Racer(Runnable task) {
            thread = new Thread(() -> {
                try {
                    task.run();
                } catch (Throwable t) {
                    failure = t;
                }
            }, "racer");
            thread.start();
        }

        @Override
        public void close() {
            try {
                thread.join(15_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (failure != null) {
                throw new AssertionError("the racing writer failed", failure);
            }
        }
    }
}
