package org.lockstep.bench;

import java.time.Duration;
import java.util.concurrent.Callable;
import org.lockstep.cli.ExitCodes;
import org.lockstep.cli.GlobalOptions;
import org.lockstep.cli.GlobalOptionsMixin;
import org.lockstep.cli.Launcher;
import org.lockstep.config.LockstepConfig;
import org.lockstep.server.Database;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

/**
 * {@code lockstep-bench save|list|lease|live|operators|generate|startup}: the benchmarks of what operators feel — a versioned
 * save, the customer list on a large table, a lease, how soon another client sees a save, a team of operators, how long Lockstep takes to start — and
 * the synthetic customers they run on. It is a jar of its own ({@code target/lockstep-bench.jar}), so the product
 * carries none of it. Results go to stdout as tables ({@code --json} for a machine), progress to stderr. The global
 * options are {@code lockstep}'s ({@link GlobalOptionsMixin}). How to run them and what they measured on the project's
 * machine: {@code docs/benchmarks.md}.
 */
@Command(name = "lockstep-bench", mixinStandardHelpOptions = true, version = "Lockstep benchmarks 0.1",
        scope = ScopeType.INHERIT,
        description = "Measure versioned saves, the customer list, leases and live updates; generate customers.",
        subcommands = {SaveBenchCommand.class, ListBenchCommand.class, LeaseBenchCommand.class,
                LiveBenchCommand.class, OperatorsBenchCommand.class, GenerateCommand.class,
                StartupBenchCommand.class})
public final class BenchCommand implements Callable<Integer>, GlobalOptions {

    @Mixin
    GlobalOptionsMixin options;

    @Spec
    CommandSpec spec;

    /** Runs a benchmark with the given arguments and exits with its exit code. */
    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The configured command line, its failures mapped to {@link ExitCodes} as {@code lockstep}'s are. */
    public static CommandLine commandLine() {
        return Launcher.configure(new CommandLine(new BenchCommand()));
    }

    /** Without a subcommand: the usage, and exit {@link ExitCodes#INVALID}. */
    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return ExitCodes.INVALID;
    }

    @Override
    public LockstepConfig config() {
        return options.config();
    }

    @Override
    public Duration leaseTtlOr(Duration fallback) {
        return options.leaseTtlOr(fallback);
    }

    /** Opens the configured database for a benchmark. */
    Database open() {
        return Database.open(config(), "Lockstep bench", false);
    }

    /** The operator the benchmark writes as. */
    String user() {
        return config().user();
    }

    /** The aims from the issue, checked and printed with the results. */
    static String verdict(boolean met) {
        return met ? "met" : "NOT met";
    }
}
