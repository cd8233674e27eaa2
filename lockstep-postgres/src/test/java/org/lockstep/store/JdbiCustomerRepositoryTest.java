package org.lockstep.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.lockstep.server.Database;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.CustomerPageRequest;
import org.lockstep.domain.CustomerSort;
import org.lockstep.domain.DeleteOutcome;
import org.lockstep.domain.InvalidCustomerException;
import org.lockstep.domain.SaveOutcome;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.FreshDatabase;

@DatabaseTest
class JdbiCustomerRepositoryTest {

    @FreshDatabase
    static Database db;
    static JdbiCustomerRepository alice;
    static JdbiCustomerRepository bob;

    @BeforeAll
    static void open() {
        alice = new JdbiCustomerRepository(db.jdbi(), "Alice");
        bob = new JdbiCustomerRepository(db.jdbi(), "Bob");
    }

    @Test
    void createdCustomerStartsAtVersionOneStampedByTheDatabase() {
        Customer c = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "C-1").build());

        Customer read = alice.find(c.id()).orElseThrow();
        assertThat(read.version()).isEqualTo(1);
        assertThat(read.updatedBy()).isEqualTo("Alice");
        assertThat(read.data().company()).isEqualTo("Embraer - Empresa Brasileira de Aeronáutica S.A.");
        assertThat(read.data().creditLimit()).isEqualByComparingTo("1000");
        Instant dbNow = db.jdbi().withHandle(h -> h.createQuery("SELECT now()").mapTo(java.time.OffsetDateTime.class)
                .one()).toInstant();
        assertThat(read.updatedAt()).isBeforeOrEqualTo(dbNow);
    }

    @Test
    void versionedSaveRaisesTheVersionAndReturnsTheNewBase() {
        Customer c = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "C-2").build());

        SaveOutcome outcome = bob.save(c.id(), 1, c.data().with(CustomerField.CITY, "Curitiba"));

        assertThat(outcome).isInstanceOf(SaveOutcome.Saved.class);
        Customer read = alice.find(c.id()).orElseThrow();
        assertThat(read.version()).isEqualTo(2);
        assertThat(read.data().city()).isEqualTo("Curitiba");
        assertThat(read.updatedBy()).isEqualTo("Bob");
        assertThat(((SaveOutcome.Saved) outcome).saved()).isEqualTo(read);
    }

    @Test
    void secondSaveOnTheSameBaseVersionIsAConflictCarryingTheirs() {
        Customer c = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "C-3").build());
        alice.save(c.id(), 1, c.data().with(CustomerField.PHONE, "+55 11 1111-1111"));

        SaveOutcome outcome = bob.save(c.id(), 1, c.data().with(CustomerField.PHONE, "+55 22 2222-2222"));

        assertThat(outcome).isInstanceOf(SaveOutcome.Conflict.class);
        Customer theirs = ((SaveOutcome.Conflict) outcome).theirs().orElseThrow();
        assertThat(theirs.version()).isEqualTo(2);
        assertThat(theirs.data().phone()).isEqualTo("+55 11 1111-1111");
        assertThat(alice.find(c.id()).orElseThrow().data().phone()).isEqualTo("+55 11 1111-1111");
    }

    @Test
    void saveOfADeletedCustomerIsAConflictWithNothingThere() {
        Customer c = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "C-4").build());
        assertThat(alice.delete(c.id(), 1)).isEqualTo(new DeleteOutcome.Deleted(c.id()));

        SaveOutcome outcome = bob.save(c.id(), 1, c.data());

        assertThat(outcome).isInstanceOf(SaveOutcome.Conflict.class);
        assertThat(((SaveOutcome.Conflict) outcome).deleted()).isTrue();
        assertThat(alice.find(c.id())).isEmpty();
    }

    @Test
    void deleteOnAStaleVersionDeletesNothing() {
        Customer c = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "C-5").build());
        alice.save(c.id(), 1, c.data().with(CustomerField.CITY, "Recife"));

        DeleteOutcome outcome = bob.delete(c.id(), 1);

        assertThat(outcome).isInstanceOf(DeleteOutcome.Conflict.class);
        assertThat(((DeleteOutcome.Conflict) outcome).theirs().orElseThrow().version()).isEqualTo(2);
        assertThat(alice.find(c.id())).isPresent();
    }

    @Test
    void sixteenConcurrentSavesOnOneBaseVersionLetExactlyOneWin() throws Exception {
        Customer c = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "C-6").build());
        int writers = 16;
        CyclicBarrier start = new CyclicBarrier(writers);
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        List<Future<SaveOutcome>> results = new ArrayList<>();
        // Each writer has its own pool, as separate operators would.
        List<Database> dbs = new ArrayList<>();
        try {
            for (int i = 0; i < writers; i++) {
                String city = "City " + i;
                JdbiCustomerRepository repo = new JdbiCustomerRepository(db.jdbi(), "Writer " + i);
                results.add(pool.submit(() -> {
                    start.await();
                    return repo.save(c.id(), 1, c.data().with(CustomerField.CITY, city));
                }));
            }
            List<SaveOutcome> outcomes = new ArrayList<>();
            for (Future<SaveOutcome> f : results) {
                outcomes.add(f.get());
            }
            List<SaveOutcome.Saved> wins = outcomes.stream().filter(o -> o instanceof SaveOutcome.Saved)
                    .map(o -> (SaveOutcome.Saved) o).toList();
            assertThat(wins).hasSize(1);
            assertThat(outcomes).filteredOn(o -> o instanceof SaveOutcome.Conflict).hasSize(writers - 1);
            Customer row = alice.find(c.id()).orElseThrow();
            assertThat(row.version()).isEqualTo(2);
            assertThat(row.data().city()).isEqualTo(wins.get(0).saved().data().city());
            assertThat(row.updatedBy()).isEqualTo(wins.get(0).saved().updatedBy());
        } finally {
            pool.shutdownNow();
            dbs.forEach(Database::close);
        }
    }

    @Test
    void invalidValuesAreRejectedBeforeAnythingIsWritten() {
        Customer c = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "C-7").build());

        assertThatThrownBy(() -> alice.save(c.id(), 1, c.data().with(CustomerField.EMAIL, "not-an-email")))
                .isInstanceOf(InvalidCustomerException.class)
                .satisfies(e -> assertThat(((InvalidCustomerException) e).errors().get(0).field())
                        .isEqualTo(CustomerField.EMAIL));
        assertThatThrownBy(() -> alice.save(c.id(), 1, c.data().with(CustomerField.CREDIT_LIMIT,
                new BigDecimal("-1")))).isInstanceOf(InvalidCustomerException.class);
        assertThat(alice.find(c.id()).orElseThrow().version()).isEqualTo(1);
    }

    @Test
    void duplicateExternalRefNamesTheField() {
        alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "DUP").build());

        assertThatThrownBy(() -> alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "DUP").build()))
                .isInstanceOf(InvalidCustomerException.class)
                .hasMessageContaining("external_ref");
    }

    @Test
    void keysetPagesWalkTheWholeSearchWithoutGapsOrRepeats() {
        for (int i = 0; i < 25; i++) {
            alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "PAGE-" + i)
                    .with(CustomerField.COMPANY, "Páge Co " + (i % 7))
                    .with(CustomerField.CITY, i % 2 == 0 ? "Zürich" : null).build());
        }
        CustomerPageRequest request = new CustomerPageRequest("páge co", CustomerSort.CITY, true, null, 4);
        List<Customer> all = new ArrayList<>();
        List<Customer> page = alice.page(request);
        while (!page.isEmpty()) {
            all.addAll(page);
            page = alice.page(request.next(page.get(page.size() - 1)));
        }
        assertThat(all).hasSize(25);
        assertThat(all.stream().map(Customer::id).distinct()).hasSize(25);
        assertThat(all.subList(0, 13)).allSatisfy(c -> assertThat(c.data().city()).isEqualTo("Zürich"));
        assertThat(alice.count("PÁGE CO", 1000).count()).isEqualTo(25);
        assertThat(alice.count("PÁGE CO", 1000).exact()).isTrue();
    }
}
