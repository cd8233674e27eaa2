package org.lockstep.ui.editor;

import java.util.ArrayList;
import java.util.List;
import org.lockstep.domain.Customer;

/**
 * What the parts of an editor told each other through its {@link EditorSession}, in the order heard, one line per
 * event: "saved 3 v2", "reset 3 v2" ("reset none" for a blank editor), "deleted 3 shown", "deleted 3 elsewhere",
 * "recreated 4 v1", "conflict 3".
 */
final class SessionEvents implements EditorSession.Events {

    private final List<String> heard = new ArrayList<>();

    /** Subscribes a new recorder to {@code session}. */
    static SessionEvents of(EditorSession session) {
        SessionEvents events = new SessionEvents();
        session.subscribe(events);
        return events;
    }

    /** Every event heard so far, oldest first. */
    List<String> heard() {
        return List.copyOf(heard);
    }

    /** Forgets what was heard so far (what the set-up did). */
    void forget() {
        heard.clear();
    }

    @Override
    public void saved(Customer stored) {
        heard.add("saved " + stored.id() + " v" + stored.version());
    }

    @Override
    public void reset(Customer record) {
        heard.add(record == null ? "reset none" : "reset " + record.id() + " v" + record.version());
    }

    @Override
    public void deleted(long customerId, boolean shown) {
        heard.add("deleted " + customerId + (shown ? " shown" : " elsewhere"));
    }

    @Override
    public void recreated(Customer created) {
        heard.add("recreated " + created.id() + " v" + created.version());
    }

    @Override
    public void conflictCounted(long customerId) {
        heard.add("conflict " + customerId);
    }
}
