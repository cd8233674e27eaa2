package org.lockstep.ui.lock;

import org.lockstep.editing.LeaseSettings;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleObjectProperty;
import org.lockstep.concurrency.TaskExecutor;
import org.lockstep.domain.ConcurrencyMode;
import org.lockstep.domain.LeaseInfo;
import org.lockstep.domain.LeaseRepository;
import org.lockstep.editing.LeaseSession;
import org.lockstep.editing.LockState;
import org.lockstep.ui.live.LiveUpdates;

/**
 * One editor's side of "Lock for editing" (PoEAA, Pessimistic Offline Lock), as the screen shows it: the mode
 * switch, the lock state, the banner, read-only while another holds the record, "Notify me when free". The lease
 * itself — taking, renewing, polling the holder, breaking, idle release, why it was lost — is the
 * {@link LeaseSession}'s; this view model turns its reports into properties.
 *
 * <p>The lease belongs to this editor alone: another editor of the same operator sees it as
 * {@link LockState.HeldInAnotherWindow}, read-only, with "Release there" ({@link #releaseInAnotherWindow()}) instead
 * of breaking it (docs/decisions/0012-one-writer-per-editor.md). All properties change on the FX thread.
 */
public final class EditLockViewModel {

    private final LeaseSession session;
    // The client's other editors' locks, for "Release there"; null when this lock stands alone.
    private final OpenLocks openLocks;

    private final ObjectProperty<ConcurrencyMode> mode =
            new SimpleObjectProperty<>(this, "mode", ConcurrencyMode.OPTIMISTIC) {
                @Override
                public void set(ConcurrencyMode next) {
                    if (next == ConcurrencyMode.LAST_WRITE_WINS && !lastWriteWinsAllowed) {
                        throw new IllegalStateException("Last write wins (unsafe) is for teaching only: it is allowed"
                                + " in lockstep demo or with --allow-unsafe");
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
    // Whether the message says the state (said again in another language), not news the session sent.
    private boolean described = true;
    private final BooleanProperty notifyWhenFree = new SimpleBooleanProperty(this, "notifyWhenFree");
    private Runnable onFree = () -> {};
    private Runnable onNotifyFree = () -> {};
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
    private boolean mayBreakLocks = true;

    public EditLockViewModel(LeaseRepository leases, TaskExecutor executor, Executor fxThread,
            ScheduledExecutorService scheduler, Clock clock, LeaseSettings settings) {
        this(leases, executor, fxThread, scheduler, clock, settings, null);
    }

    /**
     * As the other constructor, with the locks of the client's other editors: "Release there" asks the editor that
     * holds the lease to let it go, so that it says so and keeps its edits.
     *
     * @param openLocks every open editor's lock of this client; {@code null}: none known
     */
    public EditLockViewModel(LeaseRepository leases, TaskExecutor executor, Executor fxThread,
            ScheduledExecutorService scheduler, Clock clock, LeaseSettings settings,
            OpenLocks openLocks) {
        this.openLocks = openLocks;
        this.session = new LeaseSession(leases, executor, fxThread, scheduler, clock, settings, new Reports());
        mode.addListener((obs, old, now) -> session.modeChanged(now));
    }

    /** The session's reports, turned into properties. */
    private final class Reports implements LeaseSession.Listener {
        @Override
        public void stateChanged(LockState old, LockState now) {
            state.set(now);
            if (Objects.equals(old, now)) {
                return; // the same state again (Free after Free): the banner keeps what it says
            }
            readOnly.set(now instanceof LockState.HeldByOther || now instanceof LockState.HeldInAnotherWindow
                    || now instanceof LockState.Lost);
            // A renewal while the idle warning shows keeps the warning: it is what the operator must read now.
            if (!(old instanceof LockState.Held && now instanceof LockState.Held && session.idleWarned())) {
                message.set(session.describe(now));
                described = true;
            }
        }

        @Override
        public void message(String text) {
            message.set(text);
            described = false;
        }

        @Override
        public void switchMode(ConcurrencyMode next) {
            mode.set(next);
        }

        @Override
        public void free() {
            onFree.run();
            if (notifyWhenFree.get()) {
                notifyWhenFree.set(false);
                onNotifyFree.run();
            }
        }
    }

    /**
     * Follows the change feed: a {@code record_lease} change for the record this editor shows makes it ask for the
     * holder at once, so another operator's new lock turns the fields read-only as it is taken, and "Notify me when
     * free" fires the moment a lease is released, broken or taken over. The poll goes on regardless: a lease that
     * lapses because its holder crashed changes no row. Call once, on the FX thread.
     */
    public void follow(LiveUpdates live) {
        unsubscribe.add(live.subscribe(batch -> {
            long id = session.recordId();
            if (id >= 0 && batch.stream().anyMatch(c -> c.event().isLease() && c.event().id() == id)) {
                session.checkHolderNow();
            }
        }));
        // Lease changes sent while the feed was away are gone: ask again.
        unsubscribe.add(live.onResync(session::checkHolderNow));
    }

    /** The editor shows a record: learn whether someone else holds it (and if so, watch for the end). */
    public void attach(long customerId) {
        session.attach(customerId);
    }

    /** The editor closes or shows another record: release a held lease, stop every timer. */
    public void detach() {
        session.detach();
    }

    /** The operator changed something: in lock mode the first change takes the lease (as FileMaker does). */
    public void editingStarted() {
        session.editingStarted();
    }

    /** Any keystroke or click in the editor: resets the idle timer. */
    public void activity() {
        session.activity();
    }

    /** Takes the lease now (the Lock button), switching to lock mode. */
    public void lock() {
        session.lock();
    }

    /**
     * "Release there": the lease this editor waits on is held by another editor of the same operator (another
     * window), and the operator lets it go from here. That editor keeps its edits and says the lock was released
     * from another window; when no open editor of this client holds it any more (its release on closing failed), the
     * lease is released as the writer that holds it.
     */
    public void releaseInAnotherWindow() {
        if (!(state.get() instanceof LockState.HeldInAnotherWindow there)) {
            return;
        }
        if (openLocks != null && openLocks.releaseHeld(there.holder())) {
            session.checkHolderNow();
            return;
        }
        session.releaseAs(there.holder());
    }

    /** Lets go of {@code lease} if this editor holds it (released from another window); the edits stay. */
    boolean releaseFromAnotherWindow(LeaseInfo lease) {
        return session.releaseFromAnotherWindow(lease);
    }

    /** Whether {@code lease} is held by another editor of this operator's client: another window, not this one. */
    public boolean heldInAnotherWindow(LeaseInfo lease) {
        return session.heldInAnotherWindow(lease);
    }

    /** This operator may not break another's lock (not a supervisor on a team server): the editor does not offer it. */
    public void onlySupervisorsBreakLocks() {
        mayBreakLocks = false;
    }

    /** Whether this operator may break another's lock (a supervisor, or anyone on the embedded server). */
    public boolean mayBreakLocks() {
        return mayBreakLocks;
    }

    /** Breaks another operator's lock (after the view's confirmation naming them); then takes it. */
    public void breakLock() {
        session.breakLock();
    }

    /** The fencing token for a save, when this editor holds the lease. */
    public OptionalLong token() {
        return session.token();
    }

    /** Whether saves must go out under a lease: lock mode, and the lease held. */
    public boolean savesUnderLease() {
        return session.savesUnderLease();
    }

    /** A save came back saying the lease is gone: turn read-only, keeping the edits. */
    public void leaseLostOnSave(Optional<LeaseInfo> current) {
        session.leaseLostOnSave(current);
    }

    /** A save came back refused because someone else holds the lease. */
    public void lockedOnSave(LeaseInfo holder) {
        session.lockedOnSave(holder);
    }

    /** After "Lost": go on without the lock; the next save is optimistic (and may become a merge). */
    public void continueOptimistically() {
        mode.set(ConcurrencyMode.OPTIMISTIC);
        session.continueOptimistically();
    }

    /** Called when the record became free after being held by someone else; the editor reloads the newest version. */
    public void setOnFree(Runnable listener) {
        this.onFree = listener;
    }

    /** Called when the record became free and "Notify me when free" was on. */
    public void setOnNotifyFree(Runnable listener) {
        this.onNotifyFree = listener;
    }

    /**
     * Says the lock's state again in the language now chosen (a language switch): "Bob is editing this customer…",
     * "Locked for you until…". A message about something that happened (the idle warning, a lost lock's reason) keeps
     * its words. Reads nothing; FX thread.
     */
    public void speakAgain() {
        if (described) {
            message.set(session.describe(state.get()));
        }
    }

    /** Releases the lease (in the background), stops every timer and stops following the feed; call on close. */
    public void close() {
        session.close();
        unsubscribe.forEach(Runnable::run);
        unsubscribe.clear();
    }

    /** Warns before, then releases the lease when the editor has been idle for the limit; the edits stay. */
    public void checkIdle() {
        session.checkIdle();
    }

    /**
     * The mode: optimistic (default), lock for editing, or — only once {@link #allowLastWriteWins()} was called —
     * last write wins (unsafe). Switching away from lock for editing releases a held lease. Setting
     * {@link ConcurrencyMode#LAST_WRITE_WINS} without the allowance throws {@link IllegalStateException}.
     */
    public ObjectProperty<ConcurrencyMode> modeProperty() {
        return mode;
    }

    /** Allows {@link ConcurrencyMode#LAST_WRITE_WINS} for this editor (the demo, {@code --allow-unsafe}). */
    public void allowLastWriteWins() {
        lastWriteWinsAllowed = true;
    }

    /** Whether {@link ConcurrencyMode#LAST_WRITE_WINS} may be chosen in this editor; the view shows it only then. */
    public boolean lastWriteWinsAllowed() {
        return lastWriteWinsAllowed;
    }

    /** Whether saves are blind overwrites: the mode is {@link ConcurrencyMode#LAST_WRITE_WINS} (teaching only). */
    public boolean savesLastWriteWins() {
        return mode.get() == ConcurrencyMode.LAST_WRITE_WINS;
    }

    /** Where this editor stands with the lock. */
    public ReadOnlyObjectProperty<LockState> stateProperty() {
        return state.getReadOnlyProperty();
    }

    /** Whether the editor must not be edited: someone else holds the lock, or this editor lost it. */
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
