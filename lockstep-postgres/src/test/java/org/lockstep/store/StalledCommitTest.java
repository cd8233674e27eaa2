package org.lockstep.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.lockstep.server.Database;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.OutcomeUnknownException;
import org.lockstep.domain.RecordBusyException;
import org.lockstep.domain.SaveOutcome;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.HalfOpenProxy;
import org.lockstep.testing.db.TestDatabases;

/**
 * A write whose first attempt reached the database and lost its connection, and whose retry then fails in some
 * other way, has an unknown outcome: the retry was sent to find out, and a retry that could not finish found out
 * nothing. Here the first attempt is stalled between its statements and its commit, holding the customer's row (as a
 * frozen backend or a commit waiting on a slow disk would), so the retry gives up waiting for the row lock — and the
 * first attempt commits afterwards. Reporting the retry's "busy, nothing was saved" would be false; an operator who
 * then makes the change again (5 − 1 once more) applies it twice.
 */
@DatabaseTest
class StalledCommitTest {

    HalfOpenProxy proxy;
    Database direct;
    Database throughProxy;

    @BeforeEach
    void open() {
        String name = TestDatabases.freshName();
        TestDatabases.Server s = TestDatabases.server();
        direct = Database.open(s.url(name), s.user(), s.password(), "Lockstep test (direct)");
        proxy = HalfOpenProxy.inFrontOfTestServer();
        throughProxy = Database.open(proxy.url(name), s.user(), s.password(), "Lockstep test (proxy)");
    }

    @AfterEach
    void close() throws Exception {
        throughProxy.close();
        direct.close();
        proxy.close();
    }

    @Test
    void aSaveWhoseRetryGivesUpBehindItsOwnStalledFirstAttemptIsUnknownNotBusy() throws Exception {
        JdbiCustomerRepository aliceDirect = new JdbiCustomerRepository(direct.jdbi(), "Alice");
        JdbiCustomerRepository alice = new JdbiCustomerRepository(throughProxy.jdbi(), "Alice");
        Customer c = aliceDirect.create(aCustomer().with(CustomerField.EXTERNAL_REF, "STALLED-SAVE").build());
        proxy.stallCommitOf("Stalled-city");

        assertThatThrownBy(() -> alice.save(c.id(), 1, c.data().with(CustomerField.CITY, "Stalled-city")))
                .isInstanceOf(OutcomeUnknownException.class)
                .isNotInstanceOf(RecordBusyException.class)
                .hasMessageContaining("unknown");

        proxy.commitStalled();
        await().atMost(Duration.ofSeconds(10)).until(() -> aliceDirect.find(c.id()).orElseThrow().version() == 2);
        assertThat(aliceDirect.find(c.id()).orElseThrow().data().city()).isEqualTo("Stalled-city");
        // Asked again with the same values, the save recognises the version its first attempt made.
        SaveOutcome again = alice.save(c.id(), 1, c.data().with(CustomerField.CITY, "Stalled-city"));
        assertThat(again).isInstanceOf(SaveOutcome.Saved.class);
        assertThat(((SaveOutcome.Saved) again).saved().version()).isEqualTo(2);
    }

    @Test
    void aDeleteWhoseRetryGivesUpBehindItsOwnStalledFirstAttemptIsUnknownNotBusy() throws Exception {
        JdbiCustomerRepository aliceDirect = new JdbiCustomerRepository(direct.jdbi(), "Alice");
        JdbiCustomerRepository alice = new JdbiCustomerRepository(throughProxy.jdbi(), "Alice");
        Customer c = aliceDirect.create(aCustomer().with(CustomerField.EXTERNAL_REF, "STALLED-DELETE").build());
        proxy.stallCommitOf("DELETE FROM customer WHERE id");

        assertThatThrownBy(() -> alice.delete(c.id(), 1))
                .isInstanceOf(OutcomeUnknownException.class)
                .isNotInstanceOf(RecordBusyException.class);

        proxy.commitStalled();
        await().atMost(Duration.ofSeconds(10)).until(() -> aliceDirect.find(c.id()).isEmpty());
    }
}
