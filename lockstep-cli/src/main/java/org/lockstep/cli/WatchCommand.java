package org.lockstep.cli;

import java.io.PrintWriter;
import java.time.ZoneId;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Callable;
import org.lockstep.domain.ChangeEvent;
import org.lockstep.domain.ChangeFeed;
import org.lockstep.store.ChangeDetails;
import org.lockstep.store.JdbiLeaseRepository;
import org.lockstep.store.MissedChanges;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code lockstep watch [--json]}: prints one line per committed change to customers and leases, by any writer, as
 * it happens, reconnecting like the desktop app does, until interrupted (Ctrl+C).
 *
 * <p>After a lost connection it prints a resync event, then the current version of every customer changed while it
 * was away (read from the customer history, deletions included; a change printed just before the loss may be
 * printed again), then every lease in force: whoever reads the output learns what the lost notifications would have
 * told, so no change goes unseen. See {@link WatchOutput} for the lines.
 */
@Command(name = "watch", description = "Print every change to customers and leases as it happens, until interrupted. "
        + "After a lost connection: a resync line, the customers changed meanwhile, and the leases in force.")
public final class WatchCommand implements Callable<Integer> {

    @ParentCommand
    Launcher launcher;
    @Spec
    CommandSpec spec;

    @Option(names = "--json", description = "One JSON object per line: table, id, version, op, session, and user, "
            + "at, fields when the database still records the change; {\"event\":\"resync\"} after a "
            + "reconnection.")
    boolean json;

    @Override
    public Integer call() {
        return CommandSupport.run(launcher, spec, false, s -> {
            ChangeDetails details = new ChangeDetails(s.db().jdbi());
            WatchOutput output = new WatchOutput(s.out(), json, details::of, ZoneId.systemDefault());
            PrintWriter err = s.err();
            GapReader gap = new GapReader(new MissedChanges(s.db().jdbi()),
                    s.leases(),
                    details::skipToTrailEnd, output, err);
            CountDownLatch interrupted = new CountDownLatch(1);
            try (ChangeFeed feed = s.db().changeFeed(new ChangeFeed.Listener() {
                @Override
                public void changes(List<ChangeEvent> events) {
                    output.changes(events);
                    gap.heard();
                }

                @Override
                public void status(ChangeFeed.Status status) {
                    err.println("lockstep: " + switch (status) {
                        case LIVE -> "live";
                        case RECONNECTING -> "connection lost; reconnecting…";
                        case CONNECTING -> "connecting…";
                        case CLOSED -> "closed";
                    });
                    err.flush();
                    if (status == ChangeFeed.Status.LIVE) {
                        gap.connected();
                    }
                }

                @Override
                public void resync() {
                    gap.resync();
                }

                @Override
                public void cannotConnect(String why) {
                    if (!why.isEmpty()) { // a full disk, a full server: said once, until it changes
                        err.println("lockstep: " + why);
                        err.flush();
                    }
                }
            })) {
                feed.start();
                try {
                    interrupted.await();
                } catch (InterruptedException e) {
                    // An interrupt is how an embedding caller asks watch to stop: a normal end, after which the
                    // feed and the pool close as usual (an interrupt left set would cut the pool's shutdown short).
                }
            }
            return ExitCodes.OK;
        });
    }
}
