package org.lockstep.ui.restore;

import static org.lockstep.text.Texts.tr;

import java.time.Clock;
import java.time.Duration;
import java.time.format.DateTimeFormatter;
import java.time.format.FormatStyle;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.Executor;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Predicate;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;

/**
 * Tries to open the database again and again after it could not be reached at start (issue 28), while the operator
 * works on their drafts: one attempt at a time on a thread of its own (an attempt may take the connection timeout,
 * 5 s, and must delay nothing else), the next {@link #EVERY} after the last one failed, or at once with
 * {@link #tryNow()}. The first success goes to {@code connected}; a failure that waiting does not mend (a refused
 * password, a database a newer Lockstep migrated) ends the attempts and goes to {@code gaveUp}. Results are applied on
 * the FX thread, the only thread that may call this object; once {@link #stop()}ped, a success arriving late is handed
 * to {@code late} to be closed, never used.
 *
 * @param <T> what an attempt opens (the application's backend)
 */
public final class DatabaseRetry<T> {

    /** How long after a failed attempt the next one starts. */
    public static final Duration EVERY = Duration.ofSeconds(5);

    private final Callable<T> attempt;
    private final ScheduledExecutorService attempts;
    private final Executor fxThread;
    private final Duration every;
    private final Clock clock;
    private final Predicate<Exception> hopeless;
    private final ReadOnlyStringWrapper status = new ReadOnlyStringWrapper(this, "status", "");
    private final ReadOnlyStringWrapper reason = new ReadOnlyStringWrapper(this, "reason", "");
    private Consumer<T> connected = t -> {};
    private Consumer<Exception> gaveUp = e -> {};
    private Consumer<T> late = t -> {};
    // The reason as last told, for the threads of the store that cannot be reached (the property is the FX thread's).
    private volatile String lastReason = "";
    private Future<?> next;
    private boolean trying;
    private boolean stopped;

    /**
     * @param attempt  opens the database, or throws why it cannot
     * @param attempts the thread the attempts run on, one at a time; the caller shuts it down
     * @param fxThread applies each outcome ({@code Platform::runLater})
     * @param every    how long after a failure the next attempt starts ({@link #EVERY})
     * @param clock    tells the time of the last failure, in its zone
     * @param hopeless which failures waiting does not mend
     */
    public DatabaseRetry(Callable<T> attempt, ScheduledExecutorService attempts, Executor fxThread, Duration every,
            Clock clock, Predicate<Exception> hopeless) {
        this.attempt = Objects.requireNonNull(attempt);
        this.attempts = Objects.requireNonNull(attempts);
        this.fxThread = Objects.requireNonNull(fxThread);
        this.every = Objects.requireNonNull(every);
        this.clock = Objects.requireNonNull(clock);
        this.hopeless = Objects.requireNonNull(hopeless);
    }

    /**
     * Starts trying, {@code every} from now, after {@code first} failed.
     *
     * @param first     why the database could not be opened at start
     * @param onOpen    gets the first success, on the FX thread
     * @param onGivenUp gets a failure that waiting does not mend, on the FX thread
     * @param onLate    gets a success that arrived after {@link #stop()}, to close it
     */
    public void start(Exception first, Consumer<T> onOpen, Consumer<Exception> onGivenUp, Consumer<T> onLate) {
        connected = Objects.requireNonNull(onOpen);
        gaveUp = Objects.requireNonNull(onGivenUp);
        late = Objects.requireNonNull(onLate);
        failed(first);
    }

    /** Why the database could not be opened, the last time it was tried. */
    public ReadOnlyStringProperty reasonProperty() {
        return reason.getReadOnlyProperty();
    }

    /** {@link #reasonProperty()}'s text, for any thread: what a call to the unreachable store fails with. */
    public String lastReason() {
        return lastReason;
    }

    /** "Trying to reach the database…", or when it last failed and that it tries again. */
    public ReadOnlyStringProperty statusProperty() {
        return status.getReadOnlyProperty();
    }

    /** Tries now, unless an attempt is already under way. */
    public void tryNow() {
        if (stopped || trying) {
            return;
        }
        if (next != null) {
            next.cancel(false);
        }
        schedule(Duration.ZERO);
    }

    /** No more attempts; a success still under way is handed to {@code onLate}. */
    public void stop() {
        stopped = true;
        if (next != null) {
            next.cancel(false);
        }
    }

    private void schedule(Duration after) {
        try {
            next = attempts.schedule(this::attemptOnce, after.toMillis(), TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException shutDown) {
            stopped = true;
        }
    }

    /** On the attempts' thread. */
    private void attemptOnce() {
        fxThread.execute(() -> {
            if (!stopped) {
                trying = true;
                status.set(tr("Trying to reach the database…"));
            }
        });
        T opened;
        try {
            opened = attempt.call();
        } catch (Exception e) {
            fxThread.execute(() -> {
                trying = false;
                if (!stopped) {
                    failed(e);
                }
            });
            return;
        }
        fxThread.execute(() -> {
            trying = false;
            if (stopped) {
                late.accept(opened);
            } else {
                stopped = true;
                connected.accept(opened);
            }
        });
    }

    private void failed(Exception e) {
        lastReason = e.getMessage() == null ? e.toString() : e.getMessage();
        reason.set(lastReason);
        if (hopeless.test(e)) {
            stopped = true;
            status.set("");
            gaveUp.accept(e);
            return;
        }
        String at =
                DateTimeFormatter.ofLocalizedTime(FormatStyle.MEDIUM).format(clock.instant().atZone(clock.getZone()));
        status.set(tr("Not reachable at {0}; trying again every {1} s.", at, every.toSeconds()));
        schedule(every);
    }
}
