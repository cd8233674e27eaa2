package org.lockstep.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.lockstep.server.Database;
import org.lockstep.domain.AcquireOutcome;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.DeleteOutcome;
import org.lockstep.domain.Lease;
import org.lockstep.domain.LeaseInfo;
import org.lockstep.domain.SaveOutcome;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.FreshDatabase;

/**
 * A lease belongs to the session that took it, not to a name: every lease operation but break is its holder
 * session's only. The token is shown to everyone (lease list, notifications), so knowing it proves nothing — and
 * another desk logged in under the same name is someone else.
 */
@DatabaseTest
class LeaseOwnershipTest {

    @FreshDatabase
    static Database db;
    static JdbiLeaseRepository deskA;
    static JdbiLeaseRepository deskB;
    static JdbiLeaseRepository bob;
    static JdbiCustomerRepository customersA;
    static JdbiCustomerRepository customersB;

    @BeforeAll
    static void open() {
        deskA = new JdbiLeaseRepository(db.jdbi(), "frontdesk", "desk-a");
        deskB = new JdbiLeaseRepository(db.jdbi(), "frontdesk", "desk-b");
        bob = new JdbiLeaseRepository(db.jdbi(), "Bob", "bob");
        customersA = new JdbiCustomerRepository(db.jdbi(), "frontdesk", "desk-a");
        customersB = new JdbiCustomerRepository(db.jdbi(), "frontdesk", "desk-b");
    }

    @Test
    void onlyTheHolderSessionRenewsTheLease() {
        Customer c = customersA.create(aCustomer().with(CustomerField.EXTERNAL_REF, "OWN-RENEW").build());
        Lease lease = granted(deskA.acquire(c.id(), 60_000));

        assertThat(bob.renew(c.id(), lease.token(), 3_600_000)).isEmpty();
        assertThat(deskB.renew(c.id(), lease.token(), 3_600_000)).isEmpty();

        LeaseInfo now = deskA.holder(c.id()).orElseThrow();
        assertThat(now.expiresAt()).isEqualTo(lease.expiresAt());
        assertThat(deskA.renew(c.id(), lease.token(), 60_000)).isPresent();
    }

    @Test
    void onlyTheHolderSessionReleasesTheLease() {
        Customer c = customersA.create(aCustomer().with(CustomerField.EXTERNAL_REF, "OWN-RELEASE").build());
        Lease lease = granted(deskA.acquire(c.id(), 60_000));

        assertThat(deskB.release(c.id(), lease.token())).isFalse();
        assertThat(deskA.holder(c.id())).hasValueSatisfying(l -> assertThat(l.sessionId()).isEqualTo("desk-a"));
        assertThat(deskA.release(c.id(), lease.token())).isTrue();
        assertThat(deskA.holder(c.id())).isEmpty();
    }

    @Test
    void anotherDeskUnderTheSameNameCannotWriteUnderTheLeaseWithItsToken() {
        Customer c = customersA.create(aCustomer().with(CustomerField.EXTERNAL_REF, "OWN-WRITE").build());
        Lease lease = granted(deskA.acquire(c.id(), 60_000));

        SaveOutcome save = customersB.saveUnderLease(c.id(), 1, c.data().with(CustomerField.CITY, "Taken"),
                lease.token());
        DeleteOutcome delete = customersB.deleteUnderLease(c.id(), 1, lease.token());
        SaveOutcome optimistic = customersB.save(c.id(), 1, c.data().with(CustomerField.CITY, "Taken"));

        assertThat(save).isInstanceOf(SaveOutcome.LeaseLost.class);
        assertThat(delete).isInstanceOf(DeleteOutcome.LeaseLost.class);
        assertThat(optimistic).isInstanceOf(SaveOutcome.Locked.class);
        assertThat(customersA.find(c.id()).orElseThrow().version()).isEqualTo(1);
        assertThat(customersA.saveUnderLease(c.id(), 1, c.data().with(CustomerField.CITY, "Mine"), lease.token()))
                .isInstanceOf(SaveOutcome.Saved.class);
    }

    private static Lease granted(AcquireOutcome outcome) {
        assertThat(outcome).isInstanceOf(AcquireOutcome.Granted.class);
        return ((AcquireOutcome.Granted) outcome).lease();
    }
}
