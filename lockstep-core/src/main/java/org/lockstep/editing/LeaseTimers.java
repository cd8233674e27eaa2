package org.lockstep.editing;

import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * A {@link LeaseSession}'s two timers: the holder poll while another holds the record, and the idle check while this
 * editor holds it. A tick only hands its action to the session's thread; it never touches the database itself.
 */
final class LeaseTimers {

    private final ScheduledExecutorService scheduler;
    private final Executor reportOn;
    private final Duration pollEvery;
    private ScheduledFuture<?> poll;
    private ScheduledFuture<?> idleCheck;

    LeaseTimers(ScheduledExecutorService scheduler, Executor reportOn, Duration pollEvery) {
        this.scheduler = scheduler;
        this.reportOn = reportOn;
        this.pollEvery = pollEvery;
    }

    /** Runs {@code tick} on the session's thread every poll interval, replacing a poll already running. */
    void startPolling(Runnable tick) {
        stopPolling();
        long every = pollEvery.toMillis();
        poll = scheduler.scheduleWithFixedDelay(() -> reportOn.execute(tick), every, every, TimeUnit.MILLISECONDS);
    }

    void stopPolling() {
        if (poll != null) {
            poll.cancel(false);
            poll = null;
        }
    }

    /** Runs {@code check} on the session's thread every second, replacing an idle check already running. */
    void startIdleCheck(Runnable check) {
        stopIdleCheck();
        idleCheck = scheduler.scheduleWithFixedDelay(() -> reportOn.execute(check), 1, 1, TimeUnit.SECONDS);
    }

    void stopIdleCheck() {
        if (idleCheck != null) {
            idleCheck.cancel(false);
            idleCheck = null;
        }
    }
}
