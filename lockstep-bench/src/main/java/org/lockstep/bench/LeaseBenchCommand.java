package org.lockstep.bench;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.lockstep.server.Database;
import org.lockstep.cli.ExitCodes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code lockstep-bench lease}: lease acquire + release through Lockstep's store beside the raw statements. */
@Command(name = "lease", description = "Lease acquire + release per second through Lockstep's store beside the same "
        + "statements through raw JDBC, each client on its own customer.")
final class LeaseBenchCommand implements Callable<Integer> {

    @ParentCommand
    BenchCommand bench;

    @Spec
    CommandSpec spec;

    @Option(names = "--clients", split = ",", paramLabel = "N[,N...]", defaultValue = "1,8",
            description = "Concurrent clients, each locking its own customer (default ${DEFAULT-VALUE}).")
    List<Integer> clients;

    @Option(names = "--seconds", paramLabel = "S", defaultValue = "10",
            description = "Measured time per path and client count (default ${DEFAULT-VALUE}).")
    double seconds;

    @Option(names = "--warmup", paramLabel = "S", defaultValue = "2",
            description = "Unmeasured time per path before measuring (default ${DEFAULT-VALUE}).")
    double warmup;

    @Override
    public Integer call() {
        if (seconds <= 0 || warmup < 0 || clients.stream().anyMatch(c -> c < 1 || c > 64)) {
            throw new ParameterException(spec.commandLine(),
                    "--seconds must be positive, --warmup not negative, --clients 1 to 64 each");
        }
        PrintWriter out = spec.commandLine().getOut();
        List<LeaseBenchmark.Result> results;
        try (Database db = bench.open()) {
            results = new LeaseBenchmark(db, bench.user(), spec.commandLine().getErr()).run(clients, seconds, warmup);
        }
        Table table = new Table("clients", "path", "acquire+release/s", "p50 ms", "p99 ms", "Lockstep/raw");
        for (LeaseBenchmark.Result r : results) {
            table.row(Integer.toString(r.clients()), "Lockstep store", format(r.lockstep().opsPerSecond()),
                    ms(r.lockstep().latencies().percentileMs(50)), ms(r.lockstep().latencies().percentileMs(99)),
                    String.format(Locale.ROOT, "%.3f", r.ratio()));
            table.row(Integer.toString(r.clients()), "raw JDBC", format(r.raw().opsPerSecond()),
                    ms(r.raw().latencies().percentileMs(50)), ms(r.raw().latencies().percentileMs(99)), "");
        }
        table.print(out);
        out.flush();
        return ExitCodes.OK;
    }

    private static String format(double opsPerSecond) {
        return String.format(Locale.ROOT, "%,.0f", opsPerSecond);
    }

    private static String ms(double value) {
        return String.format(Locale.ROOT, "%.2f", value);
    }
}
