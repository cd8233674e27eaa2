package org.lockstep.config;

import java.time.Duration;

/**
 * The durations an option accepts, both ends included, and how a refusal reads. Every duration an operator types
 * ({@code --ttl}, {@code --lease-ttl}, {@code --lock-idle}) is checked against one of these before anything runs,
 * so that a value means what the operator typed: never a lease that has expired on arrival ({@code 1ms}), one that
 * ends in 2140 ({@code 999999h}), or a number too large for a timestamp.
 *
 * @param min the shortest allowed
 * @param max the longest allowed
 */
public record DurationRange(Duration min, Duration max) {

    /**
     * A lease's TTL, {@code --ttl} and {@code --lease-ttl}: 5 s to 24 h. Below 5 s a renewal (every third of the TTL)
     * has too little time for one slow round trip before the lease lapses; above a day, the lease of a holder who
     * crashed keeps a customer locked for longer than anyone would wait for it.
     */
    public static final DurationRange LEASE_TTL = new DurationRange(Duration.ofSeconds(5), Duration.ofHours(24));

    /**
     * How long an editor holding a lock may sit idle, {@code --lock-idle}: 1 min to 24 h. Below a minute the lock goes
     * while the operator is still reading what they are about to change (the warning comes halfway); beyond a day
     * it is never released for idleness at all.
     */
    public static final DurationRange LOCK_IDLE = new DurationRange(Duration.ofMinutes(1), Duration.ofHours(24));

    /** Checks the ends: both positive, {@code min <= max}. */
    public DurationRange {
        if (min.isNegative() || min.isZero() || max.compareTo(min) < 0) {
            throw new IllegalArgumentException("not a range of durations: " + min + " to " + max);
        }
    }

    /** Whether {@code d} lies within the range. */
    public boolean contains(Duration d) {
        return d.compareTo(min) >= 0 && d.compareTo(max) <= 0;
    }

    /** Why a value is refused: {@code "must be between 5s and 24h, not 1ms"}, {@code given} as the operator wrote it. */
    public String refusal(String given) {
        return "must be between " + format(min) + " and " + format(max) + ", not " + given;
    }

    /**
     * Checks a duration that reached the settings another way than a typed option (code, tests).
     *
     * @param option the option it stands for, named in the message ({@code --lease-ttl})
     * @return {@code d}
     * @throws IllegalArgumentException {@code "--lease-ttl must be between 5s and 24h, not 1s"}
     */
    public Duration check(String option, Duration d) {
        if (!contains(d)) {
            throw new IllegalArgumentException(option + " " + refusal(format(d)));
        }
        return d;
    }

    /** A duration as an operator would type it, in its largest whole unit: {@code 24h}, {@code 90s}, {@code 1500ms}. */
    public static String format(Duration d) {
        long ms = d.toMillis();
        if (ms != 0 && ms % 3_600_000 == 0) {
            return ms / 3_600_000 + "h";
        }
        if (ms != 0 && ms % 60_000 == 0) {
            return ms / 60_000 + "m";
        }
        if (ms % 1_000 == 0) {
            return ms / 1_000 + "s";
        }
        return ms + "ms";
    }
}
