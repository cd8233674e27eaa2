package org.lockstep.lab;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;

/**
 * Lab results as CSV (RFC 4180, via Commons CSV), one row per strategy and run, with the same column names as
 * {@code lockstep lab --json} plus {@code source}: {@code run} for a single run, {@code sweep} for a sweep point.
 * Times in milliseconds and rates rounded to 0.01.
 */
public final class LabCsv {

    /** The columns, in order. */
    public static final List<String> HEADER = List.of("source", "strategy", "workers", "initial_stock", "ops",
            "confirmed", "sold_out", "final_stock", "lost_updates", "conflicts", "retries", "retries_exhausted",
            "lock_waits", "lock_timeouts", "elapsed_ms", "race_ms", "throughput_ops_s", "confirmed_per_s", "p50_ms",
            "p99_ms");

    private LabCsv() {
    }

    /**
     * Writes the header, then the rows of {@code run} (source {@code run}) and of {@code sweep} (source
     * {@code sweep}).
     *
     * @throws IOException when {@code out} cannot be written
     */
    public static void write(Appendable out, List<StrategyResult> run, List<StrategyResult> sweep)
            throws IOException {
        // The header as the first record: CSVFormat's setHeader overloads name java.sql types, which the core's
        // compiler does not see (lockstep-core/pom.xml).
        try (CSVPrinter printer = new CSVPrinter(out, CSVFormat.RFC4180)) {
            printer.printRecord(HEADER);
            for (StrategyResult r : run) {
                printer.printRecord(row("run", r));
            }
            for (StrategyResult r : sweep) {
                printer.printRecord(row("sweep", r));
            }
        }
    }

    private static List<Object> row(String source, StrategyResult r) {
        return List.of(source, r.strategy().id(), r.workers(), r.initialStock(), r.ops(), r.confirmed(), r.soldOut(),
                r.finalStock(), r.lostUpdates(), r.conflicts(), r.retries(), r.retriesExhausted(), r.lockWaits(),
                r.lockTimeouts(), round(r.elapsedMs()), round(r.raceMs()), round(r.throughputOpsPerS()),
                round(r.confirmedPerS()), round(r.p50Ms()),
                round(r.p99Ms()));
    }

    private static BigDecimal round(double value) {
        return BigDecimal.valueOf(value).setScale(2, RoundingMode.HALF_UP);
    }
}
