package org.lockstep.lab;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The contention lab: buyers race for the stock of one row under each {@link Strategy}, and the lab measures the
 * outcome. Every buyer has its own thread and database session, opened before the race; a start signal releases
 * them together, so that in the classic run all eight read the stock before any of them writes. A run that needs
 * more connections than the server has free is refused before anything runs ({@link StockStores#room()}).
 */
public final class ContentionLab implements LabRunner {

    /** Unmeasured purchases per strategy before a run or sweep. */
    private static final int WARM_UP_OPS = 3;

    private final StockStores stores;

    /** @param stores opens the lab's connections, as many as a run has buyers */
    public ContentionLab(StockStores stores) {
        this.stores = stores;
    }

    @Override
    public List<StrategyResult> run(LabRun run, List<Strategy> strategies, LabProgress progress) {
        if (strategies.isEmpty()) {
            throw new IllegalArgumentException("choose at least one strategy");
        }
        stores.room().require(run.workers());
        Counter counter = new Counter(run.totalOps() * strategies.size(), progress);
        List<StrategyResult> results = new ArrayList<>();
        try (StockStore store = stores.open(run.workers())) {
            for (Strategy strategy : strategies) {
                long started = System.nanoTime();
                warmUp(store, strategy, run);
                results.add(counted(store, race(store, strategy, run, counter, started)));
            }
        }
        return List.copyOf(results);
    }

    @Override
    public List<StrategyResult> sweep(SweepPlan plan, LabProgress progress) {
        Counter counter = new Counter(plan.totalOps(), progress);
        int most = plan.workerCounts().stream().mapToInt(Integer::intValue).max().orElseThrow();
        stores.room().require(most);
        List<StrategyResult> results = new ArrayList<>();
        Set<Strategy> warm = EnumSet.noneOf(Strategy.class);
        try (StockStore store = stores.open(most)) {
            for (int workers : plan.workerCounts()) {
                for (Strategy strategy : plan.strategies()) {
                    long started = System.nanoTime();
                    if (warm.add(strategy)) {
                        warmUp(store, strategy, plan.template());
                    }
                    results.add(counted(store, race(store, strategy, plan.runFor(workers), counter, started)));
                }
            }
        }
        return List.copyOf(results);
    }

    /** A measured race's purchases given up after the last retry are recorded for the conflict report. */
    private static StrategyResult counted(StockStore store, StrategyResult result) {
        if (result.retriesExhausted() > 0) {
            store.recordRetriesExhausted(result.strategy().id(), result.retriesExhausted());
        }
        return result;
    }

    /**
     * One buyer makes a few purchases under the strategy, unmeasured, just before its first measured race, so that
     * the first strategy measured does not pay alone for loading classes, compiling hot code and preparing
     * statements. Its time counts in that strategy's wall time: the user waits for it too.
     */
    private static void warmUp(StockStore store, Strategy strategy, LabRun run) {
        LabRun warmUp = run.withWorkers(1).withStock(WARM_UP_OPS).withOpsPerWorker(WARM_UP_OPS).withThinkMs(0);
        race(store, strategy, warmUp, new Counter(0, LabProgress.NONE), System.nanoTime());
    }

    /**
     * Resets the strategy's row, opens the buyers' sessions, races them and reads the final stock. The result has both
     * the race's time (for throughput) and the whole of it from {@code started} (a {@link System#nanoTime()}), setup
     * included: what the user waited for.
     */
    private static StrategyResult race(StockStore store, Strategy strategy, LabRun run, Counter counter,
            long started) {
        long rowId = store.reset(strategy.id(), run.stock());
        List<StockStore.Session> sessions = new ArrayList<>();
        List<Buyer> buyers = new ArrayList<>();
        long elapsed;
        try {
            for (int i = 0; i < run.workers(); i++) {
                sessions.add(store.openSession());
            }
            CountDownLatch ready = new CountDownLatch(run.workers());
            CountDownLatch go = new CountDownLatch(1);
            AtomicBoolean abort = new AtomicBoolean();
            SplittableRandom seeds = new SplittableRandom(run.seed());
            for (int i = 0; i < run.workers(); i++) {
                buyers.add(new Buyer(strategy, run, rowId, "lab buyer " + (i + 1), sessions.get(i), seeds.split(),
                        ready, go, abort, counter::step));
            }
            elapsed = race(buyers, strategy, ready, go, abort);
        } finally {
            // The store has a connection per buyer and no more: return them before reading the final stock.
            sessions.forEach(StockStore.Session::close);
        }
        int finalStock = store.stock(rowId);
        return result(strategy, run, buyers, finalStock, elapsed, System.nanoTime() - started);
    }

    /** Starts the buyers together, waits for all of them, and returns the race's wall-clock time in nanoseconds. */
    private static long race(List<Buyer> buyers, Strategy strategy, CountDownLatch ready, CountDownLatch go,
            AtomicBoolean abort) {
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < buyers.size(); i++) {
            Thread t = new Thread(buyers.get(i), "lab-" + strategy.id() + "-" + (i + 1));
            t.setDaemon(true);
            threads.add(t);
            t.start();
        }
        long start;
        try {
            ready.await();
            start = System.nanoTime();
            go.countDown();
            for (Thread t : threads) {
                t.join();
            }
        } catch (InterruptedException e) {
            abort.set(true);
            go.countDown();
            threads.forEach(Thread::interrupt);
            Thread.currentThread().interrupt();
            throw new IllegalStateException("The lab run was interrupted", e);
        }
        long elapsed = System.nanoTime() - start;
        for (Buyer b : buyers) {
            if (b.failure != null) {
                throw b.failure;
            }
        }
        return elapsed;
    }

    private static StrategyResult result(Strategy strategy, LabRun run, List<Buyer> buyers, int finalStock,
            long raceNanos, long wallNanos) {
        long ops = 0;
        long confirmed = 0;
        long soldOut = 0;
        long conflicts = 0;
        long retries = 0;
        long exhausted = 0;
        long lockWaits = 0;
        long lockTimeouts = 0;
        List<long[]> all = new ArrayList<>();
        for (Buyer b : buyers) {
            ops += b.finished();
            confirmed += b.confirmed;
            soldOut += b.soldOut;
            conflicts += b.conflicts;
            retries += b.retries;
            exhausted += b.retriesExhausted;
            lockWaits += b.lockWaits;
            lockTimeouts += b.lockTimeouts;
            all.add(b.latencies());
        }
        Latencies latencies = new Latencies(all.stream().flatMapToLong(java.util.Arrays::stream).toArray());
        return new StrategyResult(strategy, run.workers(), run.stock(), ops, confirmed, soldOut, finalStock,
                conflicts, retries, exhausted, lockWaits, lockTimeouts, raceNanos, wallNanos,
                latencies.percentileMs(50), latencies.percentileMs(99));
    }

    /** Counts finished purchases over a whole run or sweep and reports them. */
    private static final class Counter {
        private final AtomicLong done = new AtomicLong();
        private final long total;
        private final LabProgress progress;

        Counter(long total, LabProgress progress) {
            this.total = total;
            this.progress = progress == null ? LabProgress.NONE : progress;
        }

        void step() {
            progress.update(done.incrementAndGet(), total);
        }
    }
}
