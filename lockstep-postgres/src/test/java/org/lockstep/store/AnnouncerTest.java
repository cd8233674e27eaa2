package org.lockstep.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.lockstep.server.Database;
import org.lockstep.domain.ChangeEvent;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.HeardChanges;
import org.lockstep.testing.db.TestDatabases;

/**
 * The announcer that sends Lockstep's own saves' notifications off the saving thread, on a real LISTEN/NOTIFY
 * channel: everything queued arrives, in the order queued, with its payload; a flush waits for it; a server that
 * cannot be reached loses the announcements but never blocks or fails the caller.
 */
@DatabaseTest
class AnnouncerTest {

    Database db;
    HeardChanges other;

    @BeforeEach
    void open() {
        String url = TestDatabases.freshUrl();
        TestDatabases.Server s = TestDatabases.server();
        db = Database.open(url, s.user(), s.password(), "announcer test");
        other = HeardChanges.listening(url, s.user(), s.password());
    }

    @AfterEach
    void close() {
        other.close();
        db.close();
    }

    @Test
    void aBurstOfAnnouncementsArrivesWholeAndInOrder() {
        Announcer announcer = Announcer.of(db.jdbi());

        LongStream.rangeClosed(1, 2_500).forEach(v -> announcer.announce(7, v, "UPDATE", "burst-session"));

        assertThat(Announcer.flush(db.jdbi(), Duration.ofSeconds(10))).isTrue();
        await().atMost(Duration.ofSeconds(10)).until(() -> other.all().size() == 2_500);
        assertThat(other.all()).extracting(ChangeEvent::version)
                .containsExactlyElementsOf(LongStream.rangeClosed(1, 2_500).boxed().toList());
        assertThat(other.all()).allSatisfy(e -> {
            assertThat(e.table()).isEqualTo("customer");
            assertThat(e.id()).isEqualTo(7);
            assertThat(e.op()).isEqualTo("UPDATE");
            assertThat(e.sessionId()).contains("burst-session");
        });
    }

    @Test
    void manyThreadsAnnouncingAtOnceAreAllSettledBeforeEachFlushReturns() throws Exception {
        Announcer announcer = Announcer.of(db.jdbi());
        java.util.concurrent.ExecutorService threads = java.util.concurrent.Executors.newFixedThreadPool(16);
        try {
            for (int round = 0; round < 200; round++) {
                java.util.concurrent.CountDownLatch start = new java.util.concurrent.CountDownLatch(1);
                List<java.util.concurrent.Future<?>> done = new java.util.ArrayList<>();
                for (int t = 0; t < 16; t++) {
                    long id = 1_000 + t;
                    done.add(threads.submit(() -> {
                        start.await();
                        for (int i = 0; i < 5; i++) {
                            announcer.announce(id, i, "UPDATE", "race");
                        }
                        return null;
                    }));
                }
                start.countDown();
                for (java.util.concurrent.Future<?> f : done) {
                    f.get(10, java.util.concurrent.TimeUnit.SECONDS);
                }
                // Numbers drawn in one order and queued in another once left the settled mark behind for good.
                assertThat(Announcer.flush(db.jdbi(), Duration.ofSeconds(10))).as("round %d", round).isTrue();
            }
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void aRepositoryThatAnnouncesBeforeReturningHasSentItsSaveWhenTheSaveReturns() {
        JdbiCustomerRepository cli = new JdbiCustomerRepository(db.jdbi(), "Cli", "cli-session")
                .announcingBeforeReturning();
        org.lockstep.domain.Customer c = cli.create(org.lockstep.testing.CustomerBuilder.aCustomer()
                .with(org.lockstep.domain.CustomerField.EXTERNAL_REF, "ANN-CLI").build());

        cli.save(c.id(), 1, c.data().with(org.lockstep.domain.CustomerField.CITY, "Lyon"));

        // Nothing is left queued: the save waited for its announcement to be sent.
        assertThat(Announcer.flush(db.jdbi(), Duration.ZERO)).isTrue();
        await().atMost(Duration.ofSeconds(10)).until(() -> other.all().stream().anyMatch(e -> e.id() == c.id()
                && e.version() == 2));
    }

    @Test
    void everyHandleAndRepositoryOfOneDatabaseSharesOneAnnouncer(Database other) {
        Announcer direct = Announcer.of(db.jdbi());
        Announcer viaHandle = db.jdbi().withHandle(h -> Announcer.of(h.getJdbi()));

        assertThat(viaHandle).isSameAs(direct);
        assertThat(Announcer.of(other.jdbi())).isNotSameAs(direct);
    }

    @Test
    void aFlushWithNothingQueuedReturnsAtOnce() {
        assertThat(Announcer.flush(db.jdbi(), Duration.ZERO)).isTrue();
        Announcer.of(db.jdbi());
        assertThat(Announcer.flush(db.jdbi(), Duration.ZERO)).isTrue();
    }

    @Test
    void announcementsTheServerCannotTakeAreDroppedWithoutBlockingTheCaller() {
        Announcer announcer = Announcer.of(db.jdbi());
        db.close(); // the pool is gone, and with it the sending thread: nothing can be sent

        long started = System.nanoTime();
        LongStream.rangeClosed(1, 100).forEach(v -> announcer.announce(8, v, "UPDATE", "s"));
        long queuedMs = (System.nanoTime() - started) / 1_000_000;

        assertThat(Announcer.flush(db.jdbi(), Duration.ofSeconds(10))).isTrue();
        assertThat(queuedMs).isLessThan(1_000); // queued, not sent, by the caller's thread
        assertThat(other.all()).noneMatch(e -> e.id() == 8);
    }

    @Test
    void closingTheDatabaseSendsWhatIsQueuedAndEndsTheSendingThread() {
        Announcer announcer = Announcer.of(db.jdbi());
        LongStream.rangeClosed(1, 50).forEach(v -> announcer.announce(9, v, "UPDATE", "closing"));

        db.close();

        // Sent before the pool closed, and no thread of this database left, not even for its idle seconds.
        await().atMost(Duration.ofSeconds(10)).until(() -> other.all().stream().filter(e -> e.id() == 9).count() == 50);
        assertThat(Thread.getAllStackTraces().keySet()).noneMatch(t -> t.getName().equals("lockstep-announcer"));
        announcer.announce(9, 51, "UPDATE", "closing"); // dropped, starts nothing
        assertThat(Announcer.flush(db.jdbi(), Duration.ZERO)).isTrue();
        assertThat(Thread.getAllStackTraces().keySet()).noneMatch(t -> t.getName().equals("lockstep-announcer"));
    }
}
