package org.lockstep.ui.live;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import org.lockstep.domain.Customer;

/**
 * The one path by which this process's own writes reach what shows customers (the main window's list): every editor
 * of a client — the main window's pane, each editor window, their merges and delete decisions — writes through one
 * {@link PublishingCustomerRepository}, which reports here what each write found. Other clients' writes arrive by the
 * change feed instead ({@link LiveUpdates}), which leaves this process's own to this path. Subscribers are called on
 * the FX thread, once per write, in the order the writes returned.
 */
public final class OwnWrites {

    /** What a write found, told on the FX thread. */
    public interface Listener {

        /** A record as the database now holds it: saved or created here, or theirs after a conflict. */
        void stored(Customer customer);

        /** A record that no longer exists: deleted here, or found gone by a write here. */
        void deleted(long id);
    }

    private final List<Listener> listeners = new CopyOnWriteArrayList<>();

    /**
     * Tells {@code listener} of every write from now on.
     *
     * @return what unsubscribes it
     */
    public Runnable subscribe(Listener listener) {
        listeners.add(Objects.requireNonNull(listener));
        return () -> listeners.remove(listener);
    }

    /** Whether anyone listens: a write nobody follows is not reported at all (no task for the FX thread). */
    boolean heard() {
        return !listeners.isEmpty();
    }

    void stored(Customer customer) {
        listeners.forEach(l -> l.stored(customer));
    }

    void deleted(long id) {
        listeners.forEach(l -> l.deleted(id));
    }
}
