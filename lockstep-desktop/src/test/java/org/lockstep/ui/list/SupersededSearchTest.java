package org.lockstep.ui.list;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.lockstep.server.Database;
import org.lockstep.concurrency.PoolTaskExecutor;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.store.JdbiCustomerRepository;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.OutsideSession;
import org.lockstep.testing.db.TestDatabases;

/**
 * The database works only on the search the operator has typed last: each keystroke cancels the statements of the
 * search before it on the server. The customer table is held by an outside session (psql's {@code LOCK TABLE}), so
 * every read waits there and {@code pg_stat_activity} shows which are still alive; the pool has room for every
 * keystroke's reads, so only the cancel keeps their number down. The view model's calls run on one "UI" thread, as
 * on the FX thread in the application. The waiters are counted on a connection of the test's own: the reads that wait
 * may hold every connection of the pool.
 */
@DatabaseTest
class SupersededSearchTest {

    static String name;
    static Database db;
    static JdbiCustomerRepository repository;
    static ExecutorService ui;
    static PoolTaskExecutor executor;

    @BeforeAll
    static void open() {
        name = TestDatabases.freshName();
        TestDatabases.Server s = TestDatabases.server();
        // A minute of lock_timeout: only a cancel can end a wait for the table within the test.
        db = Database.open(s.url(name) + "?options=-c%20lock_timeout%3D60000%20-c%20statement_timeout%3D60000",
                s.user(), s.password(), "Lockstep test");
        repository = new JdbiCustomerRepository(db.jdbi(), "Alice");
        for (int i = 1; i <= 12; i++) {
            String company = (i % 3 == 0 ? "Bergström " : "Nakamura ") + i;
            repository.create(aCustomer().with(CustomerField.COMPANY, company)
                    .with(CustomerField.EXTERNAL_REF, "S-" + i).build());
        }
        java.util.concurrent.ThreadPoolExecutor uiThread = (java.util.concurrent.ThreadPoolExecutor) Executors
                .newFixedThreadPool(1, r -> new Thread(r, "test-ui"));
        uiThread.prestartAllCoreThreads(); // the class's thread, not its test's
        ui = uiThread;
        executor = new PoolTaskExecutor(12, ui);
    }

    @AfterAll
    static void close() throws InterruptedException {
        executor.closeAndWait(java.time.Duration.ofSeconds(10)); // in-flight calls end before the database closes
        ui.shutdownNow();
        assertThat(ui.awaitTermination(5, java.util.concurrent.TimeUnit.SECONDS)).as("the UI thread ended").isTrue();
        db.close();
    }

    @Test
    void eachKeystrokeCancelsThePreviousSearchOnTheServerAndTheLastOneIsShown() throws Exception {
        CustomerListViewModel vm = new CustomerListViewModel(repository, executor);
        try (Connection psql = OutsideSession.holdingCustomerTable(name)) {
            onUi(() -> {
                vm.start();
                return null;
            });
            // The first page waits; the count of all customers does not, as it reads the Updated order's table (V24),
            // which the outside session does not hold.
            awaitWaiting(1);

            for (String typed : List.of("b", "be", "ber", "berg")) {
                onUi(() -> {
                    vm.filterTextProperty().set(typed);
                    vm.applyFilter();
                    return null;
                });
            }

            // Five generations of page + count were started; the four superseded ones were cancelled on the server.
            // Without the cancel, each generation's page read would wait here (a short search's walk, the empty
            // search's page and the unbounded last try of a longer one have no time limit): five or more sessions.
            await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(10))
                    .until(() -> OutsideSession.lockWaiters(name), waiting -> waiting >= 1 && waiting <= 2);
            psql.rollback();
        }

        await().atMost(Duration.ofSeconds(10)).until(() -> onUi(() -> !vm.loadingProperty().get()
                && vm.statusProperty().get().contains("match")));
        List<String> companies = onUi(() -> vm.rows().stream().map(Customer::data).map(d -> d.company()).toList());
        assertThat(companies).containsExactly("Bergström 3", "Bergström 6", "Bergström 9", "Bergström 12");
        // The count of the matches gave up on the held table (an estimate then), but the list holds all four.
        assertThat(onUi(() -> vm.statusProperty().get())).startsWith("4 of ").endsWith(" match 'berg'");
    }

    private static <T> T onUi(Callable<T> call) throws Exception {
        return ui.submit(call).get();
    }

    private static void awaitWaiting(int n) {
        await().atMost(Duration.ofSeconds(10)).until(() -> OutsideSession.lockWaiters(name) == n);
    }

}
