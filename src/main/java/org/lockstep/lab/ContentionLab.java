package org.lockstep.lab;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The contention lab: buyers race for the stock of one row under each {@link Strategy}, and the lab measures the
 * outcome. Every buyer has its own thread and database session, opened before the race; a start signal releases
 * them together, so that in the classic run all eight read the stock before any of them writes.
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
        Counter counter = new Counter(run.totalOps() * strategies.size(), progress);
        List<StrategyResult> results = new ArrayList<>();
        try (StockStore store = stores.open(run.workers())) {
            warmUp(store, strategies, run);
            for (Strategy strategy : strategies) {
                results.add(race(store, strategy, run, counter));
            }
        }
        return List.copyOf(results);
    }

    @Override
    public List<StrategyResult> sweep(SweepPlan plan, LabProgress progress) {
        Counter counter = new Counter(plan.totalOps(), progress);
        int most = plan.workerCounts().stream().mapToInt(Integer::intValue).max().orElseThrow();
        List<StrategyResult> results = new ArrayList<>();
        try (StockStore store = stores.open(most)) {
            warmUp(store, plan.strategies(), plan.template());
            for (int workers : plan.workerCounts()) {
                for (Strategy strategy : plan.strategies()) {
                    results.add(race(store, strategy, plan.runFor(workers), counter));
                }
            }
        }
        return List.copyOf(results);
    }

    /**
     * One buyer makes a few purchases under each strategy, unmeasured, so that the first strategy measured does not
     * pay alone for loading classes, compiling hot code and preparing statements.
     */
    private static void warmUp(StockStore store, List<Strategy> strategies, LabRun run) {
        LabRun warmUp = run.withWorkers(1).withStock(WARM_UP_OPS).withOpsPerWorker(WARM_UP_OPS).withThinkMs(0);
        Counter ignored = new Counter(0, LabProgress.NONE);
        for (Strategy strategy : strategies) {
            race(store, strategy, warmUp, ignored);
        }
    }

    private static StrategyResult race(StockStore store, Strategy strategy, LabRun run, Counter counter) {
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
        return result(strategy, run, buyers, store.stock(rowId), elapsed);
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
                                         long elapsedNanos) {
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
                conflicts, retries, exhausted, lockWaits, lockTimeouts, elapsedNanos, latencies.percentileMs(50),
                latencies.percentileMs(99));
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
