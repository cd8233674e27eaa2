package org.lockstep.ui.live;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.lockstep.domain.Customer;

/**
 * The one path by which this process's own writes reach what shows customers (the main window's list): every editor
 * of a client — the main window's pane, each editor window, their merges and delete decisions — writes through one
 * {@link PublishingCustomerRepository}, which reports here what each write found. Other clients' writes arrive by the
 * change feed instead ({@link LiveUpdates}), which leaves this process's own to this path. Subscribers are called on
 * the FX thread, once per write, in the order the writes returned.
 *
 * <p>It also remembers which of this client's writers committed which version of a customer (and which deleted one),
 * recorded on the writing thread as the write returns (its announcement has yet to reach the server, come back through
 * the change feed and be followed by a read of the record before anyone asks). An editor asks it whether the version it reads from the database was written
 * in another of this client's windows: a change notification's {@code session} cannot tell, since any writer may put
 * any session id there ({@code lockstep.session}, or a {@code pg_notify} of its own; ADR 0018, "Notifications are
 * hints"). Only the newest {@value #REMEMBERED} writes are remembered; an older one is simply not known as this
 * client's.
 */
public final class OwnWrites {

    /** How many committed writes (versions and deletes) are remembered for {@link #writerOf}. */
    static final int REMEMBERED = 10_000;
    private static final long DELETED = -1;

    /** What a write found, told on the FX thread. */
    public interface Listener {

        /** A record as the database now holds it: saved or created here, or theirs after a conflict. */
        void stored(Customer customer);

        /** A record that no longer exists: deleted here, or found gone by a write here. */
        void deleted(long id);
    }

    private final List<Listener> listeners = new CopyOnWriteArrayList<>();
    /** (customer id, version) → writer id; a delete is kept under version {@link #DELETED}. Guarded by itself. */
    private final Map<List<Long>, String> writers = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<List<Long>, String> eldest) {
            return size() > REMEMBERED;
        }
    };

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

    /**
     * The writer id of this client that committed {@code version} of customer {@code id}, if one of its writers did
     * (and it is still remembered). Any thread.
     */
    public Optional<String> writerOf(long id, long version) {
        synchronized (writers) {
            return Optional.ofNullable(writers.get(List.of(id, version)));
        }
    }

    /** The writer id of this client that deleted customer {@code id}, if one of its writers did. Any thread. */
    public Optional<String> deleterOf(long id) {
        return writerOf(id, DELETED);
    }

    /** On the writing thread, as the write returns: {@code writerId} committed this version. */
    void committed(Customer customer, String writerId) {
        synchronized (writers) {
            writers.put(List.of(customer.id(), customer.version()), writerId);
        }
    }

    /** On the writing thread, as the delete returns: {@code writerId} deleted customer {@code id}. */
    void deletedBy(long id, String writerId) {
        synchronized (writers) {
            writers.put(List.of(id, DELETED), writerId);
        }
    }

    void stored(Customer customer) {
        listeners.forEach(l -> l.stored(customer));
    }

    void deleted(long id) {
        listeners.forEach(l -> l.deleted(id));
    }
}
