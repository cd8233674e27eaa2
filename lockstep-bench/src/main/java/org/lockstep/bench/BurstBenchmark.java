package org.lockstep.bench;

import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.lockstep.server.Database;
import org.lockstep.domain.ChangeFeed;
import org.lockstep.store.JdbiCustomerRepository;
import org.lockstep.concurrency.TaskExecutor;
import org.lockstep.ui.list.CustomerListViewModel;
import org.lockstep.ui.list.LiveListUpdater;
import org.lockstep.ui.live.LiveUpdates;

/**
 * A burst of changes from another client (docs/benchmarks.md, "Bursts"): client B — its own pool and change feed — shows the customer
 * list as the desktop does (the list's view model, its live updater, a UI thread of its own standing in for the FX
 * thread, reads on background threads); client A, a script on another connection, inserts N customers with one
 * INSERT statement each, in one transaction, so that B hears N notifications at A's commit. Measured: the time from
 * A's commit until B's list shows the new count; the longest stall of B's UI thread (a probe posts a task every
 * 5 ms and records how long it waited); B's heap growth (used heap after a full GC, before and after).
 */
final class BurstBenchmark {

    /**
     * @param catchUpMs  from A's commit to B's status line showing the new count
     * @param stallMs    the longest wait of a probe task on B's UI thread
     * @param heapMb     B's used heap after GC, after the burst minus before it (the whole process: A's side too)
     * @param before     customers before the burst
     */
    record Result(int rows, double insertSeconds, double catchUpMs, double stallMs, double heapMb, long before) {
    }

    private final Database a;
    private final Database b;
    private final String user;
    private final PrintWriter progress;

    BurstBenchmark(Database a, Database b, String user, PrintWriter progress) {
        this.a = a;
        this.b = b;
        this.user = user;
        this.progress = progress;
    }

    Result run(int rows) throws Exception {
        ExecutorService ui = Executors.newSingleThreadExecutor(daemon("lockstep-bench-ui"));
        ExecutorService background = Executors.newFixedThreadPool(2, daemon("lockstep-bench-worker"));
        ScheduledExecutorService probe = Executors.newSingleThreadScheduledExecutor(daemon("lockstep-bench-probe"));
        TaskExecutor tasks = new TaskExecutor() {
            @Override
            public <T> void run(Callable<T> work, Consumer<T> onSuccess, Consumer<Throwable> onFailure) {
                background.execute(() -> {
                    try {
                        T value = work.call();
                        ui.execute(() -> onSuccess.accept(value));
                    } catch (Exception e) {
                        ui.execute(() -> onFailure.accept(e));
                    }
                });
            }
        };
        JdbiCustomerRepository reader =
                new JdbiCustomerRepository(b.jdbi(), user, "bench-burst-B-" + UUID.randomUUID());
        LiveUpdates live = new LiveUpdates(ui, reader.sessionId());
        CustomerListViewModel list = new CustomerListViewModel(reader, tasks);
        long before = reader.count("", 10_000).count();
        String expected = String.format("%,d customers", before + rows);
        String opened = String.format("%,d customers", before);
        AtomicLong shownAt = new AtomicLong();
        CountDownLatch shown = new CountDownLatch(1);
        CountDownLatch open = new CountDownLatch(1);
        AtomicLong longestWait = new AtomicLong();
        try (ChangeFeed feed = b.changeFeed(live)) {
            ui.execute(() -> {
                new LiveListUpdater(list, reader, tasks, live);
                list.statusProperty().addListener((o, was, now) -> {
                    if (now.equals(opened)) {
                        open.countDown();
                    }
                    if (now.equals(expected) && shownAt.compareAndSet(0, System.nanoTime())) {
                        shown.countDown();
                    }
                });
                list.start();
            });
            feed.start();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            // Open as an operator sees it: feed live, first page in, and the status line showing the count (its first
            // text warms up the ICU formatting, 0.3 s on a fresh JVM, which is no stall of the burst's).
            while (feed.status() != ChangeFeed.Status.LIVE || list.rows().isEmpty() && before > 0
                    || open.getCount() > 0) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("Client B's list and change feed were not ready within 10 s");
                }
                Thread.sleep(5);
            }
            long heapBefore = usedHeapAfterGc();
            probe.scheduleAtFixedRate(() -> {
                long posted = System.nanoTime();
                ui.execute(() -> longestWait.accumulateAndGet(System.nanoTime() - posted, Math::max));
            }, 0, 5, TimeUnit.MILLISECONDS);
            progress.printf("Client A inserts %,d customers, one statement each, in one transaction…%n", rows);
            progress.flush();
            long started = System.nanoTime();
            insert(rows);
            long committed = System.nanoTime();
            boolean caughtUp = shown.await(120, TimeUnit.SECONDS);
            // The probe stops first: the full GC below pauses every thread, and is no stall of the list's.
            probe.shutdownNow();
            probe.awaitTermination(5, TimeUnit.SECONDS);
            ui.submit(() -> {}).get(5, TimeUnit.SECONDS);
            long heapAfter = usedHeapAfterGc();
            return new Result(rows, (committed - started) / 1e9,
                    caughtUp ? (shownAt.get() - committed) / 1e6 : Double.NaN, longestWait.get() / 1e6,
                    (heapAfter - heapBefore) / 1e6, before);
        } finally {
            // Ended and awaited before the caller closes B's pool: a re-read still running on a background thread
            // would otherwise fail on the closed pool and post its failure to a UI executor already shut down,
            // throwing on a thread that outlives the benchmark (issue 27).
            endAll(probe, ui, background);
            deleteBurst();
        }
    }

    private static void endAll(ExecutorService... executors) throws InterruptedException {
        for (ExecutorService e : executors) {
            e.shutdownNow();
        }
        for (ExecutorService e : executors) {
            if (!e.awaitTermination(10, TimeUnit.SECONDS)) {
                throw new IllegalStateException("A burst benchmark thread did not end within 10 s");
            }
        }
    }

    private static final String PREFIX = "BENCH-BURST-";

    /** What a script does: one INSERT per row, one transaction, through A's own pool. */
    private void insert(int rows) throws SQLException {
        String run = UUID.randomUUID().toString().substring(0, 8);
        try (Connection c = a.dataSource().getConnection()) {
            c.setAutoCommit(false);
            try (PreparedStatement ps = c.prepareStatement(
                    "INSERT INTO customer (company, city, external_ref) VALUES (?, 'Burst', ?)")) {
                for (int i = 1; i <= rows; i++) {
                    ps.setString(1, "Burst " + run + " " + i);
                    ps.setString(2, PREFIX + run + "-" + i);
                    ps.addBatch();
                    if (i % 1_000 == 0 || i == rows) {
                        ps.executeBatch();
                    }
                }
            }
            c.commit();
        }
    }

    /** Removes the burst's rows (one statement: one MANY notification). */
    private void deleteBurst() {
        a.jdbi().useHandle(h -> h.execute("DELETE FROM customer WHERE external_ref LIKE '" + PREFIX + "%'"));
    }

    private static long usedHeapAfterGc() {
        System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }
}
