package org.lockstep.bench;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.concurrent.Callable;
import org.lockstep.server.Database;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code lockstep-bench operators}: a team of operators on one server (ADR 0013). */
@Command(name = "operators", description = "N full clients in one process (each its own pool, change feed and "
        + "presence heartbeats) working at an operator's pace: open a customer, think, edit, save; sometimes the same "
        + "customer as another (conflicts, merges), sometimes in lock mode. Reports the server connections used, save "
        + "p50/p99, from a save to another client hearing it p99, conflicts, errors and CPU.")
final class OperatorsBenchCommand implements Callable<Integer> {

    /** The aims: server connections per operator, save p99 and live p99 (ms). */
    static final double AIM_CONNECTIONS_PER_OPERATOR = 1.2;
    static final double AIM_SAVE_P99_MS = 50;
    static final double AIM_LIVE_P99_MS = 100;

    @ParentCommand
    BenchCommand bench;

    @Spec
    CommandSpec spec;

    @Option(names = "--clients", paramLabel = "N", defaultValue = "10",
            description = "Operators, each a full client (default ${DEFAULT-VALUE}).")
    int clients;

    @Option(names = "--minutes", paramLabel = "M", defaultValue = "1",
            description = "How long they work, in minutes; fractions allowed (default ${DEFAULT-VALUE}).")
    double minutes;

    @Option(names = "--think-ms", paramLabel = "MS", defaultValue = "2000",
            description = "Shortest pause between opening a customer and saving it, ms; the longest is three times "
                    + "it (default ${DEFAULT-VALUE}).")
    long thinkMs;

    @Option(names = "--via-pgbouncer", description = "The --db-url is a transaction-pooling PgBouncer: requires "
            + "--listen-url (the server itself), which live updates and the connection count use.")
    boolean viaPgBouncer;

    @Override
    public Integer call() throws Exception {
        if (clients < 1 || minutes <= 0 || thinkMs < 1) {
            throw new ParameterException(spec.commandLine(),
                    "--clients must be at least 1, --minutes and --think-ms positive");
        }
        Database setup = bench.open();
        try {
            if (viaPgBouncer && !setup.urls().throughPooler()) {
                throw new ParameterException(spec.commandLine(), "--via-pgbouncer: give --listen-url, the URL of "
                        + "the PostgreSQL server behind the PgBouncer of --db-url");
            }
            OperatorsBench.Result r = new OperatorsBench(setup, spec.commandLine().getErr())
                    .run(clients, Duration.ofMillis(Math.round(minutes * 60_000)), Duration.ofMillis(thinkMs),
                            Duration.ofMillis(3 * thinkMs));
            print(spec.commandLine().getOut(), r, setup.urls().throughPooler());
            return r.errors() == 0 ? 0 : 1;
        } finally {
            setup.closeAndStopIfLast();
        }
    }

    static void print(PrintWriter out, OperatorsBench.Result r, boolean pooled) {
        double perOperator = (double) r.peakConnections() / r.clients();
        double saveP99 = r.saveLatencies().percentileMs(99);
        double liveP99 = r.liveLatencies().percentileMs(99);
        out.printf("bench operators: %d clients for %.0f s%s%n", r.clients(), r.seconds(),
                pooled ? ", pool through PgBouncer" : "");
        out.printf("server connections: peak %d, at end %d (%.2f per operator; aim <= %.1f: %s)%n",
                r.peakConnections(), r.endConnections(), perOperator, AIM_CONNECTIONS_PER_OPERATOR,
                BenchCommand.verdict(perOperator <= AIM_CONNECTIONS_PER_OPERATOR));
        out.printf("saves: %d, p50 %.1f ms, p99 %.1f ms (aim < %.0f: %s)%n", r.saves(),
                r.saveLatencies().percentileMs(50), saveP99, AIM_SAVE_P99_MS,
                BenchCommand.verdict(saveP99 < AIM_SAVE_P99_MS));
        out.printf("live: %d heard by other clients, p50 %.1f ms, p99 %.1f ms from the save's start "
                + "(aim < %.0f: %s)%n", r.liveLatencies().count(), r.liveLatencies().percentileMs(50), liveP99,
                AIM_LIVE_P99_MS, BenchCommand.verdict(liveP99 < AIM_LIVE_P99_MS));
        out.printf("conflicts: %d (merged and saved: %d), refused by a lease: %d, leases taken: %d%n",
                r.conflicts(), r.merged(), r.lockedOut(), r.leases());
        out.printf("errors: %d%n", r.errors());
        out.printf("clients listening at the end: %d of %d%n", r.clientsLive(), r.clients());
        out.printf("CPU (this process): %.1f s of %.0f s, %.0f%% of one core%n", r.cpuSeconds(), r.seconds(),
                100 * r.cpuSeconds() / r.seconds());
    }
}
