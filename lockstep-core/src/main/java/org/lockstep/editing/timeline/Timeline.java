package org.lockstep.editing.timeline;

import java.time.Instant;
import java.util.List;

/**
 * A record's story as a sequence diagram: one lane per operator plus {@link #DATABASE}, and the events in the order
 * they happened (time runs down the page). Built by {@link Timelines} from what the database recorded and what a
 * client adds of its own knowledge.
 *
 * @param title  e.g. "Customer 12 — Harbour Lights Trading"
 * @param lanes  left to right, {@link #DATABASE} among them
 * @param events oldest first
 * @param cut    whether older rows were left out (each table is read up to its latest 400 rows)
 */
public record Timeline(String title, List<String> lanes, List<TimelineEvent> events, boolean cut) {

    /** The database's lane. */
    public static final String DATABASE = "Database";

    /** Copies the lists. */
    public Timeline {
        lanes = List.copyOf(lanes);
        events = List.copyOf(events);
    }

    /** The events of one kind, oldest first. */
    public List<TimelineEvent> of(TimelineEvent.Kind kind) {
        return events.stream().filter(e -> e.kind() == kind).toList();
    }

    /** Every event's label, oldest first. */
    public List<String> labels() {
        return events.stream().map(TimelineEvent::label).toList();
    }

    /** The index of the first event at or after {@code from}; {@code events().size()} when there is none. */
    public int firstAtOrAfter(Instant from) {
        for (int i = 0; i < events.size(); i++) {
            if (!events.get(i).at().isBefore(from)) {
                return i;
            }
        }
        return events.size();
    }
}
