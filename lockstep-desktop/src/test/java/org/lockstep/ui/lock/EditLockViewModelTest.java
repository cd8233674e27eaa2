package org.lockstep.ui.lock;

import org.lockstep.editing.LeaseSettings;
import org.lockstep.editing.LockMessages;
import org.lockstep.editing.LockState;
import org.lockstep.domain.ConcurrencyMode;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.lockstep.server.Database;
import org.lockstep.domain.AcquireOutcome;
import org.lockstep.domain.ChangeFeed;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.Lease;
import org.lockstep.domain.LeaseEvent;
import org.lockstep.store.JdbiCustomerRepository;
import org.lockstep.store.JdbiLeaseRepository;
import org.lockstep.testing.ManualClock;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.FreshDatabase;
import org.lockstep.ui.QueuedTaskExecutor;
import org.lockstep.concurrency.TaskExecutor;
import org.lockstep.ui.live.LiveUpdates;

/** The editor's lock, against the real lease table; FX-thread delivery is the calling thread here. */
@DatabaseTest
class EditLockViewModelTest {

    @FreshDatabase
    static Database db;
    static ScheduledExecutorService scheduler;

    @BeforeAll
    static void start() {
        java.util.concurrent.ScheduledThreadPoolExecutor pool = new java.util.concurrent.ScheduledThreadPoolExecutor(2);
        pool.prestartAllCoreThreads(); // the class's threads, not its first test's
        scheduler = pool;
    }

    @AfterAll
    static void close() throws InterruptedException {
        scheduler.shutdownNow();
        assertThat(scheduler.awaitTermination(5, TimeUnit.SECONDS)).isTrue();
    }

    static Customer customer(String ref) {
        return new JdbiCustomerRepository(db.jdbi(), "Setup").create(aCustomer()
                .with(CustomerField.EXTERNAL_REF, ref).build());
    }

    static JdbiLeaseRepository leasesOf(String name) {
        return new JdbiLeaseRepository(db.jdbi(), name, name + "-" + java.util.UUID.randomUUID());
    }

    static EditLockViewModel editor(String name, Clock clock) {
        return editor(name, clock, Duration.ofSeconds(60));
    }

    static EditLockViewModel editor(String name, Clock clock, Duration ttl) {
        return new EditLockViewModel(leasesOf(name), TaskExecutor.sameThread(), Runnable::run, scheduler, clock,
                new LeaseSettings(ttl, Duration.ofMinutes(15), Duration.ofMinutes(1),
                        Duration.ofMillis(50)));
    }

    @Test
    void theFirstChangeInLockModeTakesTheLeaseAndOthersTurnReadOnlyNamingTheHolder() {
        Customer c = customer("U-L-1");
        EditLockViewModel alice = editor("Alice", Clock.systemUTC());
        EditLockViewModel bob = editor("Bob", Clock.systemUTC());
        alice.attach(c.id());
        alice.modeProperty().set(ConcurrencyMode.LOCK_FOR_EDITING);

        alice.editingStarted();
        bob.attach(c.id());

        assertThat(alice.stateProperty().get()).isInstanceOf(LockState.Held.class);
        assertThat(alice.token()).isPresent();
        assertThat(bob.readOnlyProperty().get()).isTrue();
        assertThat(bob.messageProperty().get()).isEqualTo("Alice is editing this customer (since "
                + TIME.format(leasesOf("Reader").holder(c.id()).orElseThrow().acquiredAt().atZone(ZONE))
                + "). You can read it, and edit it once they are done.");
        alice.close();
        bob.close();
    }

    @Test
    void whenTheHolderLetsGoTheWaitingEditorIsToldAndBecomesEditable() {
        Customer c = customer("U-L-2");
        EditLockViewModel alice = editor("Alice", Clock.systemUTC());
        EditLockViewModel bob = editor("Bob", Clock.systemUTC());
        alice.attach(c.id());
        alice.lock();
        bob.attach(c.id());
        AtomicInteger reloads = new AtomicInteger();
        AtomicInteger notifications = new AtomicInteger();
        bob.setOnFree(reloads::incrementAndGet);
        bob.setOnNotifyFree(notifications::incrementAndGet);
        bob.notifyWhenFreeProperty().set(true);

        alice.close();

        await().atMost(Duration.ofSeconds(10)).until(() -> !bob.readOnlyProperty().get());
        assertThat(reloads.get()).isEqualTo(1);
        assertThat(notifications.get()).isEqualTo(1);
        assertThat(bob.notifyWhenFreeProperty().get()).isFalse();
        bob.close();
    }

    @Test
    void notifyMeWhenFreeFiresTheMomentTheLeaseEndsThroughTheChangeFeedWithoutPolling() {
        Customer c = customer("U-L-6");
        EditLockViewModel alice = editor("Alice", Clock.systemUTC());
        // An hour between polls: only the feed's notification can free Bob within the wait below.
        EditLockViewModel bob = new EditLockViewModel(leasesOf("Bob"), TaskExecutor.sameThread(), Runnable::run,
                scheduler, Clock.systemUTC(), new LeaseSettings(Duration.ofSeconds(60),
                        Duration.ofMinutes(15), Duration.ofMinutes(1), Duration.ofHours(1)));
        LiveUpdates live = new LiveUpdates(Runnable::run, "Bob-session");
        bob.follow(live);
        try (ChangeFeed feed = db.changeFeed(live)) {
            feed.start();
            await().atMost(Duration.ofSeconds(10)).until(() -> live.statusProperty().get() == ChangeFeed.Status.LIVE);
            alice.attach(c.id());
            alice.lock();
            bob.attach(c.id());
            assertThat(bob.stateProperty().get()).isInstanceOf(LockState.HeldByOther.class);
            AtomicInteger notifications = new AtomicInteger();
            bob.setOnNotifyFree(notifications::incrementAndGet);
            bob.notifyWhenFreeProperty().set(true);

            alice.close();

            await().atMost(Duration.ofSeconds(5)).until(() -> notifications.get() == 1);
            assertThat(bob.stateProperty().get()).isInstanceOf(LockState.Free.class);
            assertThat(bob.readOnlyProperty().get()).isFalse();
            assertThat(bob.notifyWhenFreeProperty().get()).isFalse();
        } finally {
            bob.close();
        }
    }

    @Test
    void withTheFeedNotLiveTheWaitingEditorStillLearnsByPolling() {
        Customer c = customer("U-L-7");
        EditLockViewModel alice = editor("Alice", Clock.systemUTC());
        EditLockViewModel bob = editor("Bob", Clock.systemUTC());
        bob.follow(new LiveUpdates(Runnable::run, "Bob-session")); // never started: Connecting
        alice.attach(c.id());
        alice.lock();
        bob.attach(c.id());
        AtomicInteger notifications = new AtomicInteger();
        bob.setOnNotifyFree(notifications::incrementAndGet);
        bob.notifyWhenFreeProperty().set(true);

        alice.close();

        await().atMost(Duration.ofSeconds(10)).until(() -> notifications.get() == 1);
        assertThat(bob.readOnlyProperty().get()).isFalse();
        bob.close();
    }

    @Test
    void breakingALockTakesItAndTheFormerHolderLearnsWhoBrokeIt() {
        Customer c = customer("U-L-3");
        // A short TTL: Alice's next renewal, which is when she learns of the break, comes within half a second.
        EditLockViewModel alice = editor("Alice", Clock.systemUTC(), Duration.ofMillis(1500));
        EditLockViewModel bob = editor("Bob", Clock.systemUTC());
        alice.attach(c.id());
        alice.lock();
        bob.attach(c.id());

        bob.breakLock();

        assertThat(bob.stateProperty().get()).isInstanceOf(LockState.Held.class);
        await().atMost(Duration.ofSeconds(10)).until(() -> alice.stateProperty().get() instanceof LockState.Lost);
        assertThat(alice.readOnlyProperty().get()).isTrue();
        assertThat(alice.messageProperty().get()).startsWith("Edit lock lost — Bob broke your lock at ");
        assertThat(leasesOf("Reader").events(c.id())).filteredOn(e -> e.kind() == LeaseEvent.Kind.LOST)
                .extracting(LeaseEvent::holder).containsExactly("Alice"); // as the feed's path records it too
        alice.close();
        bob.close();
    }

    @Test
    void anIdleEditorIsWarnedThenLetsGoOfTheLock() {
        Customer c = customer("U-L-4");
        ManualClock clock = new ManualClock();
        EditLockViewModel alice = editor("Alice", clock);
        alice.attach(c.id());
        alice.lock();

        clock.advance(Duration.ofMinutes(14).plusSeconds(5));
        alice.checkIdle();
        assertThat(alice.messageProperty().get()).startsWith("No activity for 14 minutes");
        assertThat(alice.stateProperty().get()).isInstanceOf(LockState.Held.class);

        clock.advance(Duration.ofMinutes(1));
        alice.checkIdle();

        assertThat(alice.stateProperty().get()).isInstanceOf(LockState.Free.class);
        assertThat(alice.messageProperty().get()).contains("your edits are kept");
        await().atMost(Duration.ofSeconds(10)).until(() -> leasesOf("Bob").holder(c.id()).isEmpty());
        assertThat(leasesOf("Bob").acquire(c.id(), 1000)).isInstanceOf(AcquireOutcome.Granted.class);
    }

    @Test
    void switchingBackToOptimisticReleasesTheLease() {
        Customer c = customer("U-L-5");
        EditLockViewModel alice = editor("Alice", Clock.systemUTC());
        alice.attach(c.id());
        alice.lock();

        alice.modeProperty().set(ConcurrencyMode.OPTIMISTIC);

        await().atMost(Duration.ofSeconds(10)).until(() -> leasesOf("Bob").holder(c.id()).isEmpty());
        assertThat(alice.token()).isEmpty();
    }

    @Test
    void aGrantArrivingAfterTheSwitchToLastWriteWinsIsLetGoAtOnce() {
        Customer c = customer("U-L-LWW");
        QueuedTaskExecutor queued = new QueuedTaskExecutor();
        EditLockViewModel alice = new EditLockViewModel(leasesOf("Alice"), queued, Runnable::run, scheduler,
                Clock.systemUTC(), new LeaseSettings(Duration.ofSeconds(60), Duration.ofMinutes(15),
                        Duration.ofMinutes(1), Duration.ofMillis(50)));
        alice.allowLastWriteWins();
        alice.attach(c.id());
        queued.runAll();
        alice.lock(); // the acquisition waits in the queue

        alice.modeProperty().set(ConcurrencyMode.LAST_WRITE_WINS);
        queued.runAll(); // the grant arrives, then its release runs

        assertThat(alice.stateProperty().get()).isInstanceOf(LockState.Free.class);
        assertThat(alice.token()).isEmpty();
        assertThat(leasesOf("Bob").holder(c.id())).isEmpty();
        alice.close();
        queued.runAll();
    }

    /** The holder's banner shows the expiry of the lease as last renewed, not of the first grant. */
    @Test
    void theHoldersExpiryFollowsEachRenewal() {
        Customer c = customer("U-L-R1");
        // 1.5 s, renewed every half second: several renewals within the wait below.
        EditLockViewModel alice = editor("Alice", Clock.systemUTC(), Duration.ofMillis(1500));
        alice.attach(c.id());
        alice.lock();
        Lease first = held(alice);

        await().atMost(Duration.ofSeconds(10)).until(() -> {
            Lease now = held(alice);
            return now.expiresAt().isAfter(first.expiresAt()) && now.expiresAt().equals(storedExpiry(c.id()));
        });

        Lease renewed = held(alice);
        assertThat(renewed.token()).isEqualTo(first.token());
        assertThat(alice.messageProperty().get()).isEqualTo("Locked for you until "
                + TIME.format(renewed.expiresAt().atZone(ZONE))
                + " (renewed while you edit) — others can read but not edit");
        alice.close();
    }

    /**
     * A lease that lapsed (its renewals held up) and was taken over ends the holder's lock at its next renewal: the
     * banner names the new holder and the time of their grant, and no expiry of the old lease is shown any more.
     */
    @Test
    void aTakeoverAfterALapseEndsTheLockNamingTheNewHolderAndTheTimeOfTheirGrant() throws Exception {
        Customer c = customer("U-L-R2");
        ScheduledExecutorService stalled = Executors.newSingleThreadScheduledExecutor();
        CountDownLatch resume = new CountDownLatch(1);
        try {
            EditLockViewModel alice = new EditLockViewModel(leasesOf("Alice"), TaskExecutor.sameThread(),
                    Runnable::run, stalled, Clock.systemUTC(), new LeaseSettings(Duration.ofMillis(1500),
                            Duration.ofMinutes(15), Duration.ofMinutes(1), Duration.ofMillis(50)));
            alice.attach(c.id());
            alice.lock();
            Lease mine = held(alice);
            stalled.execute(() -> awaitQuietly(resume)); // Alice's renewals wait behind this: her lease lapses
            await().atMost(Duration.ofSeconds(10)).until(() -> dbNow().isAfter(mine.expiresAt()));
            JdbiLeaseRepository bob = leasesOf("Bob");
            Lease bobs = ((AcquireOutcome.Granted) bob.acquire(c.id(), 60_000)).lease();

            resume.countDown();

            await().atMost(Duration.ofSeconds(10)).until(() -> alice.stateProperty().get() instanceof LockState.Lost);
            assertThat(alice.messageProperty().get()).isEqualTo("You no longer hold the lock — Bob took it at "
                    + TIME.format(bobs.acquiredAt().atZone(ZONE)));
            assertThat(alice.token()).isEmpty();
            assertThat(alice.readOnlyProperty().get()).isTrue();
            assertThat(leasesOf("Reader").holder(c.id()).orElseThrow().token()).isEqualTo(bobs.token());
            alice.close();
        } finally {
            resume.countDown();
            stalled.shutdownNow();
            assertThat(stalled.awaitTermination(5, TimeUnit.SECONDS)).isTrue();
        }
    }

    /**
     * A watcher's banner follows the holder's lease: a renewal keeps it as it was (the lease's expiry is not an
     * operator's word, issue 27), a takeover names the new holder with their time, and a lapse with nobody taking
     * over frees the record.
     */
    @Test
    void aWatchersBannerFollowsRenewalTakeoverAndLapse() {
        Customer c = customer("U-L-R3");
        JdbiLeaseRepository bob = leasesOf("Bob");
        Lease bobs = ((AcquireOutcome.Granted) bob.acquire(c.id(), 60_000)).lease();
        EditLockViewModel carol = editor("Carol", Clock.systemUTC());
        // Once the record is free the watcher stops polling; a new lock reaches it through the change feed, as in
        // the app (without it, Dave's lock taken after Carol saw the lapse would never be seen).
        LiveUpdates live = new LiveUpdates(Runnable::run, "Carol-session");
        carol.follow(live);
        try (ChangeFeed feed = db.changeFeed(live)) {
            feed.start();
            await().atMost(Duration.ofSeconds(10)).until(() -> live.statusProperty().get() == ChangeFeed.Status.LIVE);
            carol.attach(c.id());
            assertThat(carol.messageProperty().get()).isEqualTo(bannerOf(c.id()));

            Lease renewed = bob.renew(c.id(), bobs.token(), 3_600_000).orElseThrow();
            assertThat(renewed.token()).isEqualTo(bobs.token());
            assertThat(carol.messageProperty().get()).isEqualTo(bannerOf(c.id()));

            Lease shortened = bob.renew(c.id(), bobs.token(), 300).orElseThrow();
            await().atMost(Duration.ofSeconds(10)).until(() -> dbNow().isAfter(shortened.expiresAt()));
            JdbiLeaseRepository dave = leasesOf("Dave");
            Lease daves = ((AcquireOutcome.Granted) dave.acquire(c.id(), 5_000)).lease();
            await().atMost(Duration.ofSeconds(10)).until(() -> carol.messageProperty().get().startsWith("Dave "));
            assertThat(carol.messageProperty().get()).isEqualTo("Dave is editing this customer (since "
                    + TIME.format(daves.acquiredAt().atZone(ZONE))
                    + "). You can read it, and edit it once they are done.");

            await().atMost(Duration.ofSeconds(30)).until(() -> carol.stateProperty().get() instanceof LockState.Free);
            assertThat(carol.readOnlyProperty().get()).isFalse();
            assertThat(leasesOf("Reader").holder(c.id())).isEmpty();
        }
        carol.close();
    }

    static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss");
    static final ZoneId ZONE = ZoneId.systemDefault();

    static Lease held(EditLockViewModel editor) {
        assertThat(editor.stateProperty().get()).isInstanceOf(LockState.Held.class);
        return ((LockState.Held) editor.stateProperty().get()).lease();
    }

    static Instant storedExpiry(long id) {
        return db.jdbi().withHandle(h -> h.createQuery("SELECT expires_at FROM record_lease WHERE record_id = :id")
                .bind("id", id).mapTo(OffsetDateTime.class).one()).toInstant();
    }

    /** The banner a watcher should show for the record's lease as stored now. */
    static String bannerOf(long id) {
        return LockMessages.heldByOther(leasesOf("Reader").holder(id).orElseThrow(), ZONE);
    }

    static Instant dbNow() {
        return db.jdbi().withHandle(h -> h.createQuery("SELECT clock_timestamp()").mapTo(OffsetDateTime.class).one())
                .toInstant();
    }

    static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
