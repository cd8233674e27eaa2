package org.lockstep.app.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Callable;
import org.lockstep.app.Launcher;
import org.lockstep.domain.ChangeEvent;
import org.lockstep.domain.ChangeFeed;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code lockstep watch [--json]}: prints one line per committed change to customers and leases, by any writer, as
 * it happens, reconnecting like the desktop app does, until interrupted (Ctrl+C).
 */
@Command(name = "watch", description = "Print every change to customers and leases as it happens, until interrupted.")
public final class WatchCommand implements Callable<Integer> {

    private static final ObjectMapper JSON = new ObjectMapper();

    @ParentCommand
    Launcher launcher;
    @Spec
    CommandSpec spec;

    @Option(names = "--json", description = "One JSON object per line: table, id, version, op, session.")
    boolean json;

    @Override
    public Integer call() {
        return CommandSupport.run(launcher, spec, false, s -> {
            PrintWriter out = s.out();
            PrintWriter err = s.err();
            CountDownLatch interrupted = new CountDownLatch(1);
            try (ChangeFeed feed = s.db().changeFeed(new ChangeFeed.Listener() {
                @Override
                public void changes(List<ChangeEvent> events) {
                    synchronized (out) {
                        events.forEach(e -> out.println(json ? json(e) : e.describe()));
                        out.flush();
                    }
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
                }

                @Override
                public void resync() {
                    err.println("lockstep: changes made while disconnected were not seen");
                    err.flush();
                }
            })) {
                feed.start();
                try {
                    interrupted.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return Launcher.OK;
        });
    }

    private static String json(ChangeEvent e) {
        ObjectNode node = JSON.createObjectNode();
        node.put("table", e.table());
        node.put("id", e.id());
        node.put("version", e.version());
        node.put("op", e.op());
        e.sessionId().ifPresentOrElse(v -> node.put("session", v), () -> node.putNull("session"));
        return node.toString();
    }
}
