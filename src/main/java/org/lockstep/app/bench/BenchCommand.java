package org.lockstep.app.bench;

import org.lockstep.app.Database;
import org.lockstep.app.GlobalOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

/**
 * {@code lockstep bench save|list|lease|live|operators}: benchmarks of what operators feel — a versioned save, the customer
 * list on a large table, a lease, and how soon another client sees a save. Results go to stdout as tables
 * ({@code --json} for a machine), progress to stderr. How to run them and what they measured on the project's
 * machine: {@code docs/benchmarks.md}.
 */
@Command(name = "bench", description = "Measure versioned saves, the customer list, leases and live updates.",
        subcommands = {SaveBenchCommand.class, ListBenchCommand.class, LeaseBenchCommand.class,
                LiveBenchCommand.class, OperatorsBenchCommand.class})
public final class BenchCommand {

    @ParentCommand
    GlobalOptions launcher;

    /** Opens the configured database for a benchmark. */
    Database open() {
        return Database.open(launcher.config(), "Lockstep bench", false);
    }

    /** The operator the benchmark writes as. */
    String user() {
        return launcher.config().user();
    }

    /** The aims from the issue, checked and printed with the results. */
    static String verdict(boolean met) {
        return met ? "met" : "NOT met";
    }
}
