package org.lockstep.lab;

import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * One buyer of a lab run, on its own thread and its own database session. Each purchase attempt reads, thinks,
 * decides and writes as its {@link Strategy} prescribes; the buyer counts what happened. Its counters are read by
 * the lab after {@link Thread#join()}, which makes them visible without further synchronization.
 */
final class Buyer implements Runnable {

    /** How a purchase ended. */
    enum Outcome { BOUGHT, SOLD_OUT, GAVE_UP }

    /** How one attempt at a purchase ended. */
    private enum Attempt { BOUGHT, SOLD_OUT, CONFLICT, LOCK_TIMEOUT }

    /** Polling a held lease: a pause of ½–1 × min(cap, base · 2^(poll-1)). */
    private static final long LEASE_POLL_BASE_NANOS = 1_000_000;
    private static final long LEASE_POLL_CAP_NANOS = 20_000_000;

    private final Strategy strategy;
    private final LabRun run;
    private final long rowId;
    private final String name;
    private final StockStore.Session session;
    private final SplittableRandom random;
    private final CountDownLatch ready;
    private final CountDownLatch go;
    private final AtomicBoolean abort;
    private final Runnable onAttemptDone;

    private final long[] latencies;
    private int finished;
    long confirmed;
    long soldOut;
    long conflicts;
    long retries;
    long retriesExhausted;
    long lockWaits;
    long lockTimeouts;
    RuntimeException failure;

    /**
     * @param ready         counted down once this buyer is ready to start
     * @param go            the start signal: every buyer waits for it, so that they all race from the same moment
     * @param abort         set by any buyer that fails, so that the others stop after their current purchase
     * @param onAttemptDone called after each finished purchase
     */
    Buyer(Strategy strategy, LabRun run, long rowId, String name, StockStore.Session session, SplittableRandom random,
            CountDownLatch ready, CountDownLatch go, AtomicBoolean abort, Runnable onAttemptDone) {
        this.strategy = strategy;
        this.run = run;
        this.rowId = rowId;
        this.name = name;
        this.session = session;
        this.random = random;
        this.ready = ready;
        this.go = go;
        this.abort = abort;
        this.onAttemptDone = onAttemptDone;
        this.latencies = new long[run.opsPerWorker()];
    }

    @Override
    public void run() {
        ready.countDown();
        try {
            go.await();
            for (int i = 0; i < run.opsPerWorker() && !abort.get(); i++) {
                long start = System.nanoTime();
                Outcome outcome = purchase();
                latencies[finished++] = System.nanoTime() - start;
                switch (outcome) {
                    case BOUGHT -> confirmed++;
                    case SOLD_OUT -> soldOut++;
                    case GAVE_UP -> retriesExhausted++;
                }
                onAttemptDone.run();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failure = new IllegalStateException("The lab run was interrupted");
            abort.set(true);
        } catch (RuntimeException e) {
            failure = e;
            abort.set(true);
        }
    }

    /** The latencies of the purchases this buyer finished, in nanoseconds. */
    long[] latencies() {
        return java.util.Arrays.copyOf(latencies, finished);
    }

    /** Purchases finished. */
    int finished() {
        return finished;
    }

    private Outcome purchase() {
        RetryPolicy policy = run.retry();
        for (int attempt = 1;; attempt++) {
            Attempt result;
            try {
                result = attempt();
            } catch (RetryableFailure f) {
                result = f.lockTimeout() ? Attempt.LOCK_TIMEOUT : Attempt.CONFLICT;
            }
            switch (result) {
                case BOUGHT :
                    return Outcome.BOUGHT;
                case SOLD_OUT :
                    return Outcome.SOLD_OUT;
                case CONFLICT :
                    conflicts++;
                    break;
                case LOCK_TIMEOUT :
                    lockTimeouts++;
                    break;
                default :
                    throw new IllegalStateException("unknown attempt outcome " + result);
            }
            if (attempt >= policy.maxAttempts()) {
                return Outcome.GAVE_UP;
            }
            retries++;
            pause(policy.backoffNanos(attempt, random));
        }
    }

    private Attempt attempt() {
        return switch (strategy) {
            case NONE -> blind();
            case OPTIMISTIC -> optimistic();
            case PESSIMISTIC -> pessimistic();
            case CONDITIONAL -> conditional();
            case LEASE -> lease();
        };
    }

    /** The bug: write back what was read, minus one, whatever happened meanwhile. */
    private Attempt blind() {
        StockStore.Reading read = session.read(rowId);
        think();
        if (read.stock() <= 0) {
            return Attempt.SOLD_OUT;
        }
        requireRow(session.writeBlind(rowId, read.stock() - 1));
        return Attempt.BOUGHT;
    }

    private Attempt optimistic() {
        StockStore.Reading read = session.read(rowId);
        think();
        if (read.stock() <= 0) {
            return Attempt.SOLD_OUT;
        }
        return session.writeIfVersion(rowId, read.version(), read.stock() - 1) ? Attempt.BOUGHT : Attempt.CONFLICT;
    }

    private Attempt pessimistic() {
        try {
            StockStore.LockedWrite write = session.writeLocked(rowId, run.lockTimeoutMs(), stock -> {
                think();
                return stock > 0 ? OptionalInt.of(stock - 1) : OptionalInt.empty();
            });
            if (write.waited()) {
                lockWaits++;
            }
            return write.written() ? Attempt.BOUGHT : Attempt.SOLD_OUT;
        } catch (RetryableFailure f) {
            if (!f.lockTimeout()) {
                throw f;
            }
            lockWaits++;
            return Attempt.LOCK_TIMEOUT;
        }
    }

    /** The database decides: the write sells a unit only if there is one when it runs. */
    private Attempt conditional() {
        StockStore.Reading read = session.read(rowId);
        think();
        if (read.stock() <= 0) {
            return Attempt.SOLD_OUT;
        }
        return session.decrementIfInStock(rowId).isPresent() ? Attempt.BOUGHT : Attempt.SOLD_OUT;
    }

    private Attempt lease() {
        OptionalLong granted = awaitLease();
        if (granted.isEmpty()) {
            return Attempt.LOCK_TIMEOUT;
        }
        long token = granted.getAsLong();
        try {
            StockStore.Reading read = session.read(rowId);
            think();
            if (read.stock() <= 0) {
                return Attempt.SOLD_OUT;
            }
            // Refused only when the lease expired during the think time and passed on: fenced out, a conflict.
            return session.writeFenced(rowId, token, read.stock() - 1) ? Attempt.BOUGHT : Attempt.CONFLICT;
        } finally {
            session.releaseLease(rowId, token);
        }
    }

    /** Polls for the lease until the lock timeout; a lease has no wait queue, unlike a row lock. */
    private OptionalLong awaitLease() {
        long deadline = System.nanoTime() + run.lockTimeoutMs() * 1_000_000L;
        boolean waited = false;
        for (int poll = 1;; poll++) {
            OptionalLong token = session.acquireLease(rowId, name, run.leaseTtlMs());
            if (token.isPresent()) {
                return token;
            }
            if (!waited) {
                waited = true;
                lockWaits++;
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return OptionalLong.empty();
            }
            long ceiling = Math.min(LEASE_POLL_CAP_NANOS, LEASE_POLL_BASE_NANOS << Math.min(poll - 1, 20));
            pause(Math.min(left, ceiling / 2 + random.nextLong(ceiling / 2 + 1)));
        }
    }

    private void think() {
        long ms = run.thinkMinMs() == run.thinkMaxMs() ? run.thinkMinMs()
                : run.thinkMinMs() + random.nextLong(run.thinkMaxMs() - run.thinkMinMs() + 1);
        pause(ms * 1_000_000L);
    }

    /**
     * Waits {@code nanos}. Think time stands for the work a real client does between read and write, and backoff for
     * a deliberate pause; neither is synchronization, so parkNanos (no lock, no monitor) rather than a wait on
     * anything shared. parkNanos may return early, hence the loop.
     */
    private static void pause(long nanos) {
        long end = System.nanoTime() + nanos;
        for (long left = nanos; left > 0; left = end - System.nanoTime()) {
            if (Thread.currentThread().isInterrupted()) {
                throw new IllegalStateException("The lab run was interrupted");
            }
            LockSupport.parkNanos(left);
        }
    }

    private void requireRow(boolean written) {
        if (!written) {
            throw new IllegalStateException("The lab's stock row " + rowId + " for " + strategy
                    + " disappeared during the run; another lab run on this database may have reset it");
        }
    }
}
