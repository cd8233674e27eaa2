package org.lockstep.editing;

import java.time.Clock;
import java.time.ZoneId;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import org.lockstep.concurrency.TaskExecutor;
import org.lockstep.domain.AcquireOutcome;
import org.lockstep.domain.ConcurrencyMode;
import org.lockstep.domain.Lease;
import org.lockstep.domain.LeaseInfo;
import org.lockstep.domain.LeaseKeeper;
import org.lockstep.domain.LeaseRepository;

/**
 * One editor's lease on the record it shows (PoEAA, Pessimistic Offline Lock), without any screen: taking it at the
 * first change in lock mode or on request, renewing it ({@link LeaseKeeper}), telling why it was lost (broken, taken,
 * lapsed), watching the holder while another holds it, breaking another's lease, and releasing it when the editor is
 * idle. A lease belongs to the writer id of its {@code leases} store: another editor of the same operator sees it as
 * {@link LockState.HeldInAnotherWindow} (docs/decisions/0012-one-writer-per-editor.md).
 *
 * <p>Confined to one thread, the {@code reportOn} executor's (the FX thread): every method is called there and every
 * {@link Listener} call happens there. Database calls run through the {@link TaskExecutor}, the holder poll too (a
 * timer only asks for it); timers run on {@code scheduler}.
 */
public final class LeaseSession {

    /**
     * What the session reports, on its thread: the state ({@code old} before {@code now}, called also when they are
     * equal); a banner text the state alone does not say (an idle warning); a switch of the editor's mode (taking the
     * lease means lock for editing); the record became free after another held it.
     */
    public interface Listener {
        /** The lock state was set. */
        void stateChanged(LockState old, LockState now);

        /** A banner text. */
        void message(String text);

        /** Switch the editor to {@code mode}. */
        void switchMode(ConcurrencyMode mode);

        /** The record became free. */
        void free();
    }

    private final LeaseRepository leases;
    private final TaskExecutor executor;
    private final Executor reportOn;
    private final ScheduledExecutorService scheduler;
    private final LeaseTimers timers;
    private final LeaseTexts texts;
    private final IdleWatch idle;
    private final Clock clock;
    private final ZoneId zone = ZoneId.systemDefault();
    private final LeaseSettings settings;
    private final Listener listener;

    private ConcurrencyMode mode = ConcurrencyMode.OPTIMISTIC;
    private LockState state = new LockState.Free();
    private long recordId = -1;
    private LeaseKeeper keeper;
    private long heldToken = -1;

    /**
     * @param leases    the lease store, acting as this editor's writer id
     * @param executor  runs database calls off the reporting thread
     * @param reportOn  the thread this session lives on ({@code Platform::runLater}); timers and renewals report there
     * @param scheduler runs renewals, the poll's ticks and the idle check
     * @param clock     measures elapsed time (idle, local lease deadline); never compared with the database clock
     */
    public LeaseSession(LeaseRepository leases, TaskExecutor executor, Executor reportOn,
            ScheduledExecutorService scheduler, Clock clock, LeaseSettings settings, Listener listener) {
        this.leases = Objects.requireNonNull(leases, "leases");
        this.executor = Objects.requireNonNull(executor, "executor");
        this.reportOn = Objects.requireNonNull(reportOn, "reportOn");
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.listener = Objects.requireNonNull(listener, "listener");
        this.timers = new LeaseTimers(scheduler, reportOn, settings.pollEvery());
        this.texts = new LeaseTexts(leases, zone);
        this.idle = new IdleWatch(clock, settings);
    }

    /** The record the session watches; -1 for none. */
    public long recordId() {
        return recordId;
    }

    /**
     * The editor's mode changed: leaving lock for editing lets a held or coming lease go. A lost lease means nothing
     * outside lock for editing: the editor stops believing it and asks the lease table who holds the record now, so
     * that it is editable unless someone really holds it (issue 27: after a broken lock, switching to optimistic left
     * the fields read-only for good).
     */
    public void modeChanged(ConcurrencyMode now) {
        mode = now;
        if (now == ConcurrencyMode.LOCK_FOR_EDITING) {
            return;
        }
        if (state instanceof LockState.Held || state instanceof LockState.Acquiring) {
            releaseHeld();
            set(new LockState.Free());
        } else if (state instanceof LockState.Lost) {
            set(new LockState.Free());
            checkHolderNow();
        }
    }

    /** The editor shows a record: learn whether someone else holds it (and if so, watch for the end). */
    public void attach(long customerId) {
        detach();
        recordId = customerId;
        long id = customerId;
        executor.task(() -> leases.holder(id)).onSuccess(holder -> {
            if (recordId == id) {
                blockedByOther(holder);
            }
        }).describedAs("ask who holds customer " + id + "'s lease").start();
    }

    /** The editor closes or shows another record: release a held lease, stop every timer. */
    public void detach() {
        releaseHeld();
        timers.stopPolling();
        recordId = -1;
        set(new LockState.Free());
    }

    /**
     * A lease on the record shown changed (the change feed said so), or the feed resynchronised: ask for the holder
     * now, so another operator's new lock turns the fields read-only as it is taken and "notify when free" fires the
     * moment it ends.
     */
    public void checkHolderNow() {
        long id = recordId;
        if (id >= 0 && state instanceof LockState.Held held) {
            checkStillHeld(id, held.lease().token());
            return;
        }
        if (id < 0 || !(blocked(state) || state instanceof LockState.Free)) {
            return;
        }
        executor.task(() -> leases.holder(id)).onSuccess(holder -> {
            if (recordId != id) {
                return;
            }
            if (state instanceof LockState.Free) {
                blockedByOther(holder); // someone just locked the record shown: say so now, not at the next save
            } else {
                polled(id, holder);
            }
        }).describedAs("ask who holds customer " + id + "'s lease").start();
    }

    /**
     * While this editor holds the lease, a lease change on its record may be someone breaking or taking it: the
     * lease table says whether the lease with {@code token} is still the record's; if not, the loss is told now, not
     * at the next renewal. The notification itself is only the reason to look. The holder and, when the lease is gone,
     * how it ended are read in one background call (issue 27, "told at once"): a second call would wait its turn on
     * the executor and the reporting thread again, the longest part of the delay on a busy client, where the reads
     * themselves take milliseconds. A failed read of the holder says nothing (the keeper's next renewal asks again);
     * a failed read of how it ended still tells the loss. The keeper records the loss in the trail first, as a refused
     * renewal would: the trainer's timeline shows "lost lease" from that row, whichever path found the loss.
     */
    private void checkStillHeld(long id, long token) {
        LeaseKeeper k = keeper;
        executor.task(() -> {
            Optional<LeaseInfo> holder = leases.holder(id);
            if (holder.isPresent() && holder.get().token() == token
                    && holder.get().sessionId().equals(leases.sessionId())) {
                return Optional.<String>empty();
            }
            if (k != null) {
                k.seenLost(token); // the trail records the loss, as when a renewal finds it
            }
            return Optional.of(lossReasonOrUnreachable(id, token, holder));
        }).onSuccess(why -> why.ifPresent(w -> lostFor(id, token, w)))
                .describedAs("ask whether customer " + id + "'s lease is still this editor's").start();
    }

    /** How the lease {@code token} of {@code id} ended, or that the database could not say. Blocking. */
    private String lossReasonOrUnreachable(long id, long token, Optional<LeaseInfo> current) {
        try {
            return texts.lossReason(id, token, current);
        } catch (RuntimeException e) {
            return LeaseTexts.unreachable();
        }
    }

    /** The operator changed something: in lock mode the first change takes the lease (as FileMaker does). */
    public void editingStarted() {
        activity();
        if (mode == ConcurrencyMode.LOCK_FOR_EDITING && state instanceof LockState.Free) {
            lock();
        }
    }

    /** Any keystroke or click in the editor: resets the idle timer. */
    public void activity() {
        idle.activity();
    }

    /** Takes the lease now, switching to lock mode. */
    public void lock() {
        if (recordId < 0 || state instanceof LockState.Acquiring || state instanceof LockState.Held) {
            return;
        }
        listener.switchMode(ConcurrencyMode.LOCK_FOR_EDITING);
        long id = recordId;
        LeaseKeeper k = new LeaseKeeper(leases, id, settings.ttl(), clock, scheduler, new LeaseKeeper.Listener() {
            @Override
            public void leaseLost(LeaseKeeper.LossReason reason, Optional<LeaseInfo> current) {
                reportOn.execute(() -> lost(id, current));
            }

            @Override
            public void leaseRenewed(Lease renewed) {
                reportOn.execute(() -> renewed(id, renewed));
            }
        });
        set(new LockState.Acquiring());
        executor.task(k::acquire).onSuccess(outcome -> acquired(id, k, outcome))
                .onFailure(failure -> set(new LockState.Lost(LeaseTexts.lockFailed(failure)))).start();
    }

    private void acquired(long id, LeaseKeeper k, AcquireOutcome outcome) {
        if (recordId != id) {
            k.close();
            return;
        }
        if (mode != ConcurrencyMode.LOCK_FOR_EDITING) {
            // Switched away from lock mode while the grant was on its way: the mode change already said Free.
            release(k);
            return;
        }
        if (outcome instanceof AcquireOutcome.Granted granted) {
            keeper = k;
            heldToken = granted.lease().token();
            activity();
            timers.startIdleCheck(this::checkIdle);
            set(new LockState.Held(granted.lease()));
        } else if (outcome instanceof AcquireOutcome.HeldByOther other) {
            blockedBy(other.holder());
        } else {
            k.close();
            set(new LockState.Lost(LeaseTexts.noSuchCustomer()));
        }
    }

    /** Releases {@code lease} as the writer that holds it (another window whose editor is gone), then looks again. */
    public void releaseAs(LeaseInfo lease) {
        LeaseRepository holderStore = leases.asWriter(lease.sessionId());
        executor.task(() -> holderStore.release(lease.recordId(), lease.token()))
                .onSuccess(released -> checkHolderNow())
                .onFailure(failure -> listener.message(LeaseTexts.releaseFailed(failure))).start();
    }

    /**
     * Lets go of {@code lease} if this session holds it, because the operator released it from another window; the
     * edits stay, as after an idle release.
     *
     * @return whether this session held it
     */
    public boolean releaseFromAnotherWindow(LeaseInfo lease) {
        if (!(state instanceof LockState.Held held) || held.lease().recordId() != lease.recordId()
                || held.lease().token() != lease.token()) {
            return false;
        }
        releaseHeld();
        set(new LockState.Free());
        listener.message(LockMessages.releasedFromAnotherWindow());
        return true;
    }

    /** Whether {@code lease} is held by another editor of this operator's client: another window, not this one. */
    public boolean heldInAnotherWindow(LeaseInfo lease) {
        return WriterIds.anotherWriterOfMyClient(lease.sessionId(), leases.sessionId());
    }

    /** Breaks another operator's lease (after the operator confirmed, naming them); then takes it. */
    public void breakLock() {
        if (recordId < 0) {
            return;
        }
        long id = recordId;
        executor.task(() -> leases.breakLease(id)).onSuccess(broken -> {
            timers.stopPolling();
            set(new LockState.Free());
            lock();
        }).onFailure(failure -> listener.message(LeaseTexts.breakFailed(failure))).start();
    }

    /** The fencing token for a save, when this session holds the lease. */
    public OptionalLong token() {
        return state instanceof LockState.Held held ? OptionalLong.of(held.lease().token()) : OptionalLong.empty();
    }

    /** Whether saves must go out under the lease: lock mode, and the lease held. */
    public boolean savesUnderLease() {
        return mode == ConcurrencyMode.LOCK_FOR_EDITING && token().isPresent();
    }

    /** A save came back saying the lease is gone: read-only, keeping the edits. */
    public void leaseLostOnSave(Optional<LeaseInfo> current) {
        // The database said the token is no longer the record's lease: stop renewing it too, or its next refused
        // renewal would report the loss again after the operator chose to go on without the lock. Its release is
        // refused as well (only the holder releases), harmlessly.
        releaseHeld();
        set(new LockState.Lost(texts.lostTo(current)));
    }

    /** A save came back refused because someone else holds the lease. */
    public void lockedOnSave(LeaseInfo holder) {
        blockedBy(holder);
    }

    /** After "Lost": go on without the lock (the caller switched the mode to optimistic). */
    public void continueOptimistically() {
        set(new LockState.Free());
    }

    /** Warns before, then releases the lease when the editor has been idle for the limit; the edits stay. */
    public void checkIdle() {
        if (state instanceof LockState.Held) {
            idle.check(() -> {
                releaseHeld();
                set(new LockState.Free());
            }, listener::message);
        }
    }

    /** Releases the lease (in the background) and stops every timer. */
    public void close() {
        detach();
    }

    /** The banner text for a state. */
    public String describe(LockState s) {
        return texts.describe(s);
    }

    /** Whether the idle warning is what the banner shows now (a renewal must not replace it). */
    public boolean idleWarned() {
        return idle.warned();
    }

    private void set(LockState now) {
        LockState old = state;
        state = now;
        listener.stateChanged(old, now);
    }

    /**
     * A renewal moved the lease's expiry: the state (and so the banner's "until …") follows it. Only for the grant
     * this session still holds on the record it shows; a renewal after a release, a loss or a switch is old news.
     */
    private void renewed(long id, Lease renewed) {
        if (recordId == id && state instanceof LockState.Held held && held.lease().token() == renewed.token()) {
            set(new LockState.Held(renewed));
        }
    }

    /** The keeper lost the lease: find out how it ended (broken by whom, or taken), then say so. */
    private void lost(long id, Optional<LeaseInfo> current) {
        long mine = heldToken;
        executor.task(() -> texts.lossReason(id, mine, current)).onSuccess(why -> lostFor(id, mine, why))
                .onFailure(failure -> lostFor(id, mine, LeaseTexts.unreachable()))
                .start();
    }

    /** The lease {@code token} of {@code id} was lost; a lease taken since (another token) is not this loss's. */
    private void lostFor(long id, long token, String why) {
        if (recordId == id && heldToken == token) {
            // The keeper that found the loss stopped renewing already; one told by the change feed has not, and must
            // stop (its release of a token no longer the record's is refused, harmlessly).
            releaseHeld();
            set(new LockState.Lost(why));
        }
    }

    /** Any lease but this editor's own blocks it: another operator's, or this operator's in another window. */
    private void blockedByOther(Optional<LeaseInfo> holder) {
        holder.filter(h -> !h.sessionId().equals(leases.sessionId())).ifPresent(this::blockedBy);
    }

    private void blockedBy(LeaseInfo holder) {
        set(blockedState(holder));
        startPolling();
    }

    private LockState blockedState(LeaseInfo holder) {
        return heldInAnotherWindow(holder) ? new LockState.HeldInAnotherWindow(holder)
                : new LockState.HeldByOther(holder);
    }

    private static boolean blocked(LockState s) {
        return s instanceof LockState.HeldByOther || s instanceof LockState.HeldInAnotherWindow;
    }

    /** While another holds the lease: ask for the holder every tick, through the executor (never on the timer). */
    private void startPolling() {
        long id = recordId;
        timers.startPolling(() -> pollOnce(id));
    }

    private void pollOnce(long id) {
        if (recordId != id || !blocked(state)) {
            return;
        }
        // The database may be away: the next tick asks again, so one failed question needs no word.
        executor.task(() -> leases.holder(id)).onSuccess(holder -> polled(id, holder)).onFailure(failure -> {})
                .start();
    }

    private void polled(long id, Optional<LeaseInfo> holder) {
        if (recordId != id || !blocked(state)) {
            return;
        }
        if (holder.isPresent() && !holder.get().sessionId().equals(leases.sessionId())) {
            set(blockedState(holder.get())); // renewed, or handed to someone else
            return;
        }
        timers.stopPolling();
        set(new LockState.Free());
        listener.free();
    }

    private void releaseHeld() {
        LeaseKeeper k = keeper;
        releaseLocally();
        if (k != null) {
            release(k);
        }
    }

    /** Releases a lease in the background; a failure leaves it to lapse by its TTL (logged at WARN). */
    private void release(LeaseKeeper k) {
        executor.task(() -> {
            k.close();
            return null;
        }).describedAs("release a lease (it lapses by its TTL)").start();
    }

    private void releaseLocally() {
        timers.stopIdleCheck();
        keeper = null;
        heldToken = -1;
    }
}
