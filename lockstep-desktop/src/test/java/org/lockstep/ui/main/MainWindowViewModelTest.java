package org.lockstep.ui.main;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
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
import org.lockstep.ui.EditorServices;
import org.lockstep.ui.Sessions;
import org.lockstep.ui.CustomerFixtures;
import org.lockstep.concurrency.TaskExecutor;

/** The main window's decisions, on a real database of 30 customers, with database work on the test's thread. */
@DatabaseTest
class MainWindowViewModelTest {

    @FreshDatabase
    Database db;
    JdbiCustomerRepository repository;
    EditorServices services;
    MainWindowViewModel vm;
    final List<Long> openedWindows = new ArrayList<>();

    @BeforeEach
    void open() {
        repository = new JdbiCustomerRepository(db.jdbi(), "Ines");
        CustomerFixtures.createNumbered(repository, 30);
        services = Sessions.services(db, "Ines", TaskExecutor.sameThread(), Runnable::run, Sessions.quickLocks());
        vm = new MainWindowViewModel(services);
        vm.setWindowOpener(openedWindows::add);
        vm.start();
    }

    @AfterEach
    void close() {
        vm.editor().close();
    }

    private Customer row(int i) {
        return vm.list().rows().get(i);
    }

    @Test
    void theTitleNamesLockstepAndTheOperator() {
        assertThat(vm.title()).isEqualTo("Lockstep — Ines");
    }

    @Test
    void selectingARowLoadsThatCustomerIntoThePane() {
        vm.list().select(row(4).id());

        assertThat(vm.editor().buffer().baseProperty().get()).isEqualTo(repository.find(row(4).id()).orElseThrow());
        assertThat(vm.editor().buffer().dirtyProperty().get()).isFalse();
    }

    @Test
    void openInNewWindowOpensTheSelectedCustomerEvenWhenItIsAlreadyOpen() {
        vm.list().select(row(2).id());

        vm.openInNewWindow();
        vm.openInNewWindow();

        assertThat(openedWindows).containsExactly(row(2).id(), row(2).id());
    }

    @Test
    void aSaveInAnotherWindowReplacesTheRowInPlace() {
        Customer before = row(7);

        SaveOutcome outcome = services.customers().save(before.id(), before.version(),
                before.data().with(CustomerField.CITY, "Göteborg"));

        Customer saved = ((SaveOutcome.Saved) outcome).saved();
        assertThat(row(7)).isEqualTo(saved);
        assertThat(row(7).data().city()).isEqualTo("Göteborg");
        assertThat(repository.find(before.id()).orElseThrow()).isEqualTo(saved);
        assertThat(vm.list().rows()).hasSize(30);
    }

    @Test
    void aConflictInAnotherWindowShowsTheirsInTheList() {
        Customer before = row(1);
        Customer theirs = ((SaveOutcome.Saved) new JdbiCustomerRepository(db.jdbi(), "Olek")
                .save(before.id(), before.version(), before.data().with(CustomerField.PHONE, "+48 12 000 00 00")))
                .saved();

        SaveOutcome mine = services.customers().save(before.id(), before.version(),
                before.data().with(CustomerField.PHONE, "+48 12 111 11 11"));

        assertThat(mine).isInstanceOf(SaveOutcome.Conflict.class);
        assertThat(row(1)).isEqualTo(theirs);
        assertThat(row(1).updatedBy()).isEqualTo("Olek");
    }

    @Test
    void aDeleteInAnotherWindowRemovesTheRowAndRecounts() {
        Customer gone = row(9);

        assertThat(services.customers().delete(gone.id(), gone.version()))
                .isInstanceOf(DeleteOutcome.Deleted.class);

        assertThat(vm.list().rows()).hasSize(29).extracting(Customer::id).doesNotContain(gone.id());
        assertThat(vm.status().get()).isEqualTo("29 customers");
        assertThat(repository.find(gone.id())).isEmpty();
    }

    @Test
    void deletingThePanesCustomerRemovesItsRow() {
        Customer shown = row(3);
        vm.list().select(shown.id());
        assertThat(vm.canDelete().get()).isTrue();

        vm.delete();

        assertThat(repository.find(shown.id())).isEmpty();
        assertThat(vm.list().rows()).extracting(Customer::id).doesNotContain(shown.id());
        assertThat(vm.status().get()).isEqualTo("29 customers");
    }

    @Test
    void aNewCustomerClearsTheSelectionAndThePane() {
        vm.list().select(row(0).id());

        vm.newCustomer();

        assertThat(vm.editor().buffer().baseProperty().get()).isNull();
        assertThat(vm.list().selectedProperty().get()).isNull();
        assertThat(vm.canDelete().get()).isFalse();
        assertThat(vm.canOpen().get()).isFalse();
    }

    @Test
    void refreshShowsWhatOthersSavedInTheListAndInAnUneditedPane() {
        Customer shown = row(5);
        vm.list().select(shown.id());
        Customer theirs = ((SaveOutcome.Saved) new JdbiCustomerRepository(db.jdbi(), "Olek")
                .save(shown.id(), shown.version(), shown.data().with(CustomerField.COUNTRY, "Česko"))).saved();

        vm.refresh();

        assertThat(row(5)).isEqualTo(theirs);
        assertThat(vm.editor().buffer().baseProperty().get()).isEqualTo(theirs);
        assertThat(vm.list().selectedProperty().get()).isEqualTo(theirs);
    }
}
