package org.lockstep.store;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.config.JdbiConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends the change notifications of Lockstep's own committed saves from a thread of its own, so that a save returns
 * the moment it has committed (issue 13). One per {@link Jdbi} ({@link #of}); whatever is queued when its thread gets
 * to it goes out in ONE autocommit statement, one {@code pg_notify} per change in the order queued, in a transaction
 * that writes nothing and need not wait for the disk ({@code synchronous_commit = off} for it alone; PostgreSQL docs,
 * 30.4 "Asynchronous Commit"). The payload is the notify trigger's (V4__notify.sql): identifiers only.
 *
 * <p>Why not in the save's own round trips: the announcement is a transaction of its own (see {@link Announcements}
 * for why a save does not notify inside its transaction), and sent by the saving thread it was a second round trip on
 * every save, about a fifth of a one-client save on a quiet machine (docs/benchmarks.md). Batching also means fewer
 * notifying transactions when many saves commit at once: each takes the server's notification queue lock.
 *
 * <p>Best effort, as before: an announcement that cannot be sent (the server is gone) is logged and dropped, and a
 * client that dies with announcements queued leaves others unaware of those changes until they read the rows again
 * or resync — never a lost update (a save that meets such a change is a conflict). {@link #flush} lets a process that
 * is about to exit (the CLI after {@code set}) send what it queued first; {@code Database.close()} calls it.
 *
 * <p>Statements are at least {@link #SPACING_MS} ms apart: a burst of saves is announced in a few statements, a lone
 * save at once. The thread ends after {@link #IDLE_S} s without work and is started again by the next announcement,
 * so a {@link Jdbi} that is no longer used holds no thread. Its lifetime is the {@link Jdbi}'s, and so its pool's:
 * {@link #close(Jdbi, Duration)} (which {@code Database.close()} calls before closing the pool) sends what is queued,
 * then shuts the thread down and awaits its end, so that a closed database leaves no thread behind, not even for the
 * idle seconds (issue 27); announcements made after that are dropped, as the pool they would go through is closed.
 */
public final class Announcer {

    private static final Logger LOG = LoggerFactory.getLogger(Announcer.class);

    /** Changes sent in one statement at most. */
    static final int BATCH = 1_000;

    /**
     * Announcements queued at most; beyond that new ones are dropped (and logged): a server that cannot keep up with
     * notifications would otherwise make the client's memory grow without bound.
     */
    static final int MAX_QUEUED = 100_000;

    /** Seconds the sending thread waits for more work before it ends. */
    static final long IDLE_S = 5;

    /**
     * The least time between two announcing statements, in ms. The first change after a quiet spell goes out at once;
     * while saves follow each other faster than this, each statement carries all that came in the meantime, so a
     * client saving a thousand times a second sends 200 statements, not a thousand, and a change waits 5 ms at most.
     */
    static final long SPACING_MS = 5;

    private static final String SEND = "SELECT set_config('synchronous_commit', 'off', true), count(pg_notify('"
            + PgChangeFeed.CHANNEL + "', json_build_object('table', 'customer', 'id', a.id, 'version', a.version, "
            + "'op', a.op, 'session', a.session)::text)) FROM unnest(CAST(:ids AS bigint[]), "
            + "CAST(:versions AS bigint[]), CAST(:ops AS text[]), CAST(:sessions AS text[]))"
            + " AS a(id, version, op, session)";

    private record Change(long seq, long id, long version, String op, String session) {
    }

    private final Jdbi jdbi;
    /**
     * The changes not yet taken by the sending thread, in the order of their sequence numbers: a number is drawn and
     * its change queued in one step, under this lock, so that the settled mark only ever moves forward.
     */
    private final ArrayDeque<Change> queue = new ArrayDeque<>();
    private final AtomicBoolean draining = new AtomicBoolean();
    private final AtomicLong enqueued = new AtomicLong();
    /** The sequence number of the last change sent or given up; {@link #flush} waits for it. */
    private final AtomicLong settled = new AtomicLong();
    private final Object settledMonitor = new Object();
    private final ThreadPoolExecutor sender;
    /** When the last statement was sent ({@link System#nanoTime}); touched by the sending thread only. */
    private long lastSent = System.nanoTime() - TimeUnit.MILLISECONDS.toNanos(SPACING_MS);

    private Announcer(Jdbi jdbi) {
        this.jdbi = jdbi;
        this.sender = new ThreadPoolExecutor(1, 1, IDLE_S, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
            Thread t = new Thread(r, "lockstep-announcer");
            t.setDaemon(true);
            return t;
        });
        sender.allowCoreThreadTimeOut(true);
    }

    /** The announcer of {@code jdbi}, made on first use; every handle and repository of that Jdbi shares it. */
    public static Announcer of(Jdbi jdbi) {
        return jdbi.getConfig(Holder.class).get(jdbi);
    }

    /**
     * Sends what the announcer of {@code jdbi} has queued, waiting at most {@code timeout}: for a process about to
     * close its pool or exit. Does nothing when that Jdbi never announced anything.
     *
     * @return whether everything queued was sent (or given up as unsendable) in time
     */
    public static boolean flush(Jdbi jdbi, Duration timeout) {
        Announcer a = jdbi.getConfig(Holder.class).announcer.get();
        return a == null || a.flush(timeout);
    }

    /**
     * Sends what the announcer of {@code jdbi} has queued, then ends its sending thread and waits for it to have
     * ended, all within {@code timeout}: for the owner of the Jdbi's pool, just before it closes the pool. A thread
     * still sending when the time is up is interrupted. Later announcements are dropped. Does nothing when that Jdbi
     * never announced anything.
     *
     * @return whether everything queued was sent (or given up as unsendable) and the thread had ended in time
     */
    public static boolean close(Jdbi jdbi, Duration timeout) {
        Announcer a = jdbi.getConfig(Holder.class).announcer.get();
        return a == null || a.close(timeout);
    }

    private boolean close(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        boolean sent = flush(timeout);
        sender.shutdown();
        try {
            if (sender.awaitTermination(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                return sent;
            }
            sender.shutdownNow();
            sender.awaitTermination(1, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            sender.shutdownNow();
            Thread.currentThread().interrupt();
        }
        return false;
    }

    /**
     * Queues the announcement of a committed change of one customer and returns at once.
     *
     * @param op {@code INSERT}, {@code UPDATE} or {@code DELETE}
     */
    public void announce(long id, long version, String op, String session) {
        synchronized (queue) {
            if (queue.size() >= MAX_QUEUED) {
                LOG.warn("{} announcements are waiting to be sent; the change of customer {} (version {}) is not "
                        + "announced", MAX_QUEUED, id, version);
                return;
            }
            queue.add(new Change(enqueued.incrementAndGet(), id, version, op, session));
        }
        if (draining.compareAndSet(false, true)) {
            try {
                sender.execute(this::drain);
            } catch (RejectedExecutionException e) {
                // closed with its database: nothing can be sent through a closed pool
                draining.set(false);
                dropQueued();
            }
        }
    }

    /** Gives up what is queued, after {@link #close}: logged, and settled so that no flush waits for it. */
    private void dropQueued() {
        List<Change> dropped;
        synchronized (queue) {
            dropped = new ArrayList<>(queue);
            queue.clear();
        }
        if (!dropped.isEmpty()) {
            LOG.info("The database is closed: {} saved change(s) not announced to other clients (customer {} first)",
                    dropped.size(), dropped.get(0).id());
            settle(dropped.get(dropped.size() - 1).seq());
        }
    }

    /**
     * Waits until every announcement queued before this call has been sent, or given up as unsendable.
     *
     * @param timeout how long to wait at most
     * @return whether they all were settled in time
     */
    boolean flush(Duration timeout) {
        long target = enqueued.get();
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (settledMonitor) {
            while (settled.get() < target) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                try {
                    TimeUnit.NANOSECONDS.timedWait(settledMonitor, left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
        }
        return true;
    }

    private void drain() {
        while (true) {
            long wait = lastSent + TimeUnit.MILLISECONDS.toNanos(SPACING_MS) - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait); // the changes meanwhile join this statement
            }
            List<Change> batch = new ArrayList<>();
            synchronized (queue) {
                for (Change c; batch.size() < BATCH && (c = queue.poll()) != null;) {
                    batch.add(c);
                }
            }
            if (batch.isEmpty()) {
                draining.set(false);
                // An announcement queued after the poll above but before the flag was cleared found the flag still
                // set and did not start a drain: take it here.
                boolean more;
                synchronized (queue) {
                    more = !queue.isEmpty();
                }
                if (!more || !draining.compareAndSet(false, true)) {
                    return;
                }
                continue;
            }
            lastSent = System.nanoTime();
            send(batch);
            settle(batch.get(batch.size() - 1).seq());
        }
    }

    private void send(List<Change> batch) {
        long[] ids = new long[batch.size()];
        long[] versions = new long[batch.size()];
        String[] ops = new String[batch.size()];
        String[] sessions = new String[batch.size()];
        for (int i = 0; i < ids.length; i++) {
            Change c = batch.get(i);
            ids[i] = c.id();
            versions[i] = c.version();
            ops[i] = c.op();
            sessions[i] = c.session();
        }
        try {
            jdbi.useHandle(h -> h.createQuery(SEND).bind("ids", ids).bind("versions", versions).bind("ops", ops)
                    .bind("sessions", sessions).mapToMap().one());
        } catch (RuntimeException e) {
            LOG.info("Could not announce {} saved change(s) to other clients (customer {} first): {}", batch.size(),
                    batch.get(0).id(), e.getMessage());
        }
    }

    private void settle(long seq) {
        synchronized (settledMonitor) {
            settled.set(seq);
            settledMonitor.notifyAll();
        }
    }

    /**
     * Where a {@link Jdbi} keeps its announcer: in its configuration, so that it lives and dies with that Jdbi.
     * Copies (each handle's configuration) share the original's announcer.
     */
    public static final class Holder implements JdbiConfig<Holder> {

        private final AtomicReference<Announcer> announcer;

        /** An empty holder; the announcer is made on first use. */
        public Holder() {
            this(new AtomicReference<>());
        }

        private Holder(AtomicReference<Announcer> announcer) {
            this.announcer = announcer;
        }

        Announcer get(Jdbi jdbi) {
            Announcer a = announcer.get();
            if (a == null) {
                announcer.compareAndSet(null, new Announcer(jdbi));
                a = announcer.get();
            }
            return a;
        }

        @Override
        public Holder createCopy() {
            return new Holder(announcer);
        }
    }
}
