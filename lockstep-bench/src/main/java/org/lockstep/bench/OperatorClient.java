package org.lockstep.bench;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.lockstep.server.Database;
import org.lockstep.domain.AcquireOutcome;
import org.lockstep.domain.ChangeEvent;
import org.lockstep.domain.ChangeFeed;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.Presence;
import org.lockstep.domain.SaveOutcome;
import org.lockstep.store.JdbiCustomerRepository;
import org.lockstep.store.JdbiLeaseRepository;
import org.lockstep.store.JdbiPresenceRepository;
import org.lockstep.ui.presence.PresenceBoard;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One simulated operator for {@code bench operators}: a full client as the desktop application wires one — its own
 * pool ({@link Database#anotherClient}), client session, repositories, change feed and presence heartbeat every
 * {@link PresenceBoard#HEARTBEAT} (re-reading everyone's presence, as the board does) — driven by an operator's pace:
 * open a customer, think, edit a field, save, close it (leaving its presence); on a conflict, take theirs and apply
 * the edit again (a merge); now and then lock the customer for editing first. {@link #work} runs on one thread at a
 * time, the feed on its own.
 */
final class OperatorClient implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(OperatorClient.class);

    /** What the operators did, counted per client and summed by {@link OperatorsBench}. */
    static final class Counts {
        long saves;
        long conflicts;
        long merged;
        long lockedOut;
        long leases;
        long errors;
    }

    private final Database db;
    private final String session;
    private final JdbiCustomerRepository customers;
    private final JdbiLeaseRepository leases;
    private final JdbiPresenceRepository presence;
    private final ChangeFeed feed;
    private final ScheduledFuture<?> heartbeat;
    private final Map<Long, Long> savesStarted;
    private final Latencies saveLatencies = new Latencies();
    private final Latencies liveLatencies = new Latencies();
    private final Counts counts = new Counts();
    private volatile Long open;
    private boolean closed;

    /**
     * @param savesStarted when each save of any client started ({@link System#nanoTime()}), keyed by customer id and
     *                     the version it makes; shared by all clients, so that a client hearing a change knows how long
     *                     it took from the save's start
     */
    OperatorClient(Database db, String operator, ScheduledExecutorService timers, Map<Long, Long> savesStarted) {
        this.db = db;
        this.session = operator + "-" + UUID.randomUUID();
        this.savesStarted = savesStarted;
        this.customers = new JdbiCustomerRepository(db.jdbi(), operator, session);
        this.leases = new JdbiLeaseRepository(db.jdbi(), operator, session);
        this.presence = new JdbiPresenceRepository(db.jdbi(), operator, session, JdbiPresenceRepository.DEFAULT_TTL);
        this.feed = db.changeFeed(this::heard);
        feed.start();
        long beat = PresenceBoard.HEARTBEAT.toMillis();
        this.heartbeat = timers.scheduleAtFixedRate(this::beat, new SplittableRandom().nextLong(beat), beat,
                TimeUnit.MILLISECONDS);
    }

    /** Whether the change feed listens. */
    boolean live() {
        return feed.status() == ChangeFeed.Status.LIVE;
    }

    private void heard(List<ChangeEvent> events) {
        long now = System.nanoTime();
        for (ChangeEvent e : events) {
            if (e.table().equals("customer") && !e.sessionId().equals(Optional.of(session))) {
                Long started = savesStarted.get(key(e.id(), e.version()));
                if (started != null) {
                    liveLatencies.recordNanos(now - started);
                }
            }
        }
    }

    private void beat() {
        try {
            Long id = open;
            presence.heartbeat(id == null ? Map.of() : Map.of(id, Presence.State.EDITING));
            presence.present();
        } catch (RuntimeException e) {
            synchronized (counts) {
                counts.errors++;
            }
            LOG.warn("Presence heartbeat failed: {}", e.getMessage());
        }
    }

    /**
     * One round of an operator's work on customer {@code id}: open it, think for {@code thinkNanos}, edit, save (in
     * lock mode when {@code lock}), merge on a conflict.
     */
    void work(long id, long thinkNanos, boolean lock, SplittableRandom random) {
        try {
            Optional<Customer> found = customers.find(id);
            if (found.isEmpty()) {
                return;
            }
            open = id;
            Optional<Long> token = Optional.empty();
            if (lock) {
                AcquireOutcome out = leases.acquire(id, 60_000);
                if (out instanceof AcquireOutcome.Granted g) {
                    token = Optional.of(g.lease().token());
                    count(c -> c.leases++);
                } else {
                    count(c -> c.lockedOut++);
                    return;
                }
            }
            LockSupport.parkNanos(thinkNanos);
            Customer base = found.get();
            String edit = "Edit " + Long.toHexString(random.nextLong() & 0xffffff);
            for (int attempt = 0; attempt < 3; attempt++) {
                SaveOutcome out = save(base, base.data().with(CustomerField.NOTES, edit), token);
                if (out instanceof SaveOutcome.Conflict conflict && conflict.theirs().isPresent()) {
                    count(c -> c.conflicts++);
                    base = conflict.theirs().get(); // theirs, with my edit applied again: a one-field merge
                    continue;
                }
                if (out instanceof SaveOutcome.Saved) {
                    if (attempt > 0) {
                        count(c -> c.merged++);
                    }
                } else if (out instanceof SaveOutcome.Locked) {
                    count(c -> c.lockedOut++);
                }
                break;
            }
            token.ifPresent(t -> leases.release(id, t));
        } catch (RuntimeException e) {
            count(c -> c.errors++);
            LOG.warn("Operator round failed: {}", e.getMessage());
        } finally {
            if (open != null) {
                open = null;
                leave(id); // the editor closing: its presence goes at once, not when it expires
            }
        }
    }

    private void leave(long id) {
        try {
            presence.leave(id);
        } catch (RuntimeException e) {
            count(c -> c.errors++);
            LOG.warn("Leaving presence failed: {}", e.getMessage());
        }
    }

    private SaveOutcome save(Customer base, org.lockstep.domain.CustomerData mine, Optional<Long> token) {
        long key = key(base.id(), base.version() + 1);
        long started = System.nanoTime();
        savesStarted.put(key, started);
        SaveOutcome out = token.isPresent()
                ? customers.saveUnderLease(base.id(), base.version(), mine, token.get())
                : customers.save(base.id(), base.version(), mine);
        if (out instanceof SaveOutcome.Saved) {
            saveLatencies.recordNanos(System.nanoTime() - started);
            count(c -> c.saves++);
        } else {
            savesStarted.remove(key, started);
        }
        return out;
    }

    private void count(java.util.function.Consumer<Counts> change) {
        synchronized (counts) {
            change.accept(counts);
        }
    }

    /** A key for a customer's version, for the shared map of save start times. */
    static long key(long id, long version) {
        return id * 1_000_000L + version;
    }

    Latencies saveLatencies() {
        return saveLatencies;
    }

    Latencies liveLatencies() {
        return liveLatencies;
    }

    Counts counts() {
        return counts;
    }

    /** Stops the heartbeat and the feed, leaves presence and closes the pool; a second call does nothing. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        heartbeat.cancel(false);
        feed.close();
        try {
            presence.leaveAll();
        } catch (RuntimeException e) {
            LOG.info("Could not leave presence: {}", e.getMessage());
        }
        db.close();
    }

    /** Shared start times, safe for the saving and the listening threads. */
    static Map<Long, Long> newStartTimes() {
        return new ConcurrentHashMap<>();
    }
}
