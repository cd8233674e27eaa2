package org.lockstep.lab;

import java.util.SplittableRandom;

/**
 * When to try a failed attempt again: up to {@code maxAttempts} attempts in all, pausing before retry {@code n}
 * (1-based) a random time in {@code [0, min(capMs, baseMs · 2^(n-1))]} — exponential backoff with "full jitter",
 * which spreads colliding clients apart better than a fixed or merely exponential pause (Marc Brooker, "Exponential
 * Backoff And Jitter", AWS Architecture Blog, 2015).
 *
 * <p>Only contention is retried: version conflicts, fenced-out writes, and SQLSTATE 40001 (serialization failure),
 * 40P01 (deadlock detected) and 55P03 (lock not available, e.g. {@code lock_timeout}). "Out of stock" is an answer,
 * never retried.
 *
 * @param baseMs      the first retry's upper bound, in milliseconds (≥ 0)
 * @param capMs       the largest pause, in milliseconds (≥ baseMs)
 * @param maxAttempts attempts in all, the first included (≥ 1)
 */
public record RetryPolicy(long baseMs, long capMs, int maxAttempts) {

    /** 5 ms doubling to at most 250 ms, 10 attempts. */
    public static final RetryPolicy DEFAULT = new RetryPolicy(5, 250, 10);

    /** Checks the bounds. */
    public RetryPolicy {
        if (baseMs < 0 || capMs < baseMs || maxAttempts < 1) {
            throw new IllegalArgumentException("retry policy needs 0 <= base <= cap and at least 1 attempt, not base "
                    + baseMs + " ms, cap " + capMs + " ms, " + maxAttempts + " attempts");
        }
    }

    /**
     * The pause before retry {@code retry} (1 for the first retry), in nanoseconds, drawn from {@code random}.
     */
    public long backoffNanos(int retry, SplittableRandom random) {
        int shift = Math.min(Math.max(retry - 1, 0), 30);
        long ceilingMs = Math.min(capMs, baseMs << shift);
        long ceilingNanos = ceilingMs * 1_000_000L;
        return ceilingNanos == 0 ? 0 : random.nextLong(ceilingNanos + 1);
    }
}
