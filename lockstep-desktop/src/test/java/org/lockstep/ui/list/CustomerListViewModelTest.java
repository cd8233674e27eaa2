package org.lockstep.ui.list;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import javafx.collections.ListChangeListener;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.lockstep.server.Database;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.CustomerSort;
import org.lockstep.domain.SaveOutcome;
import org.lockstep.store.JdbiCustomerRepository;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.FreshDatabase;
import org.lockstep.ui.CustomerFixtures;
import org.lockstep.ui.QueuedTaskExecutor;
import org.lockstep.concurrency.TaskExecutor;

/** The list's paging, search, order and in-place updates, on a real database holding 1,000 customers. */
@DatabaseTest
class CustomerListViewModelTest {

    @FreshDatabase
    static Database db;
    static JdbiCustomerRepository repository;

    @BeforeAll
    static void seed() {
        repository = new JdbiCustomerRepository(db.jdbi(), "Alice");
        CustomerFixtures.createNumbered(repository, 1_000);
    }

    private static CustomerListViewModel started() {
        CustomerListViewModel vm = new CustomerListViewModel(repository, TaskExecutor.sameThread());
        vm.start();
        return vm;
    }

    private static List<Long> ids(List<Customer> customers) {
        return customers.stream().map(Customer::id).toList();
    }

    /** Ids of the customers whose searched columns contain {@code text}, by plain SQL, in id order. */
    private static List<Long> idsMatching(String text) {
        return db.jdbi().withHandle(h -> h.createQuery("""
                SELECT id FROM customer
                 WHERE company ILIKE :p OR contact_name ILIKE :p OR email ILIKE :p OR city ILIKE :p OR country ILIKE :p
                 ORDER BY id""").bind("p", "%" + text + "%").mapTo(Long.class).list());
    }

    @Test
    void firstPageHoldsTwoHundredOfOneThousandRowsAndTheCounts() {
        CustomerListViewModel vm = started();

        assertThat(vm.rows()).hasSize(200);
        assertThat(ids(vm.rows())).isSorted().isEqualTo(idsMatching("").subList(0, 200));
        assertThat(vm.endReachedProperty().get()).isFalse();
        assertThat(vm.loadingProperty().get()).isFalse();
        assertThat(vm.statusProperty().get()).isEqualTo("1,000 customers");
    }

    @Test
    void scrollingOnLoadsTheNextPagesWithoutDuplicatesUntilTheEnd() {
        CustomerListViewModel vm = started();

        vm.loadMore();
        assertThat(vm.rows()).hasSize(400);
        vm.loadMore();
        vm.loadMore();
        assertThat(vm.endReachedProperty().get()).isFalse();
        vm.loadMore();

        assertThat(vm.rows()).hasSize(1_000);
        assertThat(vm.endReachedProperty().get()).isTrue();
        assertThat(ids(vm.rows())).doesNotHaveDuplicates().isEqualTo(idsMatching(""));
        vm.loadMore();
        assertThat(vm.rows()).hasSize(1_000);
    }

    @Test
    void filterNarrowsTheRowsAndCountsTheMatches() {
        CustomerListViewModel vm = started();

        vm.filterTextProperty().set("  BER ");
        vm.applyFilter();

        List<Long> expected = idsMatching("ber");
        assertThat(expected).hasSize(200);
        assertThat(ids(vm.rows())).isEqualTo(expected);
        assertThat(vm.rows()).allSatisfy(c -> assertThat(c.data().city()).isIn("Berlin", "Bergen"));
        assertThat(vm.statusProperty().get()).isEqualTo("200 of 1,000 match 'BER'");
        assertThat(vm.endReachedProperty().get()).isTrue();

        vm.filterTextProperty().set("Kraków");
        vm.applyFilter();
        assertThat(ids(vm.rows())).isEqualTo(idsMatching("kraków").subList(0, 100));
        assertThat(vm.statusProperty().get()).isEqualTo("100 of 1,000 match 'Kraków'");

        vm.filterTextProperty().set("");
        vm.applyFilter();
        assertThat(vm.rows()).hasSize(200);
        assertThat(vm.statusProperty().get()).isEqualTo("1,000 customers");
    }

    @Test
    void sortingByCityQueriesTheDatabaseInThatOrderAndPagesOnInIt() {
        CustomerListViewModel vm = started();

        vm.sortBy(CustomerSort.CITY, false);
        vm.loadMore();

        Comparator<Customer> byCity = Comparator.comparing((Customer c) -> c.data().city().toLowerCase(Locale.ROOT))
                .thenComparingLong(Customer::id);
        List<Customer> all = new ArrayList<>(repository.page(
                new org.lockstep.domain.CustomerPageRequest("", CustomerSort.ID, false, null, 1000)));
        all.sort(byCity);
        assertThat(ids(vm.rows())).isEqualTo(ids(all.subList(0, 400)));
        assertThat(vm.rows().get(0).data().city()).isEqualTo("Bergen");

        vm.sortBy(CustomerSort.CITY, true);
        assertThat(vm.rows().get(0).data().city()).isEqualTo("Zürich");
        assertThat(vm.rows()).hasSize(200);
    }

    @Test
    void aResponseToAnEarlierFilterArrivingLateIsIgnored() {
        QueuedTaskExecutor executor = new QueuedTaskExecutor();
        CustomerListViewModel vm = new CustomerListViewModel(repository, executor);
        vm.start();
        executor.runAll();

        vm.filterTextProperty().set("Berlin");
        vm.applyFilter();
        List<Runnable> berlin = executor.takeAll();
        vm.filterTextProperty().set("Oslo");
        vm.applyFilter();
        executor.runAll();
        berlin.forEach(Runnable::run);

        assertThat(vm.rows()).isNotEmpty().allSatisfy(c -> assertThat(c.data().city()).isEqualTo("Oslo"));
        assertThat(ids(vm.rows())).isEqualTo(idsMatching("oslo"));
        assertThat(vm.statusProperty().get()).isEqualTo("100 of 1,000 match 'Oslo'");
        assertThat(vm.search()).isEqualTo("Oslo");
    }

    @Test
    void aSavedRecordReplacesItsRowInPlaceWithoutReadingTheListAgain() {
        CustomerListViewModel vm = started();
        Customer row = vm.rows().get(5);
        vm.selectedProperty().set(row);
        List<String> changes = new ArrayList<>();
        vm.rows().addListener((ListChangeListener<Customer>) c -> changes.add(c.toString()));

        SaveOutcome outcome = repository.save(row.id(), row.version(),
                row.data().with(CustomerField.CITY, "Köln"));
        Customer saved = ((SaveOutcome.Saved) outcome).saved();
        vm.applySaved(saved);

        assertThat(vm.rows()).hasSize(200);
        assertThat(vm.rows().get(5)).isEqualTo(saved);
        assertThat(vm.rows().get(5).data().city()).isEqualTo("Köln");
        assertThat(vm.rows().get(5).version()).isEqualTo(row.version() + 1);
        assertThat(vm.selectedProperty().get()).isEqualTo(saved);
        assertThat(changes).hasSize(1);

        // An older version arriving later (e.g. from a slower window) does not undo the newer one.
        vm.applySaved(row);
        assertThat(vm.rows().get(5)).isEqualTo(saved);
        repository.save(saved.id(), saved.version(), row.data());
    }

    @Test
    void theOrderChosenIsKeptForTheNextStartInThePreferences() throws Exception {
        java.util.prefs.Preferences node = java.util.prefs.Preferences.userRoot()
                .node("org/lockstep/test/" + java.util.UUID.randomUUID());
        try {
            CustomerListViewModel before = new CustomerListViewModel(repository, TaskExecutor.sameThread());
            before.rememberSort(node);
            before.start();
            before.sortBy(CustomerSort.CITY, true);

            assertThat(node.get(CustomerListViewModel.SORT_KEY, null)).isEqualTo("CITY");
            assertThat(node.getBoolean(CustomerListViewModel.DESCENDING_KEY, false)).isTrue();

            CustomerListViewModel after = new CustomerListViewModel(repository, TaskExecutor.sameThread());
            after.rememberSort(node);
            after.start();
            assertThat(after.sortProperty().get()).isEqualTo(CustomerSort.CITY);
            assertThat(after.descendingProperty().get()).isTrue();
            assertThat(after.rows().get(0).data().city()).isEqualTo("Zürich");
            assertThat(after.rows()).extracting(c -> c.data().city().toLowerCase(Locale.ROOT))
                    .isSortedAccordingTo(Comparator.reverseOrder());

            // An order this version does not know (written by another) leaves the list by id.
            node.put(CustomerListViewModel.SORT_KEY, "SHOE_SIZE");
            CustomerListViewModel unknown = new CustomerListViewModel(repository, TaskExecutor.sameThread());
            unknown.rememberSort(node);
            assertThat(unknown.sortProperty().get()).isEqualTo(CustomerSort.ID);
            assertThat(unknown.descendingProperty().get()).isFalse();
        } finally {
            node.removeNode();
        }
    }

    @Test
    void aSaveThatMovesTheSelectedRowInTheOrderReadsTheRowsAgainAndKeepsItSelected() {
        CustomerListViewModel vm = started();
        vm.sortBy(CustomerSort.COMPANY, false);
        Customer row = vm.rows().get(5);
        assertThat(row.data().company()).isEqualTo("Firma 0006");
        vm.selectedProperty().set(row);

        Customer saved = ((SaveOutcome.Saved) repository.save(row.id(), row.version(),
                row.data().with(CustomerField.COMPANY, "Firma 0100a"))).saved();
        try {
            vm.applySaved(saved);

            assertThat(vm.rows()).hasSize(200);
            assertThat(vm.rows()).extracting(c -> c.data().company()).isSortedAccordingTo(
                    Comparator.comparing((String c) -> c.toLowerCase(Locale.ROOT)));
            assertThat(vm.rows().get(5).data().company()).isEqualTo("Firma 0007");
            assertThat(vm.rows().get(99)).isEqualTo(saved);
            assertThat(vm.rows().get(98).data().company()).isEqualTo("Firma 0100");
            assertThat(vm.selectedProperty().get()).isEqualTo(saved);
        } finally {
            repository.save(saved.id(), saved.version(), row.data());
        }
    }

    @Test
    void aSaveThatLeavesTheSortKeyAloneReplacesTheRowWithoutReadingAgain() {
        CustomerListViewModel vm = started();
        vm.sortBy(CustomerSort.NAME, false);
        Customer row = vm.rows().get(3);
        vm.selectedProperty().set(row);
        List<String> changes = new ArrayList<>();
        vm.rows().addListener((ListChangeListener<Customer>) c -> changes.add(c.toString()));

        Customer saved = ((SaveOutcome.Saved) repository.save(row.id(), row.version(),
                row.data().with(CustomerField.CITY, "Köln"))).saved();
        try {
            vm.applySaved(saved);

            assertThat(changes).hasSize(1); // the one row replaced: no page read again
            assertThat(vm.rows().get(3)).isEqualTo(saved);
            assertThat(vm.selectedProperty().get()).isEqualTo(saved);
        } finally {
            repository.save(saved.id(), saved.version(), row.data());
        }
    }
}
