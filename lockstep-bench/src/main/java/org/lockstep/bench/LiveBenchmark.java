package org.lockstep.bench;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.lockstep.server.Database;
import org.lockstep.synthetic.SyntheticCustomers;
import org.lockstep.domain.ChangeEvent;
import org.lockstep.domain.ChangeFeed;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.SaveOutcome;
import org.lockstep.store.JdbiCustomerRepository;

/**
 * How fast another client learns of a save (ADR 0007): client A saves one row {@code saves} times through the store;
 * client B — its own {@link Database} (pool) and change feed, as a second desktop would have — hears each
 * notification and reads the row, as a clean editor does, and records when its model holds each new version. The
 * latency of version v is from A's save call returning (the commit) to B holding v or a newer one; B's read of a
 * batch of notifications covers every version up to the one it read.
 */
final class LiveBenchmark {

    /**
     * @param latencies commit-to-model latency of every version B received
     * @param missed    versions B never held before the wait ran out
     * @param seconds   how long A took for all its saves
     */
    record Result(int saves, Latencies latencies, int missed, double seconds) {
    }

    private final Database a;
    private final Database b;
    private final String user;
    private final PrintWriter progress;

    LiveBenchmark(Database a, Database b, String user, PrintWriter progress) {
        this.a = a;
        this.b = b;
        this.user = user;
        this.progress = progress;
    }

    /**
     * @param saves  measured saves
     * @param warmup saves before them, made and followed the same way but not measured (a fresh JVM on both sides
     *               runs its first saves interpreted)
     * @param pause  between two of A's saves
     */
    Result run(int saves, int warmup, Duration pause) throws InterruptedException {
        int total = warmup + saves;
        JdbiCustomerRepository writer = new JdbiCustomerRepository(a.jdbi(), user, "bench-live-A-" + UUID.randomUUID());
        JdbiCustomerRepository reader = new JdbiCustomerRepository(b.jdbi(), user, "bench-live-B-" + UUID.randomUUID());
        String run = UUID.randomUUID().toString().substring(0, 8);
        Customer row = writer.create(new SyntheticCustomers(run.hashCode()).customer(1)
                .with(CustomerField.EXTERNAL_REF, "BENCH-LIVE-" + run));
        long first = row.version() + 1;
        long last = row.version() + total;
        long[] committed = new long[total];
        long[] held = new long[total];
        CountDownLatch allHeld = new CountDownLatch(1);
        Model model = new Model(reader, row.id(), first, last, held, allHeld);
        long version = row.version();
        double seconds;
        try (ChangeFeed feed = b.changeFeed(model)) {
            feed.start();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (feed.status() != ChangeFeed.Status.LIVE) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("Client B's change feed did not connect within 10 s");
                }
                Thread.sleep(5);
            }
            CustomerData[] values = {row.data(), row.data().with(CustomerField.NOTES, "bench " + run)};
            progress.printf("Client A saves %,d times (%,d of them warm-up); client B follows…%n", total, warmup);
            progress.flush();
            long start = 0;
            for (int i = 0; i < total; i++) {
                if (i == warmup) {
                    start = System.nanoTime();
                }
                SaveOutcome outcome = writer.save(row.id(), version, values[(i + 1) % 2]);
                committed[i] = System.nanoTime();
                version = ((SaveOutcome.Saved) outcome).saved().version();
                if (!pause.isZero()) {
                    Thread.sleep(pause.toMillis());
                }
            }
            seconds = (System.nanoTime() - start) / 1e9;
            allHeld.await(10, TimeUnit.SECONDS);
        } finally {
            writer.delete(row.id(), version);
        }
        Latencies latencies = new Latencies();
        int missed = 0;
        for (int i = warmup; i < total; i++) {
            long h;
            synchronized (held) {
                h = held[i];
            }
            if (h == 0) {
                missed++;
            } else {
                // B may hold a version a moment before A's call has returned; that counts as no delay.
                latencies.recordNanos(Math.max(0, h - committed[i]));
            }
        }
        return new Result(saves, latencies, missed, seconds);
    }

    /**
     * Client B's model of the row, kept as the desktop client keeps its list and editors: notifications are taken off
     * the feed's thread at once, and a reader re-reads the row off that thread; reads do not queue up behind each
     * other — when more versions were announced during a read, the next read covers them all.
     */
    private static final class Model implements ChangeFeed.Listener {
        private final JdbiCustomerRepository reader;
        private final long id;
        private final long first;
        private final long last;
        private final long[] held;
        private final CountDownLatch allHeld;
        private final java.util.concurrent.ExecutorService reads = java.util.concurrent.Executors
                .newSingleThreadExecutor(r -> {
                    Thread t = new Thread(r, "lockstep-bench-live-reader");
                    t.setDaemon(true);
                    return t;
                });
        private final java.util.concurrent.atomic.AtomicLong announced = new java.util.concurrent.atomic.AtomicLong();
        private final java.util.concurrent.atomic.AtomicBoolean readQueued =
                new java.util.concurrent.atomic.AtomicBoolean();
        private volatile long holds;

        Model(JdbiCustomerRepository reader, long id, long first, long last, long[] held, CountDownLatch allHeld) {
            this.reader = reader;
            this.id = id;
            this.first = first;
            this.last = last;
            this.held = held;
            this.allHeld = allHeld;
            this.holds = first - 1;
        }

        @Override
        public void changes(List<ChangeEvent> events) {
            events.stream().filter(e -> e.isCustomer() && e.id() == id).mapToLong(ChangeEvent::version).max()
                    .ifPresent(v -> announced.accumulateAndGet(v, Math::max));
            if (announced.get() > holds && readQueued.compareAndSet(false, true)) {
                reads.execute(this::read);
            }
        }

        private void read() {
            readQueued.set(false);
            reader.find(id).ifPresent(c -> {
                long now = System.nanoTime();
                synchronized (held) {
                    for (long v = Math.max(holds + 1, first); v <= Math.min(c.version(), last); v++) {
                        held[(int) (v - first)] = now;
                    }
                }
                holds = Math.max(holds, c.version());
                if (holds >= last) {
                    allHeld.countDown();
                    reads.shutdown();
                }
            });
            if (announced.get() > holds && readQueued.compareAndSet(false, true)) {
                reads.execute(this::read);
            }
        }
    }
}
