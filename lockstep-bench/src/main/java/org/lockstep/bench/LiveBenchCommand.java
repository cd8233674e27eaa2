package org.lockstep.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.lockstep.server.Database;
import org.lockstep.cli.ExitCodes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code lockstep-bench live}: from one client's save to another client's model holding the new version. */
@Command(name = "live", description = "Client A saves N times; client B (its own pool and change feed) follows: "
        + "latency from A's commit to B's model holding each version, p50/p99/max.")
final class LiveBenchCommand implements Callable<Integer> {

    /** The aim for p99, in milliseconds. */
    static final double AIM_P99_MS = 50;

    @ParentCommand
    BenchCommand bench;

    @Spec
    CommandSpec spec;

    @Option(names = "--saves", paramLabel = "N", defaultValue = "1000",
            description = "Saves by client A (default ${DEFAULT-VALUE}).")
    int saves;

    @Option(names = "--warmup", paramLabel = "N", defaultValue = "100",
            description = "Unmeasured saves before them (default ${DEFAULT-VALUE}).")
    int warmup;

    @Option(names = "--pause-ms", paramLabel = "MS", defaultValue = "0",
            description = "Pause between A's saves, in ms (default ${DEFAULT-VALUE}: back to back).")
    long pauseMs;

    @Option(names = "--json", description = "Print the results as JSON.")
    boolean json;

    @Option(names = "--burst", paramLabel = "N", defaultValue = "0",
            description = "Instead: client A inserts N customers at once (one statement each, one transaction) while "
                    + "client B shows the list; time until B's list holds the new count, B's UI-thread stall, heap.")
    int burst;

    /** The burst aims (docs/benchmarks.md): caught up within 5 s, UI thread never busy over 100 ms, heap growth under 100 MB. */
    static final double AIM_BURST_CATCH_UP_MS = 5_000;
    static final double AIM_BURST_STALL_MS = 100;
    static final double AIM_BURST_HEAP_MB = 100;

    @Override
    public Integer call() throws Exception {
        if (saves < 1 || warmup < 0 || pauseMs < 0) {
            throw new ParameterException(spec.commandLine(),
                    "--saves must be at least 1, --warmup and --pause-ms not negative");
        }
        PrintWriter out = spec.commandLine().getOut();
        if (burst > 0) {
            return burst(out);
        }
        Database a = bench.open();
        LiveBenchmark.Result r;
        try {
            Database b = bench.open();
            try {
                r = new LiveBenchmark(a, b, bench.user(), spec.commandLine().getErr())
                        .run(saves, warmup, Duration.ofMillis(pauseMs));
            } finally {
                b.close();
            }
        } finally {
            a.closeAndStopIfLast();
        }
        double p99 = r.latencies().percentileMs(99);
        boolean met = r.missed() == 0 && p99 < AIM_P99_MS;
        if (json) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("benchmark", "live");
            m.put("saves", r.saves());
            m.put("warmup_saves", warmup);
            m.put("pause_ms", pauseMs);
            m.put("received", r.latencies().count());
            m.put("missed", r.missed());
            m.put("p50_ms", r.latencies().percentileMs(50));
            m.put("p99_ms", p99);
            m.put("max_ms", r.latencies().maxMs());
            m.put("aim_p99_ms", AIM_P99_MS);
            m.put("aim_met", met);
            out.println(new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(m));
        } else {
            out.printf("Live updates: client A saved one customer %,d times (%s, after %,d unmeasured) in %.1f s; "
                    + "client B, with its own pool and change feed, re-read it on each notification%n%n", r.saves(),
                    pauseMs == 0 ? "back to back" : pauseMs + " ms apart", warmup, r.seconds());
            Table t = new Table("versions held by B", "missed", "p50 ms", "p99 ms", "max ms");
            t.row(String.format("%,d", r.latencies().count()), r.missed(),
                    String.format("%.2f", r.latencies().percentileMs(50)), String.format("%.2f", p99),
                    String.format("%.2f", r.latencies().maxMs()));
            t.print(out);
            out.printf("%nAim: p99 from A's commit to B's model < %.0f ms, nothing missed: %s%n", AIM_P99_MS,
                    BenchCommand.verdict(met));
        }
        out.flush();
        return ExitCodes.OK;
    }

    private int burst(PrintWriter out) throws Exception {
        Database a = bench.open();
        BurstBenchmark.Result r;
        try {
            Database b = bench.open();
            try {
                r = new BurstBenchmark(a, b, bench.user(), spec.commandLine().getErr()).run(burst);
            } finally {
                b.close();
            }
        } finally {
            a.closeAndStopIfLast();
        }
        boolean met = r.catchUpMs() < AIM_BURST_CATCH_UP_MS && r.stallMs() < AIM_BURST_STALL_MS
                && r.heapMb() < AIM_BURST_HEAP_MB;
        if (json) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("benchmark", "live-burst");
            m.put("rows", r.rows());
            m.put("customers_before", r.before());
            m.put("insert_seconds", r.insertSeconds());
            m.put("catch_up_ms", r.catchUpMs());
            m.put("ui_stall_ms", r.stallMs());
            m.put("heap_growth_mb", r.heapMb());
            m.put("aim_met", met);
            out.println(new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(m));
        } else {
            out.printf("Burst: client A inserted %,d customers (one statement each, one transaction, %.1f s) beside "
                    + "%,d; client B showed the list with its own pool and change feed%n%n", r.rows(),
                    r.insertSeconds(), r.before());
            Table t = new Table("measure", "value", "aim");
            t.row("A's commit to B's list showing the new count", String.format("%,.0f ms", r.catchUpMs()),
                    "< 5,000 ms");
            t.row("longest wait of B's UI thread (probe every 5 ms)", String.format("%,.1f ms", r.stallMs()),
                    "< 100 ms");
            t.row("heap growth after GC (whole process)", String.format("%,.1f MB", r.heapMb()), "< 100 MB");
            t.print(out);
            out.printf("%nAims: %s%n", BenchCommand.verdict(met));
        }
        out.flush();
        return ExitCodes.OK;
    }
}
