package org.lockstep.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import org.lockstep.lab.LabRun;
import org.lockstep.lab.Strategy;
import org.lockstep.lab.StrategyResult;
import org.lockstep.lab.SweepPlan;

/** How {@code lockstep lab} prints its results: a table for a person, or JSON for a script. */
final class LabOutput {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static final String ROW = "%-12s %9s %6s %5s %9s %8s %9s %10s %8s %9s %8s %8s";

    private LabOutput() {
    }

    /**
     * Prints a JSON array with one object per result. Keys: {@code strategy, confirmed, final_stock, lost_updates,
     * conflicts, retries, retries_exhausted, throughput_ops_s, p50_ms, p99_ms}, and also {@code workers,
     * initial_stock, ops, sold_out, lock_waits, lock_timeouts, elapsed_ms, race_ms, confirmed_per_s}. {@code
     * elapsed_ms} is what the strategy took as the user waited for it, setup included (resetting its row, opening
     * the buyers' connections); {@code race_ms} the race alone, over which the rates are measured. Times in ms and
     * rates rounded to 0.01.
     */
    static void printJson(PrintWriter out, List<StrategyResult> results) throws Exception {
        ArrayNode array = JSON.createArrayNode();
        for (StrategyResult r : results) {
            ObjectNode node = array.addObject();
            node.put("strategy", r.strategy().id());
            node.put("workers", r.workers());
            node.put("initial_stock", r.initialStock());
            node.put("ops", r.ops());
            node.put("confirmed", r.confirmed());
            node.put("sold_out", r.soldOut());
            node.put("final_stock", r.finalStock());
            node.put("lost_updates", r.lostUpdates());
            node.put("conflicts", r.conflicts());
            node.put("retries", r.retries());
            node.put("retries_exhausted", r.retriesExhausted());
            node.put("lock_waits", r.lockWaits());
            node.put("lock_timeouts", r.lockTimeouts());
            node.put("elapsed_ms", round(r.elapsedMs()));
            node.put("race_ms", round(r.raceMs()));
            node.put("throughput_ops_s", round(r.throughputOpsPerS()));
            node.put("confirmed_per_s", round(r.confirmedPerS()));
            node.put("p50_ms", round(r.p50Ms()));
            node.put("p99_ms", round(r.p99Ms()));
        }
        out.println(JSON.writerWithDefaultPrettyPrinter().writeValueAsString(array));
    }

    /**
     * Prints one run as a table, with a line on each strategy that lost updates or oversold, and the time the whole
     * run took.
     *
     * @param wallNanos what the user waited for, setup included
     */
    static void printTable(PrintWriter out, LabRun run, List<StrategyResult> results, long wallNanos) {
        out.printf(Locale.ROOT, "%d workers race for %d units, %d purchase attempt%s each, think %d ms%n%n",
                run.workers(), run.stock(), run.opsPerWorker(), run.opsPerWorker() == 1 ? "" : "s",
                run.thinkMinMs());
        out.println(String.format(Locale.ROOT, ROW, "STRATEGY", "CONFIRMED", "FINAL", "LOST", "CONFLICTS",
                "RETRIES", "EXHAUSTED", "LOCK WAITS", "TIMEOUTS", "OPS/S", "P50 MS", "P99 MS"));
        for (StrategyResult r : results) {
            out.println(String.format(Locale.ROOT, ROW, r.strategy().id(), r.confirmed(), r.finalStock(),
                    r.lostUpdates(), r.conflicts(), r.retries(), r.retriesExhausted(), r.lockWaits(),
                    r.lockTimeouts(), fixed(r.throughputOpsPerS(), 1), fixed(r.p50Ms(), 1), fixed(r.p99Ms(), 1)));
        }
        out.println();
        for (StrategyResult r : results) {
            if (r.lostUpdates() != 0) {
                out.printf(Locale.ROOT, "%s: %d purchases confirmed, but the stock fell by %d: %d lost update%s.%n",
                        r.strategy().id(), r.confirmed(), r.initialStock() - r.finalStock(), r.lostUpdates(),
                        r.lostUpdates() == 1 ? "" : "s");
            }
            if (r.oversold()) {
                out.printf(Locale.ROOT, "%s: oversold — %d confirmed from %d in stock.%n", r.strategy().id(),
                        r.confirmed(), r.initialStock());
            }
        }
        if (results.stream().allMatch(r -> r.lostUpdates() == 0 && !r.oversold())) {
            out.println("No lost updates, nothing oversold.");
        }
        printTook(out, results, wallNanos);
    }

    /** "Took 1.8 s, setup included; the races themselves 0.4 s." */
    private static void printTook(PrintWriter out, List<StrategyResult> results, long wallNanos) {
        double races = results.stream().mapToDouble(StrategyResult::raceMs).sum() / 1000;
        out.printf(Locale.ROOT, "Took %.1f s, setup included; the races themselves %.1f s.%n", wallNanos / 1e9, races);
    }

    /**
     * Prints a sweep: throughput and confirmed purchases per second by worker count and strategy, then retries and
     * give-ups (where optimistic retry storms show), p99 latency, lock timeouts and lost updates, and the time the whole
     * sweep took.
     *
     * @param wallNanos what the user waited for, setup included
     */
    static void printSweep(PrintWriter out, SweepPlan plan, List<StrategyResult> results, long wallNanos) {
        LabRun t = plan.template();
        out.printf(Locale.ROOT, "Contention sweep: think %d ms, %d purchase attempts per worker, stock = workers × %d"
                + ", up to %d attempts per purchase%n%n", t.thinkMinMs(), t.opsPerWorker(), t.opsPerWorker(),
                t.retry().maxAttempts());
        table(out, "Throughput, purchase attempts per second", plan, results,
                r -> fixed(r.throughputOpsPerS(), 1));
        table(out, "Confirmed purchases per second (purchases given up after the last retry do not count)", plan,
                results, r -> fixed(r.confirmedPerS(), 1));
        table(out, "Retries (purchases given up)", plan, results,
                r -> r.retries() + " (" + r.retriesExhausted() + ")");
        table(out, "p99 latency, ms", plan, results, r -> fixed(r.p99Ms(), 0));
        table(out, "Lock waits (lock timeouts)", plan, results, r -> r.lockWaits() + " (" + r.lockTimeouts() + ")");
        table(out, "Lost updates", plan, results, r -> Long.toString(r.lostUpdates()));
        printTook(out, results, wallNanos);
    }

    private static void table(PrintWriter out, String title, SweepPlan plan, List<StrategyResult> results,
            Function<StrategyResult, String> cell) {
        out.println(title);
        StringBuilder header = new StringBuilder(String.format(Locale.ROOT, "%7s", "WORKERS"));
        plan.strategies().forEach(s -> header.append(String.format(Locale.ROOT, " %13s", s.id())));
        out.println(header);
        for (int w : plan.workerCounts()) {
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%7d", w));
            for (Strategy s : plan.strategies()) {
                String value = results.stream().filter(r -> r.workers() == w && r.strategy() == s).findFirst()
                        .map(cell).orElse("-");
                line.append(String.format(Locale.ROOT, " %13s", value));
            }
            out.println(line);
        }
        out.println();
    }

    private static BigDecimal round(double value) {
        return BigDecimal.valueOf(value).setScale(2, RoundingMode.HALF_UP);
    }

    private static String fixed(double value, int decimals) {
        return String.format(Locale.ROOT, "%." + decimals + "f", value);
    }
}
