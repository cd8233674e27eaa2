package org.lockstep.lab;

import java.util.List;

/**
 * A contention sweep: for each worker count, each strategy runs {@code template} with that many workers and
 * {@code workers × opsPerWorker} units in stock — enough for every attempt, so that throughput measures contention,
 * not the stock running out.
 *
 * @param workerCounts the worker counts, in the order they run (each 1–{@value LabRun#MAX_WORKERS})
 * @param strategies   the strategies to run at every worker count
 * @param template     think time, ops per worker, seed, retry policy and timeouts of every run
 */
public record SweepPlan(List<Integer> workerCounts, List<Strategy> strategies, LabRun template) {

    /** The worker counts of the standard sweep. */
    public static final List<Integer> STANDARD_WORKERS = List.of(1, 2, 4, 8, 16, 32, 64);

    /** Copies the lists and checks them. */
    public SweepPlan {
        workerCounts = List.copyOf(workerCounts);
        strategies = List.copyOf(strategies);
        if (workerCounts.isEmpty() || strategies.isEmpty()) {
            throw new IllegalArgumentException("a sweep needs at least one worker count and one strategy");
        }
        workerCounts.forEach(w -> run(template, w));
    }

    /** The standard sweep (1, 2, 4 … 64 workers) over {@code strategies}. */
    public static SweepPlan standard(List<Strategy> strategies, LabRun template) {
        return new SweepPlan(STANDARD_WORKERS, strategies, template);
    }

    /** The run at one worker count. */
    public LabRun runFor(int workers) {
        return run(template, workers);
    }

    /** Purchase attempts in the whole sweep. */
    public long totalOps() {
        return workerCounts.stream().mapToLong(w -> runFor(w).totalOps()).sum() * strategies.size();
    }

    private static LabRun run(LabRun template, int workers) {
        long units = (long) workers * template.opsPerWorker();
        if (units > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("too many purchases for one sweep point: " + units);
        }
        return template.withWorkers(workers).withStock((int) units);
    }
}
