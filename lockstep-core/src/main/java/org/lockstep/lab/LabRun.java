package org.lockstep.lab;

/**
 * The parameters of one lab run: {@code workers} buyers start together and each makes {@code opsPerWorker}
 * purchase attempts on a row holding {@code stock} units. An attempt reads the stock, thinks (a simulated delay
 * drawn uniformly from {@code [thinkMinMs, thinkMaxMs]}), decides (buy when the stock it read is above zero) and
 * writes, as its {@link Strategy} prescribes.
 *
 * @param workers       concurrent buyers, each on its own database connection (1–500)
 * @param stock         units on sale at the start (≥ 0)
 * @param opsPerWorker  purchase attempts per buyer (≥ 1)
 * @param thinkMinMs    shortest think time between read and write, in milliseconds (≥ 0)
 * @param thinkMaxMs    longest think time, in milliseconds (≥ thinkMinMs, ≤ {@link #MAX_THINK_MS})
 * @param seed          seeds the think times and backoff jitter (the race itself is up to the scheduler)
 * @param retry         the retry policy of the optimistic, pessimistic and lease strategies
 * @param lockTimeoutMs how long a lease buyer polls for the lease before the attempt fails with a lock timeout; for
 *                      a pessimistic buyer, the {@code SET LOCAL lock_timeout}, which PostgreSQL applies to each
 *                      lock acquisition attempt separately, so a buyer queued behind several holders may wait
 *                      longer in all (PostgreSQL docs, "Client Connection Defaults", lock_timeout) (1 to
 *                      {@link #MAX_LOCK_TIMEOUT_MS})
 * @param leaseTtlMs    how long a lease lasts unless released; longer than the think time, or writes get fenced
 */
public record LabRun(int workers, int stock, int opsPerWorker, long thinkMinMs, long thinkMaxMs, long seed,
        RetryPolicy retry, long lockTimeoutMs, long leaseTtlMs) {

    /** The most buyers one run may have: each holds a database connection. */
    public static final int MAX_WORKERS = 500;

    /**
     * The longest lock timeout, in ms: Lockstep's own {@code lock_timeout} (4 s, app/Database). A pessimistic buyer's
     * {@code SELECT … FOR UPDATE} may wait twice in one statement (for the tuple lock, then for the holder's
     * transaction), and both waits must end before the statement timeout (10 s) and the client's socket timeout
     * (15 s) that bound every statement the lab sends.
     */
    public static final long MAX_LOCK_TIMEOUT_MS = 4_000;

    /**
     * The longest think time, in ms. A pessimistic buyer thinks inside its transaction, which the server ends after
     * 60 s of idleness ({@code idle_in_transaction_session_timeout}, app/Database); and the lease strategy's lease
     * lasts 30 s.
     */
    public static final long MAX_THINK_MS = 30_000;

    /** The classic demonstration: 8 buyers, 5 units, one attempt each, 50 ms think time. */
    public static final LabRun CLASSIC = new LabRun(8, 5, 1, 50, 50, 1, RetryPolicy.DEFAULT, 2_000, 30_000);

    /** Checks every bound; the message names the parameter. */
    public LabRun {
        if (workers < 1 || workers > MAX_WORKERS) {
            throw new IllegalArgumentException("workers must be between 1 and " + MAX_WORKERS + ", not " + workers);
        }
        if (stock < 0) {
            throw new IllegalArgumentException("stock must be 0 or more, not " + stock);
        }
        if (opsPerWorker < 1) {
            throw new IllegalArgumentException("ops per worker must be 1 or more, not " + opsPerWorker);
        }
        if (thinkMinMs < 0 || thinkMaxMs < thinkMinMs || thinkMaxMs > MAX_THINK_MS) {
            throw new IllegalArgumentException("think time must be between 0 and " + MAX_THINK_MS
                    + " ms (min <= max), not " + (thinkMinMs == thinkMaxMs ? thinkMinMs : thinkMinMs + "–" + thinkMaxMs)
                    + " ms");
        }
        if (retry == null) {
            throw new IllegalArgumentException("retry policy is missing");
        }
        if (lockTimeoutMs < 1 || lockTimeoutMs > MAX_LOCK_TIMEOUT_MS) {
            throw new IllegalArgumentException("lock timeout must be between 1 and " + MAX_LOCK_TIMEOUT_MS
                    + " ms, not " + lockTimeoutMs + " ms");
        }
        if (leaseTtlMs < 1) {
            throw new IllegalArgumentException("lease TTL must be at least 1 ms, not " + leaseTtlMs);
        }
    }

    /** The same run with {@code n} workers. */
    public LabRun withWorkers(int n) {
        return new LabRun(n, stock, opsPerWorker, thinkMinMs, thinkMaxMs, seed, retry, lockTimeoutMs, leaseTtlMs);
    }

    /** The same run with {@code units} in stock. */
    public LabRun withStock(int units) {
        return new LabRun(workers, units, opsPerWorker, thinkMinMs, thinkMaxMs, seed, retry, lockTimeoutMs,
                leaseTtlMs);
    }

    /** The same run with {@code n} purchase attempts per worker. */
    public LabRun withOpsPerWorker(int n) {
        return new LabRun(workers, stock, n, thinkMinMs, thinkMaxMs, seed, retry, lockTimeoutMs, leaseTtlMs);
    }

    /** The same run with a fixed think time, in milliseconds. */
    public LabRun withThinkMs(long ms) {
        return withThinkMs(ms, ms);
    }

    /** The same run with think times drawn uniformly from {@code [minMs, maxMs]}. */
    public LabRun withThinkMs(long minMs, long maxMs) {
        return new LabRun(workers, stock, opsPerWorker, minMs, maxMs, seed, retry, lockTimeoutMs, leaseTtlMs);
    }

    /** The same run with another seed. */
    public LabRun withSeed(long newSeed) {
        return new LabRun(workers, stock, opsPerWorker, thinkMinMs, thinkMaxMs, newSeed, retry, lockTimeoutMs,
                leaseTtlMs);
    }

    /** The same run with another retry policy. */
    public LabRun withRetry(RetryPolicy policy) {
        return new LabRun(workers, stock, opsPerWorker, thinkMinMs, thinkMaxMs, seed, policy, lockTimeoutMs,
                leaseTtlMs);
    }

    /** The same run with another lock timeout, in milliseconds. */
    public LabRun withLockTimeoutMs(long ms) {
        return new LabRun(workers, stock, opsPerWorker, thinkMinMs, thinkMaxMs, seed, retry, ms, leaseTtlMs);
    }

    /** The same run with another lease TTL, in milliseconds. */
    public LabRun withLeaseTtlMs(long ms) {
        return new LabRun(workers, stock, opsPerWorker, thinkMinMs, thinkMaxMs, seed, retry, lockTimeoutMs, ms);
    }

    /** Purchase attempts in all: {@code workers × opsPerWorker}. */
    public long totalOps() {
        return (long) workers * opsPerWorker;
    }
}
