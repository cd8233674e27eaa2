package org.lockstep.ui.live;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.time.Duration;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.lockstep.server.Database;
import org.lockstep.domain.ChangeFeed;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.store.JdbiCustomerRepository;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.FreshDatabase;
import org.lockstep.concurrency.TaskExecutor;
import org.lockstep.ui.list.CustomerListViewModel;
import org.lockstep.ui.list.LiveListUpdater;

/**
 * Another operator's writes reach Alice's list through the real LISTEN/NOTIFY feed. The "FX thread" here is a queue
 * the test drains, so that every list change happens on the test's thread.
 */
@DatabaseTest
class LiveListUpdaterTest {

    @FreshDatabase
    Database db;
    ChangeFeed feed;
    final ConcurrentLinkedQueue<Runnable> fx = new ConcurrentLinkedQueue<>();
    final Executor fxThread = fx::add;

    @AfterEach
    void close() {
        feed.close();
    }

    private boolean drainUntil(java.util.function.BooleanSupplier condition) {
        Runnable r;
        while ((r = fx.poll()) != null) {
            r.run();
        }
        return condition.getAsBoolean();
    }

    @Test
    void othersSavesCreatesAndDeletesAppearInTheListWithoutAnAction() {
        JdbiCustomerRepository alice = new JdbiCustomerRepository(db.jdbi(), "Alice");
        JdbiCustomerRepository bob = new JdbiCustomerRepository(db.jdbi(), "Bob");
        Customer first = bob.create(aCustomer().with(CustomerField.EXTERNAL_REF, "LIVE-1").build());
        Customer second = bob.create(aCustomer().with(CustomerField.EXTERNAL_REF, "LIVE-2").build());
        CustomerListViewModel list = new CustomerListViewModel(alice, TaskExecutor.sameThread());
        list.start();
        list.select(first.id());
        LiveUpdates live = new LiveUpdates(fxThread, alice.sessionId());
        new LiveListUpdater(list, alice, TaskExecutor.sameThread(), live);
        feed = db.changeFeed(live);
        feed.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> drainUntil(() -> "Live".equals(live.statusTextProperty()
                .get())));

        bob.save(first.id(), 1, first.data().with(CustomerField.CITY, "Gdańsk"));
        Customer third = bob.create(aCustomer().with(CustomerField.EXTERNAL_REF, "LIVE-3").build());
        bob.delete(second.id(), 1);

        await().atMost(Duration.ofSeconds(10)).until(() -> drainUntil(() -> list.rows().size() == 2
                && list.rows().stream().anyMatch(c -> c.id() == third.id())
                && list.rows().stream().anyMatch(c -> c.id() == first.id() && c.version() == 2)));
        assertThat(list.rows()).noneMatch(c -> c.id() == second.id());
        assertThat(list.selectedProperty().get().id()).isEqualTo(first.id());
        assertThat(list.selectedProperty().get().data().city()).isEqualTo("Gdańsk");
    }

    @Test
    void lockIconsFollowLeasesAsTheyAreTakenAndGivenBack() {
        JdbiCustomerRepository alice = new JdbiCustomerRepository(db.jdbi(), "Alice");
        Customer c = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "LIVE-LOCK").build());
        CustomerListViewModel list = new CustomerListViewModel(alice, TaskExecutor.sameThread(),
                new org.lockstep.store.JdbiLeaseRepository(db.jdbi(), "Alice", alice.sessionId()));
        list.start();
        LiveUpdates live = new LiveUpdates(fxThread, alice.sessionId());
        new LiveListUpdater(list, alice, TaskExecutor.sameThread(), live);
        feed = db.changeFeed(live);
        feed.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> drainUntil(() -> "Live".equals(live.statusTextProperty()
                .get())));
        org.lockstep.store.JdbiLeaseRepository bobs = new org.lockstep.store.JdbiLeaseRepository(db.jdbi(), "Bob",
                "bob-session");

        long token = ((org.lockstep.domain.AcquireOutcome.Granted) bobs.acquire(c.id(), 60_000)).lease().token();

        await().atMost(Duration.ofSeconds(10)).until(() -> drainUntil(() -> list.lockText(c.id()).equals("Bob")));
        bobs.release(c.id(), token);
        await().atMost(Duration.ofSeconds(10)).until(() -> drainUntil(() -> list.lockText(c.id()).isEmpty()));
    }

    @Test
    void myOwnSavesAreReadBackToo() {
        // The notification's session only claims the change is mine: anyone may name my session.
        JdbiCustomerRepository alice = new JdbiCustomerRepository(db.jdbi(), "Alice");
        Customer mine = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "LIVE-MINE").build());
        CustomerListViewModel list = new CustomerListViewModel(alice, TaskExecutor.sameThread());
        list.start();
        LiveUpdates live = new LiveUpdates(fxThread, alice.sessionId());
        java.util.List<LiveUpdates.Change> seen = new java.util.ArrayList<>();
        live.subscribe(seen::addAll);
        new LiveListUpdater(list, alice, TaskExecutor.sameThread(), live);
        feed = db.changeFeed(live);
        feed.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> drainUntil(() -> "Live".equals(live.statusTextProperty()
                .get())));

        alice.save(mine.id(), 1, mine.data().with(CustomerField.CITY, "Kraków"));

        await().atMost(Duration.ofSeconds(10)).until(() -> drainUntil(() -> !seen.isEmpty()));
        assertThat(seen).allMatch(LiveUpdates.Change::mine);
        await().atMost(Duration.ofSeconds(10)).until(() -> drainUntil(() -> list.rows().get(0).version() == 2));
        assertThat(list.rows().get(0).data().city()).isEqualTo("Kraków");
    }
}
