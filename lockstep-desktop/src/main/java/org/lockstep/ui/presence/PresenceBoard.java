package org.lockstep.ui.presence;

import static org.lockstep.text.Texts.tr;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import javafx.beans.property.ReadOnlyLongProperty;
import javafx.beans.property.ReadOnlyLongWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import org.lockstep.domain.Presence;
import org.lockstep.domain.PresenceRepository;
import org.lockstep.concurrency.TaskExecutor;
import org.lockstep.ui.live.LiveUpdates;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Presence for one Lockstep process: announces which customers this process's editors have open and
 * whether they are editing (a heartbeat every {@code heartbeatEvery}, and at once on an arrival or state change), and
 * shows everyone else's presence, re-read on every presence notification, on resync and at each heartbeat (which also
 * drops a crashed client's expired rows). Others see one row per client and customer; this client's own other
 * editors on a customer are known here, seat by seat, and an editor shows them as "You (another window)".
 * Confined to the FX thread; database calls go through the executor.
 */
public final class PresenceBoard {

    private static final Logger LOG = LoggerFactory.getLogger(PresenceBoard.class);

    /** The default heartbeat: three per 30-s TTL, so one lost heartbeat does not make an operator vanish. */
    public static final Duration HEARTBEAT = Duration.ofSeconds(10);

    /** One editor's hold on a customer; {@link #close()} when the editor closes or shows another customer. */
    public final class Seat {
        private final long customerId;
        private Presence.State state = Presence.State.VIEWING;
        private boolean closed;

        private Seat(long customerId) {
            this.customerId = customerId;
        }

        /** The editor now has (or no longer has) unsaved edits. */
        public void state(Presence.State now) {
            if (!closed && now != state) {
                state = now;
                seatsChanged();
                heartbeat();
            }
        }

        /** The editor let go of the customer. */
        public void close() {
            if (closed) {
                return;
            }
            closed = true;
            seats.remove(this);
            seatsChanged();
            if (seats.stream().noneMatch(s -> s.customerId == customerId)) {
                executor.execute(() -> {
                    presence.leave(customerId);
                    return null;
                }, ignored -> reached(), PresenceBoard.this::unreached);
            } else {
                heartbeat();
            }
        }
    }

    private final PresenceRepository presence;
    private final TaskExecutor executor;
    private final Executor fxThread;
    private final ScheduledExecutorService scheduler;
    private final Duration heartbeatEvery;
    private final List<Seat> seats = new ArrayList<>();
    private final List<Runnable> unsubscribe = new ArrayList<>();
    private final ReadOnlyObjectWrapper<Map<Long, List<Presence>>> others =
            new ReadOnlyObjectWrapper<>(this, "others", Map.of());
    private final ReadOnlyLongWrapper changeCount = new ReadOnlyLongWrapper(this, "changeCount");
    private ScheduledFuture<?> beat;
    /** Whether the last call failed: a failure is logged once per outage, not at every heartbeat. */
    private boolean unreached;

    /**
     * @param presence       the presence store, acting as this process's session
     * @param executor       runs database calls off the FX thread
     * @param fxThread       delivers timer ticks to the FX thread ({@code Platform::runLater})
     * @param scheduler      runs the heartbeat timer
     * @param heartbeatEvery time between heartbeats; well under the store's TTL
     */
    public PresenceBoard(PresenceRepository presence, TaskExecutor executor, Executor fxThread,
            ScheduledExecutorService scheduler, Duration heartbeatEvery) {
        this.presence = presence;
        this.executor = executor;
        this.fxThread = fxThread;
        this.scheduler = scheduler;
        this.heartbeatEvery = heartbeatEvery;
    }

    /** Re-reads presence whenever another session arrives, leaves or changes state, and after a resync. */
    public void follow(LiveUpdates live) {
        unsubscribe.add(live.subscribe(batch -> {
            if (batch.stream().anyMatch(c -> c.event().isPresence() && !c.mine())) {
                refresh();
            }
        }));
        unsubscribe.add(live.onResync(this::refresh));
    }

    /** Starts the heartbeat timer and reads everyone's presence. */
    public void start() {
        long every = heartbeatEvery.toMillis();
        beat = scheduler.scheduleWithFixedDelay(() -> fxThread.execute(this::heartbeat), every, every,
                TimeUnit.MILLISECONDS);
        refresh();
    }

    /** An editor opened {@code customerId}: others see this operator viewing it at once. */
    public Seat open(long customerId) {
        Seat seat = new Seat(customerId);
        seats.add(seat);
        seatsChanged();
        heartbeat();
        return seat;
    }

    private void seatsChanged() {
        changeCount.set(changeCount.get() + 1);
    }

    /** Stops the heartbeat and removes this session's rows (in the background); the process closes. */
    public void stop() {
        if (beat != null) {
            beat.cancel(false);
        }
        unsubscribe.forEach(Runnable::run);
        unsubscribe.clear();
        seats.clear();
        executor.execute(() -> {
            presence.leaveAll();
            return null;
        }, ignored -> reached(), this::unreached);
    }

    /** Announces this process's open customers now, then reads everyone's presence. */
    public void heartbeat() {
        Map<Long, Presence.State> open = new LinkedHashMap<>();
        for (Seat s : seats) {
            open.merge(s.customerId, s.state, (a, b) -> a == Presence.State.EDITING ? a : b);
        }
        executor.execute(() -> {
            presence.heartbeat(open);
            return presence.present();
        }, this::show, this::unreached);
    }

    /** Reads everyone's presence again. */
    public void refresh() {
        executor.execute(presence::present, this::show, this::unreached);
    }

    private void reached() {
        unreached = false;
    }

    /**
     * A presence call failed. Presence only says who else has a customer open, so nothing waits on it, and what made
     * the database unreachable is the status bar's to tell: the failure goes to the log once, at INFO, until a call
     * succeeds again. Left to the executor, every heartbeat of an outage wrote a WARN with its stack trace to the log
     * and "Could not background task: …StoreUnavailableException…" to stderr, every 10 s (issue 28, seen by hand
     * while the server's disk was full).
     */
    private void unreached(Throwable failure) {
        if (!unreached) {
            unreached = true;
            LOG.info("Presence not updated until the database answers again: {}", failure.getMessage());
        }
    }

    private void show(List<Presence> all) {
        reached();
        String mine = presence.sessionId();
        Map<Long, List<Presence>> now = all.stream().filter(p -> !p.sessionId().equals(mine))
                .collect(Collectors.groupingBy(Presence::customerId, Collectors.toUnmodifiableList()));
        // Only a change is told: the list draws every row again at each (TableView.refresh makes all its cells anew),
        // and a read comes with every heartbeat and every editor opened. Told each time, choosing customers one after
        // another remade the list's cells at each, several GB of garbage in a minute's browsing (issue 30).
        if (!now.equals(others.get())) {
            others.set(now);
        }
        changeCount.set(changeCount.get() + 1);
    }

    /**
     * Counts every change to what {@link #alsoHere(Seat)} may say: each read of the others' presence, and each of
     * this client's editors arriving, leaving, or starting or stopping to edit.
     */
    public ReadOnlyLongProperty changeCountProperty() {
        return changeCount.getReadOnlyProperty();
    }

    /** Other sessions' presence by customer id; replaced whole by a read that finds it changed, and only then. */
    public ReadOnlyObjectProperty<Map<Long, List<Presence>>> othersProperty() {
        return others.getReadOnlyProperty();
    }

    /** Other sessions on {@code customerId}, editors first. */
    public List<Presence> others(long customerId) {
        return others.get().getOrDefault(customerId, List.of()).stream()
                .sorted((a, b) -> Boolean.compare(b.editing(), a.editing())).toList();
    }

    /** "Also here: Bob (editing), Carol", or empty when nobody else has the customer open. */
    public String alsoHere(long customerId) {
        return alsoHere(customerId, List.of());
    }

    /**
     * What the editor sitting on {@code seat} shows: "Also here: You (another window, editing), Bob (editing), Carol"
     * — this operator's other editors on the same customer first, then the other sessions' — or empty when nobody
     * else has the customer open.
     */
    public String alsoHere(Seat seat) {
        List<Seat> mineElsewhere = seats.stream().filter(s -> s != seat && s.customerId == seat.customerId).toList();
        return alsoHere(seat.customerId, mineElsewhere);
    }

    private String alsoHere(long customerId, List<Seat> mineElsewhere) {
        List<String> here = new ArrayList<>();
        if (!mineElsewhere.isEmpty()) {
            boolean editing = mineElsewhere.stream().anyMatch(s -> s.state == Presence.State.EDITING);
            here.add(editing
                    ? tr("You ({0, plural, one {another window} other {# other windows}}, editing)",
                            mineElsewhere.size())
                    : tr("You ({0, plural, one {another window} other {# other windows}})", mineElsewhere.size()));
        }
        others(customerId).stream().map(Presence::describe).distinct().forEach(here::add);
        return here.isEmpty() ? "" : tr("Also here: {0}", String.join(", ", here));
    }
}
