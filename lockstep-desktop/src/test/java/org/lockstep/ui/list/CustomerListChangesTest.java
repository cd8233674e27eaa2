package org.lockstep.ui.list;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.lockstep.server.Database;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.DeleteOutcome;
import org.lockstep.domain.SaveOutcome;
import org.lockstep.store.JdbiCustomerRepository;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.FreshDatabase;
import org.lockstep.ui.CustomerFixtures;
import org.lockstep.concurrency.TaskExecutor;

/** How the list follows creates, deletes and refreshes, each test on its own database of 250 customers. */
@DatabaseTest
class CustomerListChangesTest {

    @FreshDatabase
    Database db;
    JdbiCustomerRepository repository;
    CustomerListViewModel vm;

    @BeforeEach
    void seed() {
        repository = new JdbiCustomerRepository(db.jdbi(), "Bob");
        CustomerFixtures.createNumbered(repository, 250);
        vm = new CustomerListViewModel(repository, TaskExecutor.sameThread());
        vm.start();
    }

    @Test
    void aDeletedCustomerDisappearsAndTheCountFollows() {
        Customer row = vm.rows().get(3);
        vm.selectedProperty().set(row);

        assertThat(repository.delete(row.id(), row.version())).isInstanceOf(DeleteOutcome.Deleted.class);
        vm.applyDeleted(row.id());

        assertThat(vm.rows()).hasSize(199).doesNotContain(row);
        assertThat(vm.selectedProperty().get()).isNull();
        assertThat(vm.statusProperty().get()).isEqualTo("249 customers");
    }

    @Test
    void aCreatedCustomerAppearsAtTheTopAndIsCounted() {
        Customer created = repository.create(CustomerFixtures.numbered(9_999).with(CustomerField.COMPANY, "Ærø Fisk"));

        vm.applySaved(created);

        assertThat(vm.rows()).hasSize(201);
        assertThat(vm.rows().get(0)).isEqualTo(created);
        assertThat(vm.statusProperty().get()).isEqualTo("251 customers");
    }

    @Test
    void refreshKeepsTheSelectionAndShowsWhatOthersSaved() {
        vm.loadMore();
        Customer deep = vm.rows().get(230);
        vm.selectedProperty().set(deep);
        Customer other = vm.rows().get(10);
        SaveOutcome theirs = new JdbiCustomerRepository(db.jdbi(), "Carol").save(other.id(), other.version(),
                other.data().with(CustomerField.CONTACT_NAME, "Zoë Carol"));

        vm.refresh();

        assertThat(vm.rows()).hasSize(250);
        assertThat(vm.selectedProperty().get()).isEqualTo(deep);
        assertThat(vm.rows().get(10)).isEqualTo(((SaveOutcome.Saved) theirs).saved());
        assertThat(vm.rows().get(10).updatedBy()).isEqualTo("Carol");
    }

    @Test
    void refreshDropsTheSelectionWhenItsRowIsGone() {
        Customer row = vm.rows().get(0);
        vm.selectedProperty().set(row);
        repository.delete(row.id(), row.version());

        vm.refresh();

        assertThat(vm.selectedProperty().get()).isNull();
        assertThat(vm.rows().stream().map(Customer::id).toList()).doesNotContain(row.id());
        assertThat(vm.statusProperty().get()).isEqualTo("249 customers");
    }

    @Test
    void aFailedQueryKeepsTheRowsAndSaysWhat() {
        db.close();

        vm.filterTextProperty().set("Paris");
        vm.applyFilter();

        assertThat(vm.rows()).hasSize(200);
        assertThat(vm.loadingProperty().get()).isFalse();
        assertThat(vm.errorProperty().get()).startsWith("Could not read the customers: ").endsWith("(F5 tries again)");
        List<Customer> kept = List.copyOf(vm.rows());
        assertThat(kept.get(0).data().company()).isEqualTo("Firma 0001");
    }
}
