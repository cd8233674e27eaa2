package org.lockstep.bench;

import org.HdrHistogram.Histogram;

/**
 * Latencies of one kind of operation, recorded in microseconds with three significant digits (HdrHistogram), read
 * back as percentiles in milliseconds. Not thread-safe: give each thread its own and {@link #add} them afterwards.
 */
final class Latencies {

    /** Longest latency recorded exactly: one minute. Longer ones are clamped to it. */
    private static final long MAX_MICROS = 60_000_000L;

    private final Histogram histogram = new Histogram(1, MAX_MICROS, 3);

    /** Records one operation that took {@code nanos} nanoseconds. */
    void recordNanos(long nanos) {
        histogram.recordValue(Math.max(1, Math.min(MAX_MICROS, nanos / 1_000)));
    }

    /** Adds another's recordings to these. */
    void add(Latencies other) {
        histogram.add(other.histogram);
    }

    /** How many operations were recorded. */
    long count() {
        return histogram.getTotalCount();
    }

    /** The latency at a percentile (0 to 100), in milliseconds; 0 when nothing was recorded. */
    double percentileMs(double percentile) {
        return count() == 0 ? 0 : histogram.getValueAtPercentile(percentile) / 1_000.0;
    }

    /** The longest latency recorded, in milliseconds. */
    double maxMs() {
        return count() == 0 ? 0 : histogram.getMaxValue() / 1_000.0;
    }
}
