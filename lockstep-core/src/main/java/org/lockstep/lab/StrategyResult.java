package org.lockstep.lab;

/**
 * What one strategy did in one run. Counts are over all buyers; times are wall-clock: the race's, and the whole
 * strategy's with its setup.
 *
 * @param strategy         the strategy
 * @param workers          buyers that raced
 * @param initialStock     units at the start
 * @param ops              purchase attempts in all (each ends bought, sold out or given up)
 * @param confirmed        purchases a buyer was told succeeded (its write changed the row)
 * @param soldOut          attempts that ended on "out of stock" (never retried)
 * @param finalStock       units the database holds after the run
 * @param conflicts        writes refused because someone else wrote first: version conflicts, fenced-out lease
 *                         writes, serialization failures (40001) and deadlocks (40P01)
 * @param retries          attempts made again after a conflict or lock timeout
 * @param retriesExhausted purchases given up after the last allowed attempt
 * @param lockWaits        attempts that found the row lock or the lease held and waited for it
 * @param lockTimeouts     waits that ended in a lock timeout (55P03, or the lease wait's deadline)
 * @param raceNanos        from the start signal to the last buyer's end: the basis of the rates
 * @param wallNanos        all this strategy took, as the user waited for it: resetting its row (and waiting for
 *                         any lock on it), opening the buyers' sessions, the race, and reading the final stock
 * @param p50Ms            median latency of a purchase attempt (first read to outcome, retries included), in ms
 * @param p99Ms            99th-percentile latency, in ms
 */
public record StrategyResult(Strategy strategy, int workers, int initialStock, long ops, long confirmed, long soldOut,
        int finalStock, long conflicts, long retries, long retriesExhausted, long lockWaits,
        long lockTimeouts, long raceNanos, long wallNanos, double p50Ms, double p99Ms) {

    /**
     * Confirmed purchases the stock does not show: {@code confirmed − (initialStock − finalStock)}. Zero when every
     * confirmed sale took its unit; positive when writes overwrote each other (the lost update).
     */
    public long lostUpdates() {
        return confirmed - (initialStock - finalStock);
    }

    /** Whether more was confirmed than there was to sell, or the stock went below zero. */
    public boolean oversold() {
        return confirmed > initialStock || finalStock < 0;
    }

    /** Purchase attempts per second of the race; 0 when the race took no measurable time. */
    public double throughputOpsPerS() {
        return raceNanos <= 0 ? 0 : ops * 1e9 / raceNanos;
    }

    /**
     * Confirmed purchases per second of wall-clock time (the goodput): unlike {@link #throughputOpsPerS()}, a
     * purchase given up after its last retry does not count, so a retry storm shows as a fall.
     */
    public double confirmedPerS() {
        return raceNanos <= 0 ? 0 : confirmed * 1e9 / raceNanos;
    }

    /** What this strategy took in all, setup included ({@link #wallNanos()}), in milliseconds. */
    public double elapsedMs() {
        return wallNanos / 1e6;
    }

    /** The race alone ({@link #raceNanos()}), in milliseconds. */
    public double raceMs() {
        return raceNanos / 1e6;
    }
}
