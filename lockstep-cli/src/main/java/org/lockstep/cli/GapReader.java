package org.lockstep.cli;

import java.io.PrintWriter;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.locks.LockSupport;
import org.lockstep.domain.ChangeEvent;
import org.lockstep.domain.LeaseInfo;
import org.lockstep.domain.LeaseRepository;
import org.lockstep.lab.RetryPolicy;
import org.lockstep.store.MissedChanges;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes up for the notifications {@code lockstep watch} missed while disconnected. It keeps two marks of the customer
 * history: the latest, taken after each batch it heard, and the one before it, which a resync starts from. Starting
 * one batch back costs a few repeated lines and covers a change that committed before the latest mark but whose
 * notification was still on its way when the connection died. All calls come from the feed's thread.
 */
final class GapReader {

    private static final Logger LOG = LoggerFactory.getLogger(GapReader.class);
    /** Retries of a resync whose reads failed (the pool reconnects more slowly than the feed): as the feed's. */
    private static final RetryPolicy RETRY = new RetryPolicy(100, 5_000, Integer.MAX_VALUE);

    private final MissedChanges history;
    private final LeaseRepository leases;
    private final WatchOutput output;
    private final PrintWriter err;
    private MissedChanges.Mark confirmed;
    private MissedChanges.Mark latest;

    /** Run before the leases in force are read: moves the lease trail positions to the trail's end. */
    private final Runnable leaseTrailToEnd;

    GapReader(MissedChanges history, LeaseRepository leases, WatchOutput output, PrintWriter err) {
        this(history, leases, () -> {}, output, err);
    }

    /**
     * @param leaseTrailToEnd run before each resync reads the leases in force ({@code ChangeDetails#skipToTrailEnd}):
     *                        the resync prints them, so lease notifications heard after it must not be handed
     *                        trail entries written while disconnected
     */
    GapReader(MissedChanges history, LeaseRepository leases, Runnable leaseTrailToEnd, WatchOutput output,
            PrintWriter err) {
        this.leaseTrailToEnd = leaseTrailToEnd;
        this.history = history;
        this.leases = leases;
        this.output = output;
        this.err = err;
    }

    /** The feed is live: the first time, marks where the history stands. */
    void connected() {
        if (latest == null) {
            latest = markOrNull();
            confirmed = latest;
        }
    }

    /** A batch was printed: the mark moves on, keeping the one before. */
    void heard() {
        MissedChanges.Mark next = markOrNull();
        if (next != null) {
            confirmed = latest;
            latest = next;
        }
    }

    /**
     * The feed came back after a loss: prints the resync with the customers changed since the confirmed mark and
     * the leases in force. When the database cannot be read yet, says so once on stderr and tries again until it
     * can, or until the feed is closed (its thread interrupted).
     */
    void resync() {
        SplittableRandom random = new SplittableRandom();
        MissedChanges.Mark since = confirmed != null ? confirmed : MissedChanges.Mark.BEGINNING;
        for (int attempt = 1; !Thread.currentThread().isInterrupted(); attempt++) {
            try {
                MissedChanges.Mark now = history.markAfter(latest != null ? latest : MissedChanges.Mark.BEGINNING);
                List<ChangeEvent> changed = history.customersChangedSince(since);
                leaseTrailToEnd.run();
                List<LeaseInfo> held = leases.active();
                output.resynced(changed, held);
                confirmed = now;
                latest = now;
                return;
            } catch (RuntimeException e) {
                LOG.info("Could not read the changes made while disconnected: {}", e.getMessage());
                if (attempt == 1) {
                    err.println("lockstep: cannot read the changes made while disconnected yet (" + e.getMessage()
                            + "); trying again");
                    err.flush();
                }
            }
            LockSupport.parkNanos(RETRY.backoffNanos(Math.min(attempt, 30), random));
        }
    }

    private MissedChanges.Mark markOrNull() {
        try {
            return history.markAfter(latest != null ? latest : MissedChanges.Mark.BEGINNING);
        } catch (RuntimeException e) {
            // Keeping the older marks only makes the next resync start earlier.
            LOG.info("Could not mark the customer history: {}", e.getMessage());
            return null;
        }
    }
}
