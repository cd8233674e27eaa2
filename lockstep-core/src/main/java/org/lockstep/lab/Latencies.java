package org.lockstep.lab;

import java.util.Arrays;

/** Percentiles of a set of latencies, by the nearest-rank method (the smallest value ≥ p% of all values). */
final class Latencies {

    private final long[] sortedNanos;

    Latencies(long[] nanos) {
        this.sortedNanos = nanos.clone();
        Arrays.sort(sortedNanos);
    }

    /** The {@code p}-th percentile (0 < p ≤ 100) in milliseconds; 0 when there are no values. */
    double percentileMs(double p) {
        if (sortedNanos.length == 0) {
            return 0;
        }
        int rank = (int) Math.ceil(p / 100.0 * sortedNanos.length);
        return sortedNanos[Math.min(Math.max(rank, 1), sortedNanos.length) - 1] / 1e6;
    }
}
