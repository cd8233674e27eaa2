package org.lockstep.app.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.util.List;
import org.lockstep.domain.ChangeEvent;
import org.lockstep.domain.LeaseInfo;

/**
 * The lines {@code lockstep watch} prints on stdout, as text or one JSON object per line.
 * <ul>
 *   <li>a change: {@code customer 12 v8 UPDATE}, {@code record_lease 12 token 34 INSERT};
 *       JSON {@code {"table","id","version","op","session"}} (session {@code null} when unknown);</li>
 *   <li>after a reconnection, a resync line, {@code resync: …}; JSON {@code {"event":"resync"}}, followed by one
 *       change line per customer changed while disconnected (its current version and last op, session
 *       {@code null}) and one line per lease in force: {@code record_lease 12 token 34 HELD by Alice until
 *       2025-05-01T10:00:00Z}; JSON with {@code "op":"HELD"}, {@code holder} and {@code expires_at}. A lease not
 *       listed there is not held.</li>
 * </ul>
 */
final class WatchOutput {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final PrintWriter out;
    private final boolean json;

    WatchOutput(PrintWriter out, boolean json) {
        this.out = out;
        this.json = json;
    }

    /** Prints changes as heard. */
    void changes(List<ChangeEvent> events) {
        synchronized (out) {
            events.forEach(this::print);
            out.flush();
        }
    }

    /** Prints the resync line, then the customers changed while disconnected, then the leases in force. */
    void resynced(List<ChangeEvent> customers, List<LeaseInfo> leases) {
        synchronized (out) {
            out.println(json ? "{\"event\":\"resync\"}"
                    : "resync: reconnected; the customers changed while disconnected and the leases in force follow");
            customers.forEach(this::print);
            leases.forEach(this::print);
            out.flush();
        }
    }

    private void print(ChangeEvent e) {
        if (!json) {
            out.println(e.describe());
            return;
        }
        ObjectNode node = JSON.createObjectNode();
        node.put("table", e.table());
        node.put("id", e.id());
        node.put("version", e.version());
        node.put("op", e.op());
        e.sessionId().ifPresentOrElse(v -> node.put("session", v), () -> node.putNull("session"));
        out.println(node);
    }

    private void print(LeaseInfo lease) {
        if (!json) {
            out.println("record_lease " + lease.recordId() + " token " + lease.token() + " HELD by " + lease.holder()
                    + " until " + lease.expiresAt());
            return;
        }
        ObjectNode node = JSON.createObjectNode();
        node.put("table", "record_lease");
        node.put("id", lease.recordId());
        node.put("version", lease.token());
        node.put("op", "HELD");
        node.put("session", lease.sessionId());
        node.put("holder", lease.holder());
        node.put("expires_at", lease.expiresAt().toString());
        out.println(node);
    }
}
