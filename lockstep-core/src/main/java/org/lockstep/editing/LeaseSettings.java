package org.lockstep.editing;

import java.time.Duration;

/**
 * Timings of a {@link LeaseSession}: the lease's TTL, the idle release and the holder poll.
 *
 * @param ttl         how long a lease lasts unless renewed; renewed every third of it
 * @param idleLimit   no activity for this long releases the lease (the edits stay)
 * @param idleWarning how long before the idle release the operator is warned
 * @param pollEvery   how often the holder of another's lease is asked for, whether or not the feed is live
 */
public record LeaseSettings(Duration ttl, Duration idleLimit, Duration idleWarning, Duration pollEvery) {
    /** TTL as given, released after 15 idle minutes with a warning a minute before, polls every 2 s. */
    public static LeaseSettings defaults(Duration ttl) {
        return defaults(ttl, Duration.ofMinutes(15));
    }

    /** The defaults with another idle limit; the warning comes a minute before it (or halfway, if shorter). */
    public static LeaseSettings defaults(Duration ttl, Duration idleLimit) {
        Duration warning = idleLimit.compareTo(Duration.ofMinutes(2)) < 0 ? idleLimit.dividedBy(2)
                : Duration.ofMinutes(1);
        return new LeaseSettings(ttl, idleLimit, warning, Duration.ofSeconds(2));
    }
}
