package org.lockstep.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;

/** A clock the test moves by hand, so that time passing needs no waiting. */
public final class ManualClock extends Clock {
    private final AtomicLong millis;

    /** A clock standing at {@code start}. */
    public ManualClock(Instant start) {
        millis = new AtomicLong(start.toEpochMilli());
    }

    /** A clock standing at 2026-11-29 10:00 UTC. */
    public ManualClock() {
        this(Instant.parse("2026-11-29T10:00:00Z"));
    }

    /** Moves the clock forward. */
    public void advance(Duration d) {
        millis.addAndGet(d.toMillis());
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }

    @Override
    public Instant instant() {
        return Instant.ofEpochMilli(millis.get());
    }
}
