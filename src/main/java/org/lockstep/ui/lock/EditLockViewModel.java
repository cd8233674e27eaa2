package org.lockstep.ui.lock;

import org.lockstep.domain.ConcurrencyMode;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.BooleanProperty;
import org.lockstep.domain.AcquireOutcome;
import org.lockstep.domain.Lease;
import org.lockstep.domain.LeaseEvent;
import org.lockstep.domain.LeaseInfo;
import org.lockstep.domain.LeaseKeeper;
import org.lockstep.domain.LeaseRepository;
import org.lockstep.concurrency.TaskExecutor;
import org.lockstep.ui.WriterIds;
import org.lockstep.ui.live.LiveUpdates;

/**
 * One editor's side of "Lock for editing" (PoEAA, Pessimistic Offline Lock): the mode switch, taking the lease at the
 * first change or on request, renewing it ({@link LeaseKeeper}), noticing its loss, showing who else holds the
 * record, watching for the moment it is free, breaking another's lock, and letting go when the editor is idle.
 *
 * <p>The lease belongs to this editor alone: its lease store acts as the editor's writer id, so another editor of the
 * same operator sees the lease as {@link LockState.HeldInAnotherWindow}, read-only, with "Release there"
 * ({@link #releaseInAnotherWindow()}) instead of breaking it (docs/decisions/0012-one-writer-per-editor.md).
 *
 * <p>All properties change on the FX thread ({@code fxThread}); database calls run through the {@link TaskExecutor};
 * timers run on {@code scheduler}. The editor asks {@link #token()} for the fencing token of a save, and
 * {@link #readOnlyProperty()} says when its fields must not be edited.
 */
public final class EditLockViewModel {

    /** Timings of the lock; see the defaults. */
    public record Settings(Duration ttl, Duration idleLimit, Duration idleWarning, Duration pollEvery) {
        /** TTL 60 s (renewed every 20 s), released after 15 idle minutes with a warning a minute before, polls 2 s
         *  while the change feed is not Live. */
        public static Settings defaults(Duration ttl) {
            return defaults(ttl, Duration.ofMinutes(15));
        }

        /** The defaults with another idle limit; the warning comes a minute before it (or halfway, if shorter). */
        public static Settings defaults(Duration ttl, Duration idleLimit) {
            Duration warning = idleLimit.compareTo(Duration.ofMinutes(2)) < 0 ? idleLimit.dividedBy(2)
                    : Duration.ofMinutes(1);
            return new Settings(ttl, idleLimit, warning, Duration.ofSeconds(2));
        }
    }

    private final LeaseRepository leases;
    private final TaskExecutor executor;
    private final Executor fxThread;
    private final ScheduledExecutorService scheduler;
    private final Clock clock;
    private final ZoneId zone;
    private final Settings settings;
    // The client's other editors' locks, for "Release there"; null when this lock stands alone.
    private final OpenLocks openLocks;

    private final ObjectProperty<ConcurrencyMode> mode = new SimpleObjectProperty<>(this, "mode", ConcurrencyMode.OPTIMISTIC) {
        @Override
        public void set(ConcurrencyMode next) {
            if (next == ConcurrencyMode.LAST_WRITE_WINS && !lastWriteWinsAllowed) {
                throw new IllegalStateException("Last write wins (unsafe) is for teaching only: it is allowed in "
                        + "lockstep demo or with --allow-unsafe");
            }
            super.set(next);
        }
    };
    // Set once, before the editor shows: the unsafe mode exists only in the demo or with --allow-unsafe.
    private boolean lastWriteWinsAllowed;
    private final ReadOnlyObjectWrapper<LockState> state = new ReadOnlyObjectWrapper<>(this, "state",
            new LockState.Free());
    private final ReadOnlyBooleanWrapper readOnly = new ReadOnlyBooleanWrapper(this, "readOnly");
    private final ReadOnlyStringWrapper message = new ReadOnlyStringWrapper(this, "message", "");
    private final BooleanProperty notifyWhenFree = new SimpleBooleanProperty(this, "notifyWhenFree");

    private long recordId = -1;
    private LeaseKeeper keeper;
    private volatile long heldToken = -1;
    private ScheduledFuture<?> poll;
    private ScheduledFuture<?> idleCheck;
    private long lastActivityMillis;
    private boolean idleWarned;
    private Runnable onFree = () -> { };
    private Runnable onNotifyFree = () -> { };
    private final List<Runnable> unsubscribe = new ArrayList<>();

    /**
     * A lock that knows no other editor of its client: "Release there" releases the other window's lease directly.
     *
     * @param leases    the lease store, acting as this editor's writer id (or a client session)
     * @param executor  runs database calls off the FX thread
     * @param fxThread  delivers timer and renewal results to the FX thread ({@code Platform::runLater})
     * @param scheduler runs renewals, polls and the idle check
     * @param clock     measures elapsed time (idle, local lease deadline); never compared with the database clock
     * @param settings  TTL, idle limit, poll interval
     */
    public EditLockViewModel(LeaseRepository leases, TaskExecutor executor, Executor fxThread,
                             ScheduledExecutorService scheduler, Clock clock, Settings settings) {
        this(leases, executor, fxThread, scheduler, clock, settings, null);
    }

    /**
     * As the other constructor, with the locks of the client's other editors: "Release there" asks the editor that
     * holds the lease to let it go, so that it says so and keeps its edits.
     *
     * @param openLocks every open editor's lock of this client; {@code null}: none known
     */
    public EditLockViewModel(LeaseRepository leases, TaskExecutor executor, Executor fxThread,
                             ScheduledExecutorService scheduler, Clock clock, Settings settings, OpenLocks openLocks) {
        this.openLocks = openLocks;
        this.leases = leases;
        this.executor = executor;
        this.fxThread = fxThread;
        this.scheduler = scheduler;
        this.clock = clock;
        this.zone = ZoneId.systemDefault();
        this.settings = settings;
        state.addListener((obs, old, now) -> {
            readOnly.set(now instanceof LockState.HeldByOther || now instanceof LockState.HeldInAnotherWindow
                    || now instanceof LockState.Lost);
            // A renewal while the idle warning shows keeps the warning: it is what the operator must read now.
            if (!(old instanceof LockState.Held && now instanceof LockState.Held && idleWarned)) {
                message.set(describe(now));
            }
        });
        mode.addListener((obs, old, now) -> {
            // Leaving lock mode lets the lease go: neither optimistic nor last-write-wins editing holds one.
            if (now != ConcurrencyMode.LOCK_FOR_EDITING && (state.get() instanceof LockState.Held
                    || state.get() instanceof LockState.Acquiring)) {
                releaseHeld();
                state.set(new LockState.Free());
            }
        });
    }

    /**
     * Follows the change feed: a {@code record_lease} change for the record this editor shows makes it ask for the
     * holder at once, so that another operator's new lock turns the fields read-only (with the holder's name) as it
     * is taken, and "Notify me when free" fires the moment a lease is released, broken or taken over
     * (issue 5). The poll every {@link Settings#pollEvery()} goes on regardless: a lease that lapses because its
     * holder crashed changes no row, so no notification ever tells of its end. Call once, on the FX thread.
     */
    public void follow(LiveUpdates live) {
        unsubscribe.add(live.subscribe(batch -> {
            long id = recordId;
            if (id >= 0 && batch.stream().anyMatch(c -> c.event().isLease() && c.event().id() == id)) {
                checkHolderNow();
            }
        }));
        // Lease changes sent while the feed was away are gone: ask again.
        unsubscribe.add(live.onResync(this::checkHolderNow));
    }

    private void checkHolderNow() {
        long id = recordId;
        LockState now = state.get();
        if (id < 0 || !(blocked(now) || now instanceof LockState.Free)) {
            return;
        }
        executor.execute(() -> leases.holder(id), holder -> {
            if (recordId != id) {
                return;
            }
            if (state.get() instanceof LockState.Free) {
                blockedByOther(holder); // someone just locked the record shown: say so now, not at the next save
            } else {
                polled(id, holder);
            }
        }, null);
    }

    /** The editor shows a record: learn whether someone else holds it (and if so, watch for the end). */
    public void attach(long customerId) {
        detach();
        recordId = customerId;
        long id = customerId;
        executor.execute(() -> leases.holder(id), holder -> {
            if (recordId != id) {
                return;
            }
            blockedByOther(holder);
        }, null);
    }

    /** The editor closes or shows another record: release a held lease, stop every timer. */
    public void detach() {
        releaseHeld();
        stopPolling();
        recordId = -1;
        state.set(new LockState.Free());
    }

    /** The operator changed something: in lock mode the first change takes the lease (as FileMaker does). */
    public void editingStarted() {
        activity();
        if (mode.get() == ConcurrencyMode.LOCK_FOR_EDITING && state.get() instanceof LockState.Free) {
            lock();
        }
    }

    /** Any keystroke or click in the editor: resets the idle timer. */
    public void activity() {
        lastActivityMillis = clock.millis();
        idleWarned = false;
    }

    /** Takes the lease now (the Lock button), switching to lock mode. */
    public void lock() {
        if (recordId < 0 || state.get() instanceof LockState.Acquiring || state.get() instanceof LockState.Held) {
            return;
        }
        mode.set(ConcurrencyMode.LOCK_FOR_EDITING);
        long id = recordId;
        LeaseKeeper k = new LeaseKeeper(leases, id, settings.ttl(), clock, scheduler, new LeaseKeeper.Listener() {
            @Override
            public void leaseLost(LeaseKeeper.LossReason reason, Optional<LeaseInfo> current) {
                lost(id, current);
            }

            @Override
            public void leaseRenewed(Lease renewed) {
                fxThread.execute(() -> renewed(id, renewed));
            }
        });
        state.set(new LockState.Acquiring());
        executor.execute(k::acquire, outcome -> {
            if (recordId != id) {
                k.close();
                return;
            }
            if (mode.get() != ConcurrencyMode.LOCK_FOR_EDITING) {
                // Switched away from lock mode while the grant was on its way: the mode listener already said Free.
                release(k);
                return;
            }
            if (outcome instanceof AcquireOutcome.Granted granted) {
                keeper = k;
                heldToken = granted.lease().token();
                activity();
                startIdleCheck();
                state.set(new LockState.Held(granted.lease()));
            } else if (outcome instanceof AcquireOutcome.HeldByOther other) {
                blockedBy(other.holder());
            } else {
                k.close();
                state.set(new LockState.Lost("Could not lock: this customer no longer exists"));
            }
        }, failure -> state.set(new LockState.Lost("Could not lock: " + failure.getMessage())));
    }

    /**
     * "Release there": the lease this editor waits on is held by another editor of the same operator (another
     * window), and the operator lets it go from here. That editor keeps its edits and says the lock was released
     * from another window; this one learns that the record is free as from any release. When no open editor of this
     * client holds it any more (its release on closing failed), the lease is released as the writer that holds it.
     */
    public void releaseInAnotherWindow() {
        if (!(state.get() instanceof LockState.HeldInAnotherWindow there)) {
            return;
        }
        LeaseInfo lease = there.holder();
        if (openLocks != null && openLocks.releaseHeld(lease)) {
            checkHolderNow();
            return;
        }
        LeaseRepository holderStore = leases.asWriter(lease.sessionId());
        executor.execute(() -> holderStore.release(lease.recordId(), lease.token()), released -> checkHolderNow(),
                failure -> message.set("Could not release the lock: " + failure.getMessage()));
    }

    /**
     * Lets go of {@code lease} if this editor holds it, because the operator released it from another window; the
     * edits stay, as after an idle release.
     *
     * @return whether this editor held it
     */
    boolean releaseFromAnotherWindow(LeaseInfo lease) {
        if (!(state.get() instanceof LockState.Held held) || held.lease().recordId() != lease.recordId()
                || held.lease().token() != lease.token()) {
            return false;
        }
        releaseHeld();
        state.set(new LockState.Free());
        message.set(LockMessages.releasedFromAnotherWindow());
        return true;
    }

    /** Whether {@code lease} is held by another editor of this operator's client: another window, not this one. */
    public boolean heldInAnotherWindow(LeaseInfo lease) {
        return WriterIds.anotherWriterOfMyClient(lease.sessionId(), leases.sessionId());
    }

    /**
     * A renewal moved the lease's expiry: the state (and so the banner's "until …") follows it. Only for the grant
     * this editor still holds on the record it shows; a renewal that arrives after a release, a loss or a switch to
     * another record is old news.
     */
    private void renewed(long id, Lease renewed) {
        if (recordId == id && state.get() instanceof LockState.Held held
                && held.lease().token() == renewed.token()) {
            state.set(new LockState.Held(renewed));
        }
    }

    /** Breaks another operator's lock (after the view's confirmation naming them); then takes it. */
    public void breakLock() {
        if (recordId < 0) {
            return;
        }
        long id = recordId;
        executor.execute(() -> leases.breakLease(id), broken -> {
            stopPolling();
            state.set(new LockState.Free());
            lock();
        }, failure -> message.set("Could not break the lock: " + failure.getMessage()));
    }

    /** The fencing token for a save, when this editor holds the lease. */
    public OptionalLong token() {
        return state.get() instanceof LockState.Held held ? OptionalLong.of(held.lease().token())
                : OptionalLong.empty();
    }

    /** Whether saves must go out under a lease: lock mode, and the lease held. */
    public boolean savesUnderLease() {
        return mode.get() == ConcurrencyMode.LOCK_FOR_EDITING && token().isPresent();
    }

    /** A save came back saying the lease is gone: turn read-only, keeping the edits. */
    public void leaseLostOnSave(Optional<LeaseInfo> current) {
        releaseLocally();
        state.set(new LockState.Lost(lostTo(current)));
    }

    /** Why the lease is gone, naming who holds the record now, when someone other than this editor does. */
    private String lostTo(Optional<LeaseInfo> current) {
        return current.filter(h -> !h.sessionId().equals(leases.sessionId()))
                .map(h -> heldInAnotherWindow(h) ? LockMessages.takenInAnotherWindow(h, zone)
                        : LockMessages.takenBy(h, zone))
                .orElse("Edit lock lost — your edits are kept");
    }

    /** A save came back refused because someone else holds the lease. */
    public void lockedOnSave(LeaseInfo holder) {
        blockedBy(holder);
    }

    /** After "Lost": go on without the lock; the next save is optimistic (and may become a merge). */
    public void continueOptimistically() {
        mode.set(ConcurrencyMode.OPTIMISTIC);
        state.set(new LockState.Free());
    }

    /** Called when the record became free after being held by someone else; the editor reloads the newest version. */
    public void setOnFree(Runnable listener) {
        this.onFree = listener;
    }

    /** Called when the record became free and "Notify me when free" was on. */
    public void setOnNotifyFree(Runnable listener) {
        this.onNotifyFree = listener;
    }

    /** Releases the lease (in the background), stops every timer and stops following the feed; call on close. */
    public void close() {
        detach();
        unsubscribe.forEach(Runnable::run);
        unsubscribe.clear();
    }

    /**
     * Any lease but this editor's own blocks it: another operator's, or one this operator holds in another window
     * (one lease, one editor).
     */
    private void blockedByOther(Optional<LeaseInfo> holder) {
        holder.filter(h -> !h.sessionId().equals(leases.sessionId())).ifPresent(this::blockedBy);
    }

    private void blockedBy(LeaseInfo holder) {
        state.set(blockedState(holder));
        startPolling();
    }

    private LockState blockedState(LeaseInfo holder) {
        return heldInAnotherWindow(holder) ? new LockState.HeldInAnotherWindow(holder)
                : new LockState.HeldByOther(holder);
    }

    private static boolean blocked(LockState s) {
        return s instanceof LockState.HeldByOther || s instanceof LockState.HeldInAnotherWindow;
    }

    private void startPolling() {
        stopPolling();
        long id = recordId;
        long every = settings.pollEvery().toMillis();
        poll = scheduler.scheduleWithFixedDelay(() -> {
            Optional<LeaseInfo> holder;
            try {
                holder = leases.holder(id);
            } catch (RuntimeException e) {
                return; // the database is away; ask again at the next tick
            }
            fxThread.execute(() -> polled(id, holder));
        }, every, every, TimeUnit.MILLISECONDS);
    }

    private void polled(long id, Optional<LeaseInfo> holder) {
        if (recordId != id || !blocked(state.get())) {
            return;
        }
        if (holder.isPresent() && !holder.get().sessionId().equals(leases.sessionId())) {
            state.set(blockedState(holder.get())); // renewed, or handed to someone else
            return;
        }
        stopPolling();
        state.set(new LockState.Free());
        onFree.run();
        if (notifyWhenFree.get()) {
            notifyWhenFree.set(false);
            onNotifyFree.run();
        }
    }

    private void stopPolling() {
        if (poll != null) {
            poll.cancel(false);
            poll = null;
        }
    }

    private void startIdleCheck() {
        stopIdleCheck();
        idleCheck = scheduler.scheduleWithFixedDelay(() -> fxThread.execute(this::checkIdle), 1, 1, TimeUnit.SECONDS);
    }

    /** Warns before, then releases the lease when the editor has been idle for the limit; the edits stay. */
    public void checkIdle() {
        if (!(state.get() instanceof LockState.Held)) {
            return;
        }
        long idle = clock.millis() - lastActivityMillis;
        if (idle >= settings.idleLimit().toMillis()) {
            releaseHeld();
            state.set(new LockState.Free());
            message.set("Lock released after " + LockMessages.duration(settings.idleLimit())
                    + " without activity — your edits are kept. Lock again to continue.");
        } else if (!idleWarned && idle >= settings.idleLimit().minus(settings.idleWarning()).toMillis()) {
            idleWarned = true;
            message.set("No activity for " + Duration.ofMillis(idle).toMinutes() + " minutes — the lock will be "
                    + "released in " + settings.idleWarning().toSeconds() + " s unless you continue editing.");
        }
    }

    private void stopIdleCheck() {
        if (idleCheck != null) {
            idleCheck.cancel(false);
            idleCheck = null;
        }
    }

    private void lost(long id, Optional<LeaseInfo> current) {
        // On the scheduler's thread: find out how it ended, then tell the FX thread.
        String why;
        try {
            List<LeaseEvent> events = leases.events(id);
            long mine = heldToken;
            Optional<LeaseEvent> broken = events.stream()
                    .filter(e -> e.kind() == LeaseEvent.Kind.BROKEN && e.token() == mine).findFirst();
            if (broken.isPresent()) {
                why = LockMessages.brokenBy(broken.get().actor(), broken.get().at(), zone);
            } else {
                why = lostTo(current);
            }
        } catch (RuntimeException e) {
            why = "Edit lock lost — the database could not be reached; your edits are kept";
        }
        String message = why;
        fxThread.execute(() -> {
            if (recordId == id) {
                releaseLocally();
                state.set(new LockState.Lost(message));
            }
        });
    }

    private void releaseHeld() {
        LeaseKeeper k = keeper;
        releaseLocally();
        if (k != null) {
            release(k);
        }
    }

    /** Releases a lease in the background; a failure leaves it to lapse by its TTL. */
    private void release(LeaseKeeper k) {
        executor.execute(() -> {
            k.close();
            return null;
        }, ignored -> { }, null);
    }

    private void releaseLocally() {
        stopIdleCheck();
        keeper = null;
        heldToken = -1;
    }

    private String describe(LockState s) {
        if (s instanceof LockState.HeldByOther other) {
            return LockMessages.heldByOther(other.holder(), zone);
        }
        if (s instanceof LockState.HeldInAnotherWindow there) {
            return LockMessages.heldInAnotherWindow(there.holder(), zone);
        }
        if (s instanceof LockState.Lost lost) {
            return lost.message();
        }
        if (s instanceof LockState.Held held) {
            return "Locked for editing by you until " + LockMessages.time(held.lease().expiresAt(), zone)
                    + " (renewed while you edit) · fencing token " + held.lease().token();
        }
        if (s instanceof LockState.Acquiring) {
            return "Locking…";
        }
        return "";
    }

    /**
     * The mode: optimistic (default), lock for editing, or — only once {@link #allowLastWriteWins()} was called —
     * last write wins (unsafe). Switching away from lock for editing releases a held lease. Setting
     * {@link Mode#LAST_WRITE_WINS} without the allowance throws {@link IllegalStateException}.
     */
    public ObjectProperty<ConcurrencyMode> modeProperty() {
        return mode;
    }

    /**
     * Allows {@link Mode#LAST_WRITE_WINS} for this editor (the trainer's demo, or {@code --allow-unsafe}). Without it
     * the unsafe mode cannot be chosen. Call before the editor shows.
     */
    public void allowLastWriteWins() {
        lastWriteWinsAllowed = true;
    }

    /** Whether {@link Mode#LAST_WRITE_WINS} may be chosen in this editor; the view shows it only then. */
    public boolean lastWriteWinsAllowed() {
        return lastWriteWinsAllowed;
    }

    /** Whether saves are blind overwrites: the mode is {@link Mode#LAST_WRITE_WINS} (teaching only). */
    public boolean savesLastWriteWins() {
        return mode.get() == ConcurrencyMode.LAST_WRITE_WINS;
    }

    /** Where this editor stands with the lock. */
    public ReadOnlyObjectProperty<LockState> stateProperty() {
        return state.getReadOnlyProperty();
    }

    /**
     * Whether the editor must not be edited: someone else holds the lock — another operator, or this operator in
     * another window — or this editor lost it.
     */
    public ReadOnlyBooleanProperty readOnlyProperty() {
        return readOnly.getReadOnlyProperty();
    }

    /** The lock's banner text; empty when there is nothing to say. */
    public ReadOnlyStringProperty messageProperty() {
        return message.getReadOnlyProperty();
    }

    /** "Notify me when free": set while waiting; cleared once the notification fired. */
    public BooleanProperty notifyWhenFreeProperty() {
        return notifyWhenFree;
    }
}
