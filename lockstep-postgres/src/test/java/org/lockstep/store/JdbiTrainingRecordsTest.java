package org.lockstep.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.lockstep.server.Database;
import org.lockstep.domain.AcquireOutcome;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.HistoryEntry;
import org.lockstep.domain.InvalidCustomerException;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.FreshDatabase;

@DatabaseTest
class JdbiTrainingRecordsTest {

    @FreshDatabase
    static Database db;
    static JdbiTrainingRecords records;
    static JdbiCustomerRepository alice;

    @BeforeAll
    static void open() {
        records = new JdbiTrainingRecords(db.jdbi());
        alice = new JdbiCustomerRepository(db.jdbi(), "Alice", "alice-session");
    }

    @Test
    void resetReplacesAChangedAndLockedCustomerWithAFreshVersionOne() {
        CustomerData start = aCustomer().with(CustomerField.EXTERNAL_REF, "DEMO-T1")
                .with(CustomerField.CITY, "Plymouth").build();
        Customer first = records.reset(start);
        alice.save(first.id(), 1, first.data().with(CustomerField.CITY, "Exeter"));
        AcquireOutcome lease = new JdbiLeaseRepository(db.jdbi(), "Alice", "alice-session")
                .acquire(first.id(), 60_000);
        assertThat(lease).isInstanceOf(AcquireOutcome.Granted.class);

        Customer again = records.reset(start);

        assertThat(alice.find(first.id())).isEmpty();
        Customer stored = alice.find(again.id()).orElseThrow();
        assertThat(stored.version()).isEqualTo(1);
        assertThat(stored.data().city()).isEqualTo("Plymouth");
        assertThat(stored.updatedBy()).isEqualTo(JdbiTrainingRecords.TRAINER);
        assertThat(new JdbiLeaseRepository(db.jdbi(), "Bob", "bob-session").holder(again.id())).isEmpty();
        assertThat(new JdbiHistoryRepository(db.jdbi()).history(again.id())).extracting(HistoryEntry::version)
                .containsExactly(1L);
        int rows = db.jdbi().withHandle(h -> h.createQuery(
                "SELECT count(*) FROM customer WHERE external_ref = 'DEMO-T1'").mapTo(Integer.class).one());
        assertThat(rows).isEqualTo(1);
    }

    @Test
    void resetCreatesTheCustomerWhenNoneExists() {
        Customer made = records.reset(aCustomer().with(CustomerField.EXTERNAL_REF, "DEMO-T2").build());

        assertThat(alice.find(made.id())).map(Customer::version).contains(1L);
    }

    @Test
    void aTrainingRecordNeedsAnExternalReferenceAndValidValues() {
        assertThatThrownBy(() -> records.reset(aCustomer().with(CustomerField.EXTERNAL_REF, " ").build()))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> records.reset(aCustomer().with(CustomerField.EXTERNAL_REF, "DEMO-T3")
                .with(CustomerField.EMAIL, "not an address").build()))
                .isInstanceOf(InvalidCustomerException.class);
    }
}
