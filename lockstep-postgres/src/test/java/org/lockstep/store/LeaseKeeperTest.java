package org.lockstep.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.lockstep.server.Database;
import org.lockstep.domain.AcquireOutcome;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.LeaseInfo;
import org.lockstep.domain.LeaseKeeper;
import org.lockstep.testing.ManualClock;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.FreshDatabase;

/** The client side of a lease, against the real lease table; clocks are the test's, time is the database's. */
@DatabaseTest
class LeaseKeeperTest {

    @FreshDatabase
    static Database db;
    static ScheduledExecutorService scheduler;

    @BeforeAll
    static void start() {
        ScheduledThreadPoolExecutor pool = new ScheduledThreadPoolExecutor(1);
        pool.prestartAllCoreThreads(); // the class's thread, not its first test's
        scheduler = pool;
    }

    @AfterAll
    static void close() throws InterruptedException {
        scheduler.shutdownNow();
        assertThat(scheduler.awaitTermination(5, TimeUnit.SECONDS)).isTrue();
    }

    private static Customer customer(String ref) {
        return new JdbiCustomerRepository(db.jdbi(), "Setup").create(aCustomer()
                .with(CustomerField.EXTERNAL_REF, ref).build());
    }

    private static JdbiLeaseRepository leasesOf(String name) {
        return new JdbiLeaseRepository(db.jdbi(), name, name + "-" + java.util.UUID.randomUUID());
    }

    private static LeaseKeeper keeper(String name, long recordId, Clock clock, List<String> losses) {
        return new LeaseKeeper(leasesOf(name), recordId, Duration.ofSeconds(60), clock, scheduler,
                (reason, current) -> losses.add(reason + " " + current.map(LeaseInfo::holder).orElse("nobody")));
    }

    @ParameterizedTest(name = "client clock off by {0} minutes")
    @ValueSource(ints = {-60, 60})
    void aClientWhoseClockIsAnHourOffCannotTakeAnUnexpiredLeaseAndTakesAnExpiredOneAtOnce(int skewMinutes) {
        Customer c = customer("K-SKEW" + skewMinutes);
        LeaseKeeper alice = keeper("Alice", c.id(), Clock.systemUTC(), new ArrayList<>());
        Clock skewed = Clock.offset(Clock.systemUTC(), Duration.ofMinutes(skewMinutes));
        LeaseKeeper bob = keeper("Bob", c.id(), skewed, new ArrayList<>());
        assertThat(alice.acquire()).isInstanceOf(AcquireOutcome.Granted.class);

        assertThat(bob.acquire()).isInstanceOfSatisfying(AcquireOutcome.HeldByOther.class,
                h -> assertThat(h.holder().holder()).isEqualTo("Alice"));

        db.jdbi().useHandle(h -> h.execute("UPDATE record_lease SET expires_at = now() - interval '1 ms'"
                + " WHERE record_id = ?", c.id()));
        assertThat(bob.acquire()).isInstanceOf(AcquireOutcome.Granted.class);
        assertThat(bob.lease()).isPresent();
        assertThat(bob.remainingMillis()).isBetween(50_000L, 60_000L);
        alice.close();
        bob.close();
    }

    @Test
    void aDeadlinePassingWithoutAConfirmedRenewalLosesTheLeaseLocally() {
        Customer c = customer("K-DEADLINE");
        ManualClock clock = new ManualClock(Instant.parse("2026-11-29T10:00:00Z"));
        List<String> losses = new ArrayList<>();
        LeaseKeeper alice = keeper("Alice", c.id(), clock, losses);
        alice.acquire();

        clock.advance(Duration.ofSeconds(30));
        alice.checkDeadline();
        assertThat(alice.lease()).isPresent();

        clock.advance(Duration.ofSeconds(31)); // the laptop slept; no renewal went out
        assertThat(alice.lease()).isEmpty();
        alice.checkDeadline();
        // The client gives up by its own reckoning; by the database's clock the lease has not run out yet.
        assertThat(losses).containsExactly("DEADLINE_PASSED Alice");
    }

    @Test
    void aRefusedRenewalLosesTheLeaseAndNamesTheNewHolder() {
        Customer c = customer("K-REFUSED");
        List<String> losses = new ArrayList<>();
        LeaseKeeper alice = keeper("Alice", c.id(), Clock.systemUTC(), losses);
        alice.acquire();
        Optional<LeaseInfo> broken = leasesOf("Bob").breakLease(c.id());
        leasesOf("Carol").acquire(c.id(), 60_000);

        alice.renewNow();

        assertThat(broken).isPresent();
        assertThat(alice.lease()).isEmpty();
        assertThat(losses).containsExactly("REFUSED Carol");
        assertThat(leasesOf("Auditor").events(c.id()).stream().map(e -> e.kind().dbName()).toList())
                .containsExactly("acquired", "broken", "acquired", "lost");
    }

    /** However the client learns of a loss — a refused renewal, or the change feed and a read — the trail says it once. */
    @Test
    void aLossSeenFromOutsideIsRecordedOnceAndALaterRenewalNeitherRecordsNorTellsItAgain() {
        Customer c = customer("K-SEEN");
        List<String> losses = new ArrayList<>();
        LeaseKeeper alice = keeper("Alice", c.id(), Clock.systemUTC(), losses);
        long token = ((AcquireOutcome.Granted) alice.acquire()).lease().token();
        leasesOf("Bob").breakLease(c.id());

        assertThat(alice.seenLost(token + 1)).isFalse(); // not the lease it holds
        assertThat(alice.seenLost(token)).isTrue();
        assertThat(alice.seenLost(token)).isFalse();
        alice.renewNow();
        alice.checkDeadline();

        assertThat(alice.lease()).isEmpty();
        assertThat(losses).isEmpty(); // the caller that saw it tells it
        assertThat(leasesOf("Auditor").events(c.id())).extracting(e -> e.kind().dbName() + " " + e.token())
                .containsExactly("acquired " + token, "broken " + token, "lost " + token);
        alice.close();
    }

    @Test
    void renewalsKeepTheLeaseAndReleaseFreesIt() {
        Customer c = customer("K-RENEW");
        LeaseKeeper alice = keeper("Alice", c.id(), Clock.systemUTC(), new ArrayList<>());
        long token = ((AcquireOutcome.Granted) alice.acquire()).lease().token();

        alice.renewNow();
        alice.renewNow();

        assertThat(alice.lease().orElseThrow().token()).isEqualTo(token);
        alice.release();
        assertThat(leasesOf("Bob").holder(c.id())).isEmpty();
        assertThat(leasesOf("Bob").acquire(c.id(), 1_000)).isInstanceOf(AcquireOutcome.Granted.class);
    }
}
