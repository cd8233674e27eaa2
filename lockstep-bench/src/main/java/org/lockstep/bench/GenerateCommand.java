package org.lockstep.bench;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import org.lockstep.server.Database;
import org.lockstep.cli.ExitCodes;
import org.lockstep.synthetic.SyntheticCustomers;
import org.lockstep.bench.generate.SyntheticLoad;
import org.lockstep.domain.StoreUnavailableException;
import org.lockstep.store.CustomerBulkLoader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code lockstep-bench generate --rows N [--seed S]}: adds N realistic synthetic customers from many countries, for
 * trying the editor and the list at scale. Progress goes to stderr, the count added to stdout.
 */
@Command(name = "generate", description = "Add N realistic synthetic customers (Datafaker, many locales).")
public final class GenerateCommand implements Callable<Integer> {

    @ParentCommand
    BenchCommand launcher;

    @Spec
    CommandSpec spec;

    @Option(names = "--rows", required = true, paramLabel = "N", description = "How many customers to add.")
    long rows;

    @Option(names = "--seed", paramLabel = "S", defaultValue = "1",
            description = "Selects a reproducible set (default ${DEFAULT-VALUE}). Numbering continues after the "
                    + "rows of this seed already stored, so repeated runs add new customers.")
    long seed;

    @Override
    public Integer call() {
        if (rows < 1) {
            throw new ParameterException(spec.commandLine(), "--rows must be at least 1, was " + rows);
        }
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        // Synthetic rows are added to whatever is there; an empty database gets no sample first.
        Database db = Database.open(launcher.config(), "Lockstep generate", false);
        try {
            CustomerBulkLoader loader = new CustomerBulkLoader(db.jdbi(), launcher.config().user());
            SyntheticLoad.Result r = new SyntheticLoad(loader, err, producers()).run(seed, rows);
            refreshStatistics(loader, err);
            out.printf("Added %,d customers (%s … %s) in %.1f s, %,.0f rows/s%n", r.added(),
                    SyntheticCustomers.externalRef(seed, r.firstRow()),
                    SyntheticCustomers.externalRef(seed, r.firstRow() + r.added() - 1),
                    r.elapsed().toMillis() / 1000.0, r.rowsPerSecond());
            out.flush();
            return ExitCodes.OK;
        } finally {
            db.closeAndStopIfLast();
        }
    }

    /** Threads making rows: half the cores, since the database server needs the rest to write them. */
    static int producers() {
        return Math.max(1, Runtime.getRuntime().availableProcessors() / 2);
    }

    /** After a large load; a role that may not vacuum the table only loses the head start, not the rows. */
    static void refreshStatistics(CustomerBulkLoader loader, PrintWriter err) {
        err.println("Updating the planner's statistics…");
        err.flush();
        try {
            if (!loader.vacuumAnalyze()) {
                err.println("lockstep: statistics updated; the vacuum took too long and was stopped — autovacuum will"
                        + " finish it");
            }
        } catch (StoreUnavailableException e) {
            err.println("lockstep: could not update statistics (" + e.getMessage()
                    + "); autovacuum will catch up");
        }
    }
}
