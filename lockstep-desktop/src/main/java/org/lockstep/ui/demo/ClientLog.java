package org.lockstep.ui.demo;

import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import javafx.beans.value.ObservableValue;
import org.lockstep.domain.Customer;
import org.lockstep.domain.LeaseInfo;
import org.lockstep.editing.timeline.TimelineEvent;

/**
 * What one demo operator's client knows and the database does not record, for the timeline: which version its
 * editor loaded ("Bob loaded v3") and which of its saves the database refused for a stale fencing token. Times are the
 * client's clock, and the events say so ({@link TimelineEvent.Source#CLIENT}). Fed by the editor's base (FX thread)
 * and by {@link Freeze}'s witness (the client's background threads); read on the FX thread.
 */
final class ClientLog implements Freeze.Witness {

    private final String operator;
    private final Clock clock;
    private final List<TimelineEvent> events = new CopyOnWriteArrayList<>();
    // Versions this client wrote: its editor then holds them, but that is its own save, not a read.
    private final Set<String> written = ConcurrentHashMap.newKeySet();

    ClientLog(String operator, Clock clock) {
        this.operator = operator;
        this.clock = clock;
    }

    /** Follows an editor's base: each new version it holds that this client did not write is a read. */
    void follow(ObservableValue<Customer> base) {
        base.addListener((obs, was, now) -> {
            boolean moved = now != null && (was == null || was.id() != now.id() || was.version() != now.version());
            if (moved && !written.contains(key(now))) {
                events.add(TimelineEvent.loaded(clock.instant(), operator, now.id(), now.version()));
            }
        });
    }

    @Override
    public void wrote(Customer stored) {
        written.add(key(stored));
    }

    @Override
    public void refused(long id, long token, Optional<LeaseInfo> current) {
        events.add(TimelineEvent.refused(clock.instant(), operator, id, token,
                current.map(LeaseInfo::token).orElse(0L)));
    }

    /** Everything known so far, oldest first. */
    List<TimelineEvent> events() {
        return List.copyOf(events);
    }

    private static String key(Customer c) {
        return c.id() + "/" + c.version();
    }
}
