package org.lockstep.editing;

import static org.lockstep.text.Texts.tr;

import java.time.Clock;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * When a held lease is let go for want of activity: a warning {@link LeaseSettings#idleWarning()} before the
 * {@link LeaseSettings#idleLimit()}, then the release. The edits always stay; only the lease goes.
 */
final class IdleWatch {

    private final Clock clock;
    private final LeaseSettings settings;
    private long lastActivityMillis;
    private boolean warned;

    IdleWatch(Clock clock, LeaseSettings settings) {
        this.clock = clock;
        this.settings = settings;
    }

    /** A keystroke or click: the idle time starts again, the warning is withdrawn. */
    void activity() {
        lastActivityMillis = clock.millis();
        warned = false;
    }

    /** Whether the warning was given since the last activity. */
    boolean warned() {
        return warned;
    }

    /** Runs {@code release} and says so once idle for the limit; says the warning once idle for nearly as long. */
    void check(Runnable release, Consumer<String> say) {
        long idle = clock.millis() - lastActivityMillis;
        if (idle >= settings.idleLimit().toMillis()) {
            release.run();
            say.accept(tr("Lock released after {0} without activity — your edits are kept. Lock again to continue.",
                    LockMessages.duration(settings.idleLimit())));
        } else if (!warned && idle >= settings.idleLimit().minus(settings.idleWarning()).toMillis()) {
            warned = true;
            say.accept(tr("No activity for {0, plural, one {# minute} other {# minutes}} — the lock will be released "
                    + "in {1} s unless you continue editing.", Duration.ofMillis(idle).toMinutes(),
                    settings.idleWarning().toSeconds()));
        }
    }
}
