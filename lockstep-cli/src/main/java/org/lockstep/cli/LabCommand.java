package org.lockstep.cli;

import java.util.List;
import java.util.concurrent.Callable;
import org.lockstep.server.LabConnections;
import org.lockstep.lab.LabProgress;
import org.lockstep.lab.LabRun;
import org.lockstep.lab.LabRunner;
import org.lockstep.lab.RetryPolicy;
import org.lockstep.lab.Strategy;
import org.lockstep.lab.StrategyResult;
import org.lockstep.lab.SweepPlan;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code lockstep lab}: the contention lab. Buyers race for the stock of one {@code lab_stock} row under each
 * strategy, and the command prints what happened — confirmed purchases, final stock, lost updates, conflicts,
 * retries, lock waits, throughput and latency — as a table or a JSON array. The default run is the classic one:
 * 8 buyers, 5 units, 50 ms think time. Exit 0 whatever the strategies did (losing updates is the point of
 * {@code none}); 2 for invalid parameters, and for more workers than the server has connections free (checked
 * before anything runs; the message says how many are free and which setting limits them); 4 when another session
 * holds one of the lab's rows longer than the lab waits for a lock; 1 when the database fails. Every statement of
 * the lab is bounded like the editor's (statement and lock timeouts), its setup included. The times printed are
 * the wall time the user waited, setup included; throughput is measured over the races alone. Customers are never
 * touched.
 */
@Command(name = "lab", description = {
        "The contention lab: buyers race for the stock of one row under each locking strategy, measured.",
        "Each buyer reads the stock, thinks, decides (buy if stock > 0) and writes, on its own connection."})
public final class LabCommand implements Callable<Integer> {

    /** Purchase attempts per worker in a sweep, unless --ops says otherwise. */
    static final int SWEEP_OPS = 5;

    @ParentCommand
    Launcher launcher;
    @Spec
    CommandSpec spec;

    @Option(names = "--strategy", defaultValue = "all", paramLabel = "NAME",
            description = "none, optimistic, pessimistic, conditional, lease, or all (default).")
    String strategy;

    @Option(names = "--workers", defaultValue = "8", paramLabel = "N",
            description = "Buyers racing at once, each on its own connection (default ${DEFAULT-VALUE}).")
    int workers;

    @Option(names = "--stock", defaultValue = "5", paramLabel = "N",
            description = "Units on sale at the start (default ${DEFAULT-VALUE}).")
    int stock;

    @Option(names = "--ops", paramLabel = "N",
            description = "Purchase attempts per worker (default 1; " + SWEEP_OPS + " with --sweep).")
    Integer ops;

    @Option(names = "--think-ms", defaultValue = "50", paramLabel = "MS",
            description = "Simulated work between read and write, in ms, 0 to " + LabRun.MAX_THINK_MS
                    + " (default ${DEFAULT-VALUE}).")
    long thinkMs;

    @Option(names = "--lock-timeout-ms", defaultValue = "2000", paramLabel = "MS",
            description = "How long a pessimistic or lease buyer waits for the lock, 1 to " + LabRun.MAX_LOCK_TIMEOUT_MS
                    + " (default ${DEFAULT-VALUE}). The lab's own setup waits no longer than the editor would (4 s).")
    long lockTimeoutMs;

    @Option(names = "--max-attempts", defaultValue = "10", paramLabel = "N",
            description = "Attempts per purchase before a buyer gives up after conflicts (default ${DEFAULT-VALUE}).")
    int maxAttempts;

    @Option(names = "--seed", defaultValue = "1", paramLabel = "N",
            description = "Seeds the backoff jitter and random think times (default ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--sweep", description = "Run every strategy at 1, 2, 4 … 64 workers (stock = workers × ops) "
            + "and print the throughput per strategy.")
    boolean sweep;

    @Option(names = "--sweep-workers", split = ",", paramLabel = "N,N,…",
            description = "The worker counts of --sweep (default 1,2,4,8,16,32,64).")
    List<Integer> sweepWorkers;

    @Option(names = "--json", description = "Print a JSON array, one object per strategy (and worker count).")
    boolean json;

    @Override
    public Integer call() {
        List<Strategy> strategies;
        LabRun run;
        SweepPlan plan = null;
        try {
            strategies = Strategy.parse(strategy);
            run = new LabRun(workers, stock, ops == null ? (sweep ? SWEEP_OPS : 1) : ops, thinkMs, thinkMs, seed,
                    new RetryPolicy(RetryPolicy.DEFAULT.baseMs(), RetryPolicy.DEFAULT.capMs(), maxAttempts),
                    lockTimeoutMs, LabRun.CLASSIC.leaseTtlMs());
            if (sweep) {
                plan = new SweepPlan(sweepWorkers == null ? SweepPlan.STANDARD_WORKERS : sweepWorkers, strategies,
                        run);
            }
        } catch (IllegalArgumentException e) {
            return CommandSupport.failure(spec.commandLine().getErr(), e);
        }
        SweepPlan sweepPlan = plan;
        return CommandSupport.run(launcher, spec, false, s -> {
            long started = System.nanoTime();
            LabRunner lab = LabConnections.runner(s.db());
            if (sweepPlan != null) {
                if (!json) {
                    s.err().println("lockstep: sweeping " + sweepPlan.strategies().size() + " strategies over "
                            + sweepPlan.workerCounts() + " workers, " + sweepPlan.totalOps()
                            + " purchase attempts; this takes a while");
                    s.err().flush();
                }
                List<StrategyResult> results = lab.sweep(sweepPlan, LabProgress.NONE);
                if (json) {
                    LabOutput.printJson(s.out(), results);
                } else {
                    LabOutput.printSweep(s.out(), sweepPlan, results, System.nanoTime() - started);
                }
            } else {
                List<StrategyResult> results = lab.run(run, strategies, LabProgress.NONE);
                if (json) {
                    LabOutput.printJson(s.out(), results);
                } else {
                    LabOutput.printTable(s.out(), run, results, System.nanoTime() - started);
                }
            }
            return ExitCodes.OK;
        });
    }
}
