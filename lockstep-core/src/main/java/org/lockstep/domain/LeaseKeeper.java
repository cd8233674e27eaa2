package org.lockstep.domain;

import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Keeps one editor's lease on one record: takes it, renews it every third of its TTL, and notices when it is lost
 * — a renewal refused (the lease lapsed and was taken, or was broken), or the local deadline passing without a
 * confirmed renewal (network down, laptop asleep, a long GC pause).
 *
 * <p>The database decides who holds a lease, by its own clock. The client's clock serves only to measure elapsed
 * time: the local deadline is "when I sent the last confirmed renewal, plus the time the database said it had
 * left" — never a comparison of the client's clock with the database's {@code expires_at}. So a client whose clock
 * is an hour off takes and keeps leases exactly like one whose clock is right.
 *
 * <p>Thread-safe. Listener calls come from the scheduler's thread.
 */
public final class LeaseKeeper implements AutoCloseable {

    /** Why a lease ended without being released. */
    public enum LossReason {
        /** A renewal was refused: the lease had lapsed and someone took it, or it was broken. */
        REFUSED,
        /** No renewal was confirmed before the last known expiry passed. */
        DEADLINE_PASSED
    }

    /** Hears when the lease is lost, and each time a renewal moves its expiry. */
    @FunctionalInterface
    public interface Listener {
        /**
         * @param reason  why
         * @param current who holds the record now, when known
         */
        void leaseLost(LossReason reason, Optional<LeaseInfo> current);

        /**
         * A renewal was confirmed: the lease now ends at {@code renewed.expiresAt()} (database clock), so that whatever
         * shows the expiry can follow it. Not called for a renewal that comes back after the lease was released,
         * lost or replaced.
         *
         * @param renewed the lease as the database renewed it; same token
         */
        default void leaseRenewed(Lease renewed) {
        }
    }

    private final LeaseRepository leases;
    private final long recordId;
    private final Duration ttl;
    private final Clock clock;
    private final ScheduledExecutorService scheduler;
    private final Listener listener;

    private Lease lease;
    private long deadlineMillis;
    private ScheduledFuture<?> renewals;

    /**
     * @param leases    where leases are kept
     * @param recordId  the customer
     * @param ttl       how long each grant or renewal lasts (renewed every ttl / 3)
     * @param clock     measures elapsed time for the local deadline only
     * @param scheduler runs renewals
     * @param listener  hears about a loss
     */
    public LeaseKeeper(LeaseRepository leases, long recordId, Duration ttl, Clock clock,
            ScheduledExecutorService scheduler, Listener listener) {
        if (ttl.toMillis() < 3) {
            throw new IllegalArgumentException("A lease TTL must be at least 3 ms, not " + ttl);
        }
        this.leases = leases;
        this.recordId = recordId;
        this.ttl = ttl;
        this.clock = clock;
        this.scheduler = scheduler;
        this.listener = listener;
    }

    /**
     * Takes the lease (blocking; one SQL statement) and, when granted, starts renewing it.
     *
     * @return granted, or who holds it
     */
    public AcquireOutcome acquire() {
        long sent = clock.millis();
        AcquireOutcome outcome = leases.acquire(recordId, ttl.toMillis());
        if (outcome instanceof AcquireOutcome.Granted granted) {
            synchronized (this) {
                stopRenewals();
                lease = granted.lease();
                deadlineMillis = sent + granted.lease().remainingMs();
                long every = Math.max(1, ttl.toMillis() / 3);
                renewals = scheduler.scheduleWithFixedDelay(this::renewNow, every, every, TimeUnit.MILLISECONDS);
            }
        }
        return outcome;
    }

    /** The lease while this keeper believes it holds it: granted, not lost, and before the local deadline. */
    public synchronized Optional<Lease> lease() {
        if (lease == null || clock.millis() >= deadlineMillis) {
            return Optional.empty();
        }
        return Optional.of(lease);
    }

    /** The milliseconds left before the local deadline, or 0 when no lease is held. */
    public synchronized long remainingMillis() {
        return lease == null ? 0 : Math.max(0, deadlineMillis - clock.millis());
    }

    /**
     * Renews now (the scheduler calls this every ttl / 3) and tells the listener the new expiry. A refusal ends the
     * lease and tells the listener; a database failure is retried at the next tick, until the local deadline passes.
     */
    public void renewNow() {
        Lease current;
        synchronized (this) {
            current = lease;
        }
        if (current == null) {
            return;
        }
        long sent = clock.millis();
        Optional<Lease> renewed;
        try {
            renewed = leases.renew(recordId, current.token(), ttl.toMillis());
        } catch (StoreUnavailableException e) {
            checkDeadline();
            return;
        }
        if (renewed.isPresent()) {
            boolean kept;
            synchronized (this) {
                kept = lease != null && lease.token() == current.token();
                if (kept) {
                    lease = renewed.get();
                    deadlineMillis = sent + renewed.get().remainingMs();
                }
            }
            if (kept) {
                listener.leaseRenewed(renewed.get());
            }
            return;
        }
        lose(current, LossReason.REFUSED);
    }

    /** Ends the lease locally when the deadline passed without a confirmed renewal. */
    public void checkDeadline() {
        Lease current;
        synchronized (this) {
            current = lease;
            if (current == null || clock.millis() < deadlineMillis) {
                return;
            }
        }
        lose(current, LossReason.DEADLINE_PASSED);
    }

    /**
     * Ends the lease with {@code token} because the lease table no longer holds it — the change feed told of a lease
     * change and a read found another holder, or none — before a renewal found out: stops renewing and records the
     * loss in the lease trail, as a refused renewal does, so the trail (and the trainer's timeline read from it) tells
     * a loss the same way however the client learned of it. Blocking (one statement). The listener is not called:
     * the caller is telling the loss itself.
     *
     * @param token the lease the caller saw gone
     * @return whether this call ended it; false when it was released, lost or replaced already
     */
    public boolean seenLost(long token) {
        Lease current;
        synchronized (this) {
            current = lease;
        }
        if (current == null || current.token() != token || !end(current)) {
            return false;
        }
        try {
            leases.recordLost(recordId, token);
        } catch (StoreUnavailableException e) {
            // The loss stands; the trail lacks its record while the database is away.
        }
        return true;
    }

    private void lose(Lease lost, LossReason reason) {
        if (!end(lost)) {
            return; // already released, lost or replaced
        }
        Optional<LeaseInfo> now = Optional.empty();
        try {
            leases.recordLost(recordId, lost.token());
            now = leases.holder(recordId);
        } catch (StoreUnavailableException e) {
            // The loss stands; who holds it now is unknown while the database is away.
        }
        listener.leaseLost(reason, now);
    }

    /** Forgets {@code lost} and stops renewing it, unless it was released, lost or replaced already. */
    private synchronized boolean end(Lease lost) {
        if (lease == null || lease.token() != lost.token()) {
            return false;
        }
        lease = null;
        stopRenewals();
        return true;
    }

    /** Gives the lease up (blocking), if held. Safe to call more than once. */
    public void release() {
        Lease current;
        synchronized (this) {
            current = lease;
            lease = null;
            stopRenewals();
        }
        if (current != null) {
            leases.release(recordId, current.token());
        }
    }

    /** Stops renewing and releases the lease; a failure to reach the database leaves it to expire by its TTL. */
    @Override
    public void close() {
        try {
            release();
        } catch (StoreUnavailableException e) {
            // It lapses within one TTL on its own.
        }
    }

    private void stopRenewals() {
        if (renewals != null) {
            renewals.cancel(false);
            renewals = null;
        }
    }
}
