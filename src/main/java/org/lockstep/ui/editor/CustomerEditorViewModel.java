package org.lockstep.ui.editor;

import org.lockstep.domain.ConcurrencyMode;
import java.time.Clock;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import javafx.beans.Observable;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.StringProperty;
import org.lockstep.domain.ChangeEvent;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.CustomerRepository;
import org.lockstep.domain.DeleteOutcome;
import org.lockstep.domain.FieldError;
import org.lockstep.domain.InvalidCustomerException;
import org.lockstep.domain.OutcomeUnknownException;
import org.lockstep.domain.RecordBusyException;
import org.lockstep.domain.SaveOutcome;
import org.lockstep.domain.HistoryRepository;
import org.lockstep.domain.HotRecordAdvice;
import org.lockstep.domain.Presence;
import org.lockstep.domain.LeaseInfo;
import org.lockstep.ui.EditorServices;
import org.lockstep.concurrency.TaskExecutor;
import org.lockstep.ui.live.LiveUpdates;
import org.lockstep.ui.lock.EditLockViewModel;
import org.lockstep.ui.lock.HolderMessaging;
import org.lockstep.editing.LockMessages;
import org.lockstep.editing.LockState;
import org.lockstep.ui.lock.OpenLocks;
import org.lockstep.ui.merge.DeleteConflictViewModel;
import org.lockstep.ui.merge.MergeHeader;
import org.lockstep.ui.merge.MergeViewModel;
import org.lockstep.ui.presence.PresenceBoard;

/**
 * One customer editor: loads a record, buffers the operator's edits, validates them while typing and saves them
 * with a versioned save (PoEAA, Optimistic Offline Lock). Every database call runs through the {@link TaskExecutor};
 * results are applied on the FX thread, which is the only thread that may touch this object.
 *
 * <p>Saves from one editor are serialized: a save requested while another is in flight waits in a queue and then
 * uses the version that one returned, so an operator never conflicts with their own save. A queued save whose values
 * the database already holds is skipped rather than written as an empty new version.
 *
 * <p>A save that matches zero rows raises a three-way merge ({@link #mergeProperty()}, issue 3); a delete that
 * matches zero rows raises a {@link DeleteConflictViewModel} ({@link #deleteConflictProperty()}). Nothing is
 * overwritten until the operator chooses. A failed call keeps every edit and says so in {@link #noticeProperty()}.
 *
 * <p>Each editor has an {@link EditLockViewModel} ({@link #lock()}, issue 4): it learns on load whether someone else
 * holds the record's lease, takes the lease at the first change in lock mode, and makes the fields read-only while
 * another holds it or after this editor lost it. Saves and deletes go out fenced by the lease's token while this
 * editor holds it; a save refused by another's lease, or by a lost one, keeps every edit.
 *
 * <p>Each editor writes as a writer id of its own ({@link EditorServices#forNewEditor()}): two windows of one operator
 * are two writers. A save from another window is announced here like anyone's ("You saved version 8 in another
 * window — Review"), and a lease held in another window makes this editor read-only ("Locked by you in another
 * window") and refuses its saves, under the lease and optimistic alike (docs/decisions/0012-one-writer-per-editor.md).
 *
 * <p>In the trainer's "Last write wins (unsafe)" mode ({@link ConcurrencyMode#LAST_WRITE_WINS}, issue 6) a save
 * is a blind {@link CustomerRepository#overwrite} instead: no version check and never a merge, so a save committed
 * by another operator in between is lost without any error — the bug the other modes prevent, shown on purpose.
 */
public final class CustomerEditorViewModel {

    /** The notice after a save failed for any reason other than invalid values. */
    public static final String SAVE_FAILED = "Can't reach the database — your changes are kept. Try Save again.";
    /** The notice after a save whose reply was lost for good: it may or may not have been saved. */
    public static final String SAVE_OUTCOME_UNKNOWN = "The connection was lost while saving: Lockstep can't tell "
            + "whether it was saved. Your changes are kept — Save again once the database is back; it will not save "
            + "twice.";

    private final CustomerRepository repository;
    // This editor's writer id: its saves carry it, its lease names it.
    private final String writerId;
    private final HistoryRepository history;
    private final TaskExecutor executor;
    private final String user;
    private final Clock clock;
    private final EditLockViewModel lock;
    private final OpenLocks openLocks;
    private final EditBuffer buffer = new EditBuffer();
    private final SaveQueue saves = new SaveQueue(this::startSave);

    private final ReadOnlyObjectWrapper<EditorState> state =
            new ReadOnlyObjectWrapper<>(this, "state", EditorState.EMPTY);
    private final ReadOnlyBooleanWrapper busy = new ReadOnlyBooleanWrapper(this, "busy");
    private final ReadOnlyObjectWrapper<EditorNotice> notice = new ReadOnlyObjectWrapper<>(this, "notice");
    private final ReadOnlyObjectWrapper<MergeViewModel> merge = new ReadOnlyObjectWrapper<>(this, "merge");
    private final ReadOnlyObjectWrapper<DeleteConflictViewModel> deleteConflict =
            new ReadOnlyObjectWrapper<>(this, "deleteConflict");
    private final ReadOnlyBooleanWrapper editable = new ReadOnlyBooleanWrapper(this, "editable");
    private final ReadOnlyBooleanWrapper canSave = new ReadOnlyBooleanWrapper(this, "canSave");
    private final ReadOnlyBooleanWrapper canRevert = new ReadOnlyBooleanWrapper(this, "canRevert");
    private final ReadOnlyBooleanWrapper canDelete = new ReadOnlyBooleanWrapper(this, "canDelete");
    private final ReadOnlyStringWrapper saveBlockedReason = new ReadOnlyStringWrapper(this, "saveBlockedReason", "");
    private final ReadOnlyStringWrapper displayName = new ReadOnlyStringWrapper(this, "displayName", "");
    private final ReadOnlyStringWrapper versionLine = new ReadOnlyStringWrapper(this, "versionLine", "");
    private final ReadOnlyStringWrapper title = new ReadOnlyStringWrapper(this, "title", "");
    private final ReadOnlyObjectWrapper<Set<CustomerField>> recentlyChanged =
            new ReadOnlyObjectWrapper<>(this, "recentlyChanged", Set.of());
    private final ReadOnlyStringWrapper liveBanner = new ReadOnlyStringWrapper(this, "liveBanner");
    private final List<Runnable> unsubscribe = new ArrayList<>();
    private final CustomerHistoryViewModel versions;
    private final PresenceBoard presence;
    private final HolderMessaging messaging;
    // This editor's announced presence on the attached customer; null when none is attached or there is no board.
    private PresenceBoard.Seat seat;
    private final ReadOnlyStringWrapper alsoHere = new ReadOnlyStringWrapper(this, "alsoHere", "");
    private final HotRecordWatch hotRecord;
    private final ReadOnlyStringWrapper hotRecordAdvice = new ReadOnlyStringWrapper(this, "hotRecordAdvice");
    private final ReadOnlyStringWrapper hotRecordDetail = new ReadOnlyStringWrapper(this, "hotRecordDetail");
    // The newer record a live notification announced while this editor had unsaved edits (Review merges with it).
    private Customer liveTheirs;
    // A live check's result arrived while a call was in flight: check again once it settles.
    private boolean recheckWhenSettled;
    // The change from another window of this operator that check was about, if it was one.
    private Optional<ChangeEvent> recheckFromAnotherWindow = Optional.empty();

    private long id = -1;
    // The record the lock watches; -1 for none (a new customer, or nothing loaded).
    private long attachedId = -1;
    private String lastHolder = "";
    private int callsInFlight;
    // Bumped by load and startNew: a late result for an earlier record must not overwrite the one shown now.
    private int generation;
    private Consumer<Customer> onSaved = c -> { };
    private Consumer<Long> onDeleted = i -> { };
    private Runnable controlCommitter = () -> { };

    /** An editor using the process's services; its lock starts in the default mode. */
    public CustomerEditorViewModel(EditorServices services) {
        this(services, Clock.systemDefaultZone());
    }

    /**
     * As the other constructor, telling the time of saves by {@code clock} (zone and today). The editor writes as a
     * new writer id of the services' client ({@link EditorServices#forNewEditor()}).
     */
    public CustomerEditorViewModel(EditorServices clientServices, Clock clock) {
        EditorServices services = clientServices.forNewEditor();
        this.repository = services.customers();
        this.writerId = repository.sessionId();
        this.history = services.history();
        this.executor = services.executor();
        this.user = services.user();
        this.clock = Objects.requireNonNull(clock);
        this.lock = services.newLock();
        this.openLocks = services.openLocks();
        this.versions = new CustomerHistoryViewModel(history, executor, clock.getZone());
        this.hotRecord = new HotRecordWatch(repository, executor);
        buffer.baseProperty().addListener((obs, was, now) -> versions.show(now == null ? -1 : now.id()));
        Observable[] inputs = {state, busy, merge, deleteConflict, buffer.dirtyProperty(), buffer.problemsProperty(),
            buffer.currentProperty(), buffer.baseProperty(), lock.readOnlyProperty()};
        for (Observable input : inputs) {
            input.addListener(o -> refresh());
        }
        watchLock();
        follow(services.live());
        this.presence = services.presence();
        showPresence();
        this.messaging = services.messages() == null ? null : new HolderMessaging(services.messages(), executor,
                lock, services.live(), m -> notice.set(EditorNotice.info(m.describe())));
        hotRecord.adviceProperty().addListener(o -> showHotRecord());
        lock.modeProperty().addListener(o -> showHotRecord());
        refresh();
    }

    /** The advice shows only while editing optimistically: in lock-for-editing mode it is already followed. */
    private void showHotRecord() {
        HotRecordAdvice advice = hotRecord.adviceProperty().get();
        boolean shown = advice != null && lock.modeProperty().get() == ConcurrencyMode.OPTIMISTIC;
        hotRecordAdvice.set(shown ? advice.headline() : null);
        hotRecordDetail.set(shown ? advice.detail() : null);
    }

    /** Announces this editor on the board (viewing, or editing while dirty) and shows who else is here. */
    private void showPresence() {
        if (presence == null) {
            return;
        }
        buffer.dirtyProperty().addListener((obs, was, now) -> {
            if (seat != null) {
                seat.state(now ? Presence.State.EDITING : Presence.State.VIEWING);
            }
        });
        // A change listener, not an invalidation listener: it fires on every change, read or not.
        presence.changeCountProperty().addListener((obs, was, now) -> updateAlsoHere());
    }

    private void updateAlsoHere() {
        alsoHere.set(presence == null || seat == null ? "" : presence.alsoHere(seat));
    }

    private void follow(LiveUpdates live) {
        if (live == null) {
            return;
        }
        unsubscribe.add(live.subscribe(this::changes));
        unsubscribe.add(live.onResync(this::recheck));
    }

    /**
     * Another writer changed this editor's customer — another operator, or this operator in another window: read it
     * and follow (clean) or offer a review (dirty). This editor's own writes only move a clean editor along.
     */
    private void changes(List<LiveUpdates.Change> batch) {
        Customer base = buffer.base();
        if (base != null && batch.stream().anyMatch(c -> c.event().isCustomer() && c.event().id() == base.id())) {
            versions.refresh();
        }
        if (base == null) {
            return;
        }
        List<LiveUpdates.Change> newer = batch.stream().filter(c -> c.event().isCustomer()
                && c.event().id() == base.id()
                && (c.event().version() > base.version() || "DELETE".equals(c.event().op()))).toList();
        List<LiveUpdates.Change> notMine = newer.stream().filter(c -> !c.event().madeBy(writerId)).toList();
        if (!notMine.isEmpty()) {
            LiveUpdates.Change latest = notMine.get(notMine.size() - 1);
            // The client's own change (c.mine()) made by another of its editors: worded "You … in another window".
            recheck(true, latest.mine() ? Optional.of(latest.event()) : Optional.empty());
        } else if (!newer.isEmpty() && !buffer.dirtyProperty().get()) {
            // This editor's own save, heard before its reply: follow it quietly, no highlight, no banner.
            recheck(false, Optional.empty());
        }
    }

    private void recheck() {
        recheck(true, Optional.empty());
    }

    /**
     * Reads the record again and applies the live-update rules: without unsaved edits the editor moves to the
     * newer version and reports the changed fields; with edits its base stays and a banner offers the merge, so
     * that a stale save still meets the newer version (PoEAA, Optimistic Offline Lock). Also runs on resync.
     */
    private void recheck(boolean byOthers, Optional<ChangeEvent> fromAnotherWindow) {
        Customer base = buffer.base();
        if (base == null || state.get() != EditorState.EDITING) {
            return;
        }
        int gen = generation;
        long customerId = base.id();
        Callable<LiveCheck> read = () -> LiveCheck.read(repository, history, customerId, base.version(),
                fromAnotherWindow);
        executor.execute(read, check -> {
            if (gen != generation) {
                return;
            }
            if (callsInFlight > 0 || merge.get() != null || deleteConflict.get() != null) {
                // A save or load in flight settles the state itself; look again once it has.
                recheckWhenSettled = callsInFlight > 0;
                recheckFromAnotherWindow = fromAnotherWindow;
                return;
            }
            if (byOthers) {
                applyLive(check);
            } else {
                followOwn(check);
            }
        }, failure -> notice.set(EditorNotice.error("Another operator changed this customer, but it could not be "
                + "read again — Reload to see it.", detail(failure)).withReload()));
    }

    private void followOwn(LiveCheck check) {
        Customer base = buffer.base();
        if (base == null || state.get() != EditorState.EDITING || buffer.dirtyProperty().get()) {
            return;
        }
        if (check.now().isEmpty()) {
            deleted(generation, base.id(), EditorNotice.info("This customer was deleted."));
        } else if (check.now().get().version() > base.version()) {
            buffer.reset(check.now().get());
        }
    }

    private void applyLive(LiveCheck check) {
        Customer base = buffer.base();
        if (base == null || state.get() != EditorState.EDITING) {
            return;
        }
        if (check.now().isPresent() && check.now().get().version() <= base.version()) {
            return; // nothing newer than what the editor is based on
        }
        boolean dirty = buffer.dirtyProperty().get();
        if (check.now().isEmpty()) {
            if (dirty) {
                liveTheirs = null;
                liveBanner.set(check.deletedBanner());
            } else {
                deleted(generation, base.id(), EditorNotice.info(check.deletedNotice()));
            }
            return;
        }
        Customer theirs = check.now().get();
        Set<CustomerField> changed = LiveCheck.changedFields(base.data(), theirs.data());
        if (dirty) {
            liveTheirs = theirs;
            liveBanner.set(check.savedBanner(theirs.version(), changed));
        } else {
            liveTheirs = null;
            liveBanner.set(null);
            buffer.reset(theirs);
            recentlyChanged.set(changed);
        }
    }

    /**
     * "Review" on the live banner: opens the merge of the edits with the newer record now, on the editor's base.
     * For a record someone deleted it opens the deleted flow (re-create with my values, or discard).
     */
    public void review() {
        Customer base = buffer.base();
        if (liveBanner.get() == null || base == null || merge.get() != null) {
            return;
        }
        merge.set(mergeOf(base, buffer.currentProperty().get(), new SaveOutcome.Conflict(Optional.ofNullable(liveTheirs))));
    }

    private void clearLive() {
        liveTheirs = null;
        liveBanner.set(null);
    }

    private void watchLock() {
        buffer.dirtyProperty().addListener((obs, was, now) -> {
            if (now && attachedId >= 0) {
                lock.editingStarted();
            }
        });
        for (CustomerField f : CustomerField.values()) {
            buffer.text(f).addListener(o -> lock.activity());
        }
        // Switching to lock mode with edits already made takes the lease at once, as a first change would.
        lock.modeProperty().addListener((obs, was, now) -> {
            if (now == ConcurrencyMode.LOCK_FOR_EDITING && buffer.dirtyProperty().get() && attachedId >= 0) {
                lock.editingStarted();
            }
        });
        lock.stateProperty().addListener((obs, was, now) -> {
            if (now instanceof LockState.HeldByOther other) {
                lastHolder = other.holder().holder();
            }
        });
        // The lease ended: without edits show the newest version (never a stale base); with edits keep them, and
        // a Save that meets a newer version becomes a merge.
        lock.setOnFree(() -> {
            if (!buffer.dirtyProperty().get() && id >= 0 && state.get() == EditorState.EDITING) {
                load(id);
            }
        });
        lock.setOnNotifyFree(() -> notice.set(EditorNotice.info(lastHolder
                + "'s lock on this customer ended — it is yours to edit")));
    }

    /** Loads a customer in the background; until it arrives the editor shows "Loading…" and takes no edits. */
    public void load(long customerId) {
        int gen = ++generation;
        boolean reload = buffer.base() != null && buffer.base().id() == customerId;
        EditorState before = state.get();
        forgetPending(customerId);
        if (!reload) {
            buffer.reset(null);
            hotRecord.clear();
        }
        attach(customerId);
        state.set(EditorState.LOADING);
        run(() -> repository.find(customerId), found -> {
            if (gen != generation) {
                return;
            }
            if (found.isPresent()) {
                buffer.reset(found.get());
                state.set(EditorState.EDITING);
                hotRecord.read(customerId);
            } else {
                detach();
                state.set(EditorState.DELETED);
                notice.set(EditorNotice.info("Customer #" + customerId + " no longer exists; someone deleted it."));
            }
        }, failure -> {
            if (gen != generation) {
                return;
            }
            state.set(reload ? before : EditorState.EMPTY);
            notice.set(EditorNotice.error("Can't reach the database — Customer #" + customerId
                    + " could not be loaded.", detail(failure)).withReload());
        });
    }

    /** Shows a blank new customer; Save creates it, after which this is an ordinary editor of that customer. */
    public void startNew() {
        generation++;
        forgetPending(-1);
        detach();
        state.set(EditorState.NEW);
        buffer.reset(null);
    }

    /**
     * Empties the editor without asking: drops the edits, closes an open merge or delete decision (their dialogs
     * close with them) and lets go of a lease it holds; the editor then shows no customer. The trainer demo's reset
     * uses it; an operator's own actions go through {@link #revert()} and the main window's prompts instead.
     */
    public void clear() {
        generation++;
        forgetPending(-1);
        detach();
        buffer.reset(null);
        state.set(EditorState.EMPTY);
    }

    /** Reads the record again, dropping unsaved edits (the view asks first when there are any). */
    public void reload() {
        if (id >= 0 && !busy.get()) {
            load(id);
        }
    }

    /**
     * Saves the edits: a create for a new customer, else {@code save(id, baseVersion, values)} in the background.
     * Controls first commit any value still being typed. A save requested while another is in flight is queued.
     *
     * @return whether a save was started or queued; {@code false} when {@link #canSaveProperty()} is false
     */
    public boolean save() {
        controlCommitter.run();
        if (!canSave.get()) {
            return false;
        }
        saves.submit(buffer.snapshot());
        return true;
    }

    /**
     * Saves, and runs {@code whenSaved} once this save and every save queued before it have committed. Nothing
     * runs when the save fails or conflicts.
     *
     * @return as {@link #save()}
     */
    public boolean saveAndThen(Runnable whenSaved) {
        saves.whenDrained(whenSaved);
        boolean submitted = save();
        if (!submitted) {
            saves.cancel(whenSaved);
        }
        return submitted;
    }

    /** Drops every edit: the editor shows its base again (a new customer becomes blank). */
    public void revert() {
        if (canRevert.get()) {
            // Dropping the edits also drops the reason to stay on the old base: show the newer record announced.
            buffer.reset(liveTheirs != null ? liveTheirs : buffer.base());
            clearLive();
            notice.set(null);
        }
    }

    /**
     * A versioned delete ({@code DELETE … WHERE id = ? AND version = ?}) of the record as loaded. The view asks for
     * confirmation first ({@link #deleteQuestion()}). If someone changed the record since, nothing is deleted and
     * the notice offers to reload.
     */
    public void requestDelete() {
        if (!canDelete.get()) {
            return;
        }
        Customer base = buffer.base();
        String name = base.data().displayName();
        int gen = generation;
        boolean underLease = lock.savesUnderLease();
        long token = lock.token().orElse(-1);
        run(() -> underLease ? repository.deleteUnderLease(base.id(), base.version(), token)
                : repository.delete(base.id(), base.version()), outcome -> {
            if (outcome instanceof DeleteOutcome.Deleted) {
                deleted(gen, base.id(), EditorNotice.info("Deleted " + name + "."));
            } else if (gen != generation) {
                return;
            } else if (outcome instanceof DeleteOutcome.Conflict c && c.theirs().isPresent()) {
                deleteConflict.set(deleteConflictOf(base, c.theirs().get()));
                hotRecord.read(base.id()); // the repository counted this conflict
            } else if (outcome instanceof DeleteOutcome.Locked locked) {
                notice.set(EditorNotice.error("Not deleted: " + lockedBy(locked.holder())
                        + ".", ""));
                lock.lockedOnSave(locked.holder());
            } else if (outcome instanceof DeleteOutcome.LeaseLost lost) {
                notice.set(EditorNotice.error("Not deleted: your lock for editing ended first.", ""));
                lock.leaseLostOnSave(lost.current());
            } else {
                deleted(gen, base.id(), EditorNotice.info("This customer was already deleted by someone else."));
            }
        }, failure -> {
            if (gen == generation) {
                notice.set(EditorNotice.error("Can't reach the database — nothing was deleted. Try again.",
                        detail(failure)));
            }
        });
    }

    private DeleteConflictViewModel deleteConflictOf(Customer base, Customer theirs) {
        DeleteConflictViewModel open = new DeleteConflictViewModel(repository, history, executor, base, theirs);
        open.setOnDeleted(deletedId -> {
            deleteConflict.set(null);
            deleted(generation, deletedId, EditorNotice.info("Deleted " + theirs.data().displayName() + "."));
        });
        open.setOnKept(now -> {
            deleteConflict.set(null);
            buffer.reset(now);
            state.set(EditorState.EDITING);
        });
        return open;
    }

    /**
     * "Save without lock" after this editor lost its lease: goes on optimistically and saves now; a newer version
     * in the database makes this save a merge.
     *
     * @return as {@link #save()}
     */
    public boolean saveWithoutLock() {
        lock.continueOptimistically();
        return save();
    }

    /** The confirmation question before breaking another operator's lock, naming them and the customer. */
    public String breakLockQuestion() {
        String holder = lock.stateProperty().get() instanceof LockState.HeldByOther other
                ? other.holder().holder() : "the holder";
        return "Break " + holder + "'s lock on " + displayName.get() + "? " + holder + " keeps the changes in "
                + "their editor but can no longer save them under the lock.";
    }

    /** "Locked by Bob until 10:07", or "Locked by you in another window until 10:07". */
    private String lockedBy(LeaseInfo holder) {
        return LockMessages.lockedBy(holder, lock.heldInAnotherWindow(holder), zone());
    }

    /**
     * "Release there": this operator holds the lease in another window; let it go from here. That window keeps its
     * edits; this one becomes editable as after any release ({@link EditLockViewModel#releaseInAnotherWindow()}).
     */
    public void releaseInAnotherWindow() {
        lock.releaseInAnotherWindow();
    }

    /** Breaks another operator's lock (after {@link #breakLockQuestion()} was confirmed), then takes it. */
    public void breakLock() {
        lock.breakLock();
    }

    /** The confirmation question before a delete, naming the customer. */
    public String deleteQuestion() {
        Customer base = buffer.base();
        String name = base == null ? displayName.get() : base.data().displayName();
        return "Delete " + name + " (Customer #" + id + ")? This cannot be undone."
                + (buffer.dirtyProperty().get() ? " Your unsaved changes are lost too." : "");
    }

    /** The text of one field as typed; the view binds its control to it. */
    public StringProperty textProperty(CustomerField field) {
        return buffer.text(field);
    }

    /** Why the field's value cannot be saved, or {@code null} when it can. */
    public ReadOnlyStringProperty errorProperty(CustomerField field) {
        return buffer.error(field);
    }

    /**
     * A rule the stored value of this field breaks although the operator left it unchanged (a value written by
     * another tool, or before a rule was made stricter), or {@code null}. It does not block a save, which keeps the
     * value as it is; the view shows it below the field, like an error but without blocking.
     */
    public ReadOnlyStringProperty warningProperty(CustomerField field) {
        return buffer.warning(field);
    }

    /** Every reason the edits cannot be saved, in field order; empty when they can. */
    public ReadOnlyObjectProperty<List<FieldError>> problemsProperty() {
        return buffer.problemsProperty();
    }

    /** Unsaved edits exist: the values differ from the base (for a new customer: from blank). */
    public ReadOnlyBooleanProperty dirtyProperty() {
        return buffer.dirtyProperty();
    }

    /** The record the edits are based on; {@code null} for a new or not yet loaded customer. */
    public ReadOnlyObjectProperty<Customer> baseProperty() {
        return buffer.baseProperty();
    }

    /** A database call is in flight. */
    public ReadOnlyBooleanProperty busyProperty() {
        return busy.getReadOnlyProperty();
    }

    /** Where the editor is in its life. */
    public ReadOnlyObjectProperty<EditorState> stateProperty() {
        return state.getReadOnlyProperty();
    }

    /** The message across the top, or {@code null}. */
    public ReadOnlyObjectProperty<EditorNotice> noticeProperty() {
        return notice.getReadOnlyProperty();
    }

    /** An open merge of my save with theirs (or the deleted flow), or {@code null}. While open, no edits. */
    public ReadOnlyObjectProperty<MergeViewModel> mergeProperty() {
        return merge.getReadOnlyProperty();
    }

    /** An open decision about a delete that met a newer version, or {@code null}. While open, no edits. */
    public ReadOnlyObjectProperty<DeleteConflictViewModel> deleteConflictProperty() {
        return deleteConflict.getReadOnlyProperty();
    }

    /**
     * The fields another operator's save changed when this editor, having no unsaved edits, moved to their version;
     * the view highlights them briefly. Empty until then.
     */
    public ReadOnlyObjectProperty<Set<CustomerField>> recentlyChangedProperty() {
        return recentlyChanged.getReadOnlyProperty();
    }

    /**
     * "Bob saved version 8 (phone, email) — Review" while this editor has unsaved edits on an older version, or
     * {@code null}. The base does not move: {@link #review()} or the next save opens the merge.
     */
    public ReadOnlyStringProperty liveBannerProperty() {
        return liveBanner.getReadOnlyProperty();
    }

    /** The History tab's versions of this editor's customer. */
    public CustomerHistoryViewModel history() {
        return versions;
    }

    /**
     * "Restore this version": puts a version's values into the fields and saves them as an ordinary versioned save
     * on the editor's current base, so it may conflict like any save (then the merge opens). The view asks first
     * when there are unsaved edits, which this replaces.
     *
     * @return whether a save started; {@code false} when the editor takes no edits now, or the record already holds
     *         these values (the notice says so)
     */
    public boolean restore(CustomerData values) {
        if (state.get() != EditorState.EDITING || !editable.get()) {
            return false;
        }
        for (CustomerField f : CustomerField.values()) {
            buffer.text(f).set(buffer.parser().format(values.get(f)));
        }
        if (!buffer.dirtyProperty().get()) {
            notice.set(EditorNotice.info("This customer already holds these values; nothing to restore."));
            return false;
        }
        return save();
    }

    /** This editor's lock for editing: mode, state, banner. */
    public EditLockViewModel lock() {
        return lock;
    }

    /**
     * The editor closes: releases the lease it holds (in the background) and stops the lock's timers. Call once,
     * when the window closes; the editor is not used afterwards.
     */
    public void close() {
        unsubscribe.forEach(Runnable::run);
        unsubscribe.clear();
        attachedId = -1;
        closeSeat();
        if (messaging != null) {
            messaging.close();
        }
        openLocks.close(lock);
    }

    /** "Message the holder…" and messages received about this customer; empty when the process has no messages. */
    public Optional<HolderMessaging> messaging() {
        return Optional.ofNullable(messaging);
    }

    /** "Also here: Bob (editing)": who else has this customer open; empty when nobody (or no presence shown). */
    public ReadOnlyStringProperty alsoHereProperty() {
        return alsoHere.getReadOnlyProperty();
    }

    /**
     * "Often edited at the same time — consider Lock for editing" while this customer met at least
     * {@link HotRecordAdvice#THRESHOLD} conflicts in the last {@link HotRecordAdvice#WINDOW} and the editor is in
     * optimistic mode; else {@code null}. Counted in the background when a customer loads and after each conflict.
     */
    public ReadOnlyStringProperty hotRecordAdviceProperty() {
        return hotRecordAdvice.getReadOnlyProperty();
    }

    /** The advice's detail, "4 conflicts on this customer in the last 7 days", or {@code null} with no advice. */
    public ReadOnlyStringProperty hotRecordDetailProperty() {
        return hotRecordDetail.getReadOnlyProperty();
    }

    /** Follows the hot-record advice: this editor switches to Lock for editing (taking the lease if it has edits). */
    public void useLockForEditing() {
        lock.modeProperty().set(ConcurrencyMode.LOCK_FOR_EDITING);
    }

    /** The fields take edits. */
    public ReadOnlyBooleanProperty editableProperty() {
        return editable.getReadOnlyProperty();
    }

    /** Save would do something: the edits are valid and differ from the base (or the customer is new). */
    public ReadOnlyBooleanProperty canSaveProperty() {
        return canSave.getReadOnlyProperty();
    }

    /** Revert would do something. */
    public ReadOnlyBooleanProperty canRevertProperty() {
        return canRevert.getReadOnlyProperty();
    }

    /** Delete is possible: a stored customer, nothing in flight. */
    public ReadOnlyBooleanProperty canDeleteProperty() {
        return canDelete.getReadOnlyProperty();
    }

    /** "Can't save: …" with the first problem, or empty when nothing blocks a save. */
    public ReadOnlyStringProperty saveBlockedReasonProperty() {
        return saveBlockedReason.getReadOnlyProperty();
    }

    /** The customer's name as edited now: the company, else the contact, else "(unnamed)". */
    public ReadOnlyStringProperty displayNameProperty() {
        return displayName.getReadOnlyProperty();
    }

    /** "version N · saved by X at T", "Loading…" or "New customer · not saved yet". */
    public ReadOnlyStringProperty versionLineProperty() {
        return versionLine.getReadOnlyProperty();
    }

    /** The window title: "• Acme — Customer #3 — Lockstep — alice" ("•" while there are unsaved edits). */
    public ReadOnlyStringProperty titleProperty() {
        return title.getReadOnlyProperty();
    }

    /** The customer's id; empty for a new customer not yet saved. */
    public OptionalLong customerId() {
        return id < 0 ? OptionalLong.empty() : OptionalLong.of(id);
    }

    /**
     * The writer id this editor writes as: its saves carry it, its lease is held by it (and names it to others, so a
     * message to the lease's holder reaches this editor).
     */
    public String writerId() {
        return writerId;
    }

    /** The operator's name. */
    public String user() {
        return user;
    }

    /** Called on the FX thread after each successful save or create, with the stored record. */
    public void setOnSaved(Consumer<Customer> listener) {
        onSaved = listener == null ? c -> { } : listener;
    }

    /** Called on the FX thread after the customer was deleted, here or (once the operator discards) elsewhere. */
    public void setOnDeleted(Consumer<Long> listener) {
        onDeleted = listener == null ? i -> { } : listener;
    }

    /**
     * Installs what makes the view's controls commit a value still being typed; it runs before every save takes
     * its snapshot, whoever asks for the save.
     */
    public void setControlCommitter(Runnable committer) {
        controlCommitter = committer == null ? () -> { } : committer;
    }

    private void startSave(EditBuffer.Snapshot mine) {
        int gen = generation;
        Customer base = buffer.base();
        if (base == null) {
            run(() -> repository.create(mine.data()), created -> saved(gen, mine, created),
                    e -> saveFailed(gen, mine, e));
            return;
        }
        long baseVersion = base.version();
        boolean underLease = lock.savesUnderLease();
        long token = lock.token().orElse(-1);
        // Last write wins (unsafe, teaching only): a blind overwrite, never a merge; another's lease still refuses it.
        boolean blind = lock.savesLastWriteWins();
        Callable<SaveOutcome> write = blind ? () -> repository.overwrite(base.id(), mine.data())
                : underLease ? () -> repository.saveUnderLease(base.id(), baseVersion, mine.data(), token)
                : () -> repository.save(base.id(), baseVersion, mine.data());
        run(write, outcome -> {
            if (outcome instanceof SaveOutcome.Saved s) {
                if (blind && gen == generation) {
                    clearLive(); // the newer version it announced was just overwritten: nothing left to review
                }
                saved(gen, mine, s.saved());
            } else if (outcome instanceof SaveOutcome.Conflict c) {
                conflicted(gen, mine, base, c);
            } else if (outcome instanceof SaveOutcome.Locked locked) {
                refusedByLock(gen, mine, locked.holder());
            } else if (outcome instanceof SaveOutcome.LeaseLost lost) {
                leaseLost(gen, mine, lost.current());
            }
        }, e -> saveFailed(gen, mine, e));
    }

    /** Another session holds the lease: nothing was written, every edit stays, the editor waits for the lease. */
    private void refusedByLock(int gen, EditBuffer.Snapshot mine, LeaseInfo holder) {
        saves.abandon(mine);
        if (gen == generation) {
            notice.set(EditorNotice.error(lockedBy(holder) + " — your changes are kept.", ""));
            lock.lockedOnSave(holder);
        }
    }

    /** This editor's lease is gone: nothing was written; read-only with the edits until the operator decides. */
    private void leaseLost(int gen, EditBuffer.Snapshot mine, Optional<LeaseInfo> current) {
        saves.abandon(mine);
        if (gen == generation) {
            lock.leaseLostOnSave(current);
        }
    }

    private void saved(int gen, EditBuffer.Snapshot mine, Customer stored) {
        if (gen == generation) {
            id = stored.id();
            buffer.saved(stored, mine);
            attach(stored.id());
            state.set(EditorState.EDITING);
            if (notice.get() != null && notice.get().kind() == EditorNotice.Kind.ERROR) {
                notice.set(null);
            }
        }
        onSaved.accept(stored);
        saves.next(this::alreadyStored);
    }

    private boolean alreadyStored(EditBuffer.Snapshot snapshot) {
        Customer base = buffer.base();
        return base != null && snapshot.data().normalized().sameValues(base.data().normalized());
    }

    private void conflicted(int gen, EditBuffer.Snapshot mine, Customer base, SaveOutcome.Conflict outcome) {
        Optional<Customer> theirs = outcome.theirs();
        if (theirs.isPresent() && theirs.get().data().normalized().sameValues(mine.data().normalized())) {
            sameAsTheirs(gen, mine, base, theirs.get());
            return;
        }
        if (gen != generation) {
            saves.next(this::alreadyStored);
            return;
        }
        EditBuffer.Snapshot latest = saves.abandon(mine);
        merge.set(mergeOf(base, latest.data(), outcome));
        hotRecord.read(base.id()); // the repository counted this conflict
    }

    /**
     * Someone else's save — another operator's, or another desk's under the same name — already holds exactly the
     * values this save asked for. It was not this save (the store recognises a retry of this very save by its request
     * id and reports it saved), so it is not reported as saved: nothing of this editor was written. There is nothing
     * to merge field by field, so the editor takes theirs as its base and says so, because a change that was meant
     * to add to theirs (both sold one unit: 5 became 4 twice) is lost unless the operator makes it again.
     */
    private void sameAsTheirs(int gen, EditBuffer.Snapshot mine, Customer base, Customer theirs) {
        if (gen == generation) {
            buffer.saved(theirs, mine);
            state.set(EditorState.EDITING);
            notice.set(EditorNotice.info(MergeHeader.who(theirs.updatedBy()) + " saved these same values first"
                    + " (version " + theirs.version() + "), so your save wrote nothing. If your change was meant to"
                    + " add to theirs (an amount, a count), make it again."));
            hotRecord.read(base.id()); // the repository counted this conflict
        }
        saves.next(this::alreadyStored);
    }

    private MergeViewModel mergeOf(Customer base, CustomerData mine, SaveOutcome.Conflict outcome) {
        MergeViewModel open = MergeViewModel.forConflict(repository, history, executor, base, mine, outcome);
        open.setOnSaved(merged -> {
            merge.set(null);
            clearLive();
            buffer.reset(merged);
            state.set(EditorState.EDITING);
            notice.set(null);
            onSaved.accept(merged);
        });
        open.setOnDiscarded(theirs -> {
            merge.set(null);
            clearLive();
            buffer.reset(theirs);
            state.set(EditorState.EDITING);
            notice.set(null);
        });
        open.setOnCancelled(kept -> {
            // The edits never left the buffer: they stay on the old base, so the next Save merges again.
            merge.set(null);
            notice.set(EditorNotice.info("Your changes are kept, not saved yet; Save opens the merge again."));
        });
        open.setOnRecreated(created -> {
            merge.set(null);
            clearLive();
            id = created.id();
            buffer.reset(created);
            attach(created.id());
            state.set(EditorState.EDITING);
            notice.set(EditorNotice.info("Re-created as Customer #" + created.id() + " with your values."));
            onSaved.accept(created);
        });
        open.setOnDeletionAccepted(deletedId -> {
            merge.set(null);
            buffer.reset(buffer.base());
            deleted(generation, deletedId, EditorNotice.info("This customer was deleted by someone else."));
        });
        return open;
    }

    private void saveFailed(int gen, EditBuffer.Snapshot mine, Throwable failure) {
        if (gen != generation) {
            // A save of the record shown before; saves queued for the record shown now still run.
            saves.next(this::alreadyStored);
            return;
        }
        saves.abandon(mine);
        if (failure instanceof InvalidCustomerException invalid) {
            buffer.rejected(invalid.errors());
        } else if (failure instanceof RecordBusyException busy) {
            notice.set(EditorNotice.error(busy.getMessage() + ". Your changes are kept.", ""));
        } else if (failure instanceof OutcomeUnknownException unknownOutcome) {
            notice.set(EditorNotice.error(SAVE_OUTCOME_UNKNOWN, detail(unknownOutcome)));
        } else {
            notice.set(EditorNotice.error(SAVE_FAILED, detail(failure)));
        }
    }

    private void deleted(int gen, long deletedId, EditorNotice message) {
        if (gen == generation) {
            forgetPending(deletedId);
            detach();
            state.set(EditorState.DELETED);
            notice.set(message);
        }
        onDeleted.accept(deletedId);
    }

    private void forgetPending(long customerId) {
        id = customerId;
        saves.clear();
        clearLive();
        recentlyChanged.set(Set.of());
        merge.set(null);
        deleteConflict.set(null);
        notice.set(null);
    }

    private void attach(long customerId) {
        if (attachedId != customerId) {
            attachedId = customerId;
            lock.attach(customerId);
            if (messaging != null) {
                messaging.attach(customerId);
            }
            if (presence != null) {
                closeSeat();
                seat = presence.open(customerId);
                seat.state(buffer.dirtyProperty().get() ? Presence.State.EDITING : Presence.State.VIEWING);
                updateAlsoHere();
            }
        }
    }

    private void detach() {
        hotRecord.clear();
        if (attachedId >= 0) {
            attachedId = -1;
            lock.detach();
            if (messaging != null) {
                messaging.detach();
            }
            closeSeat();
            updateAlsoHere();
        }
    }

    private void closeSeat() {
        if (seat != null) {
            seat.close();
            seat = null;
        }
    }

    private ZoneId zone() {
        return clock.getZone();
    }

    private <T> void run(Callable<T> work, Consumer<T> onSuccess, Consumer<Throwable> onFailure) {
        callsInFlight++;
        busy.set(true);
        executor.execute(work, result -> {
            settled();
            onSuccess.accept(result);
        }, failure -> {
            settled();
            onFailure.accept(failure);
        });
    }

    private void settled() {
        callsInFlight--;
        busy.set(callsInFlight > 0);
        if (callsInFlight == 0 && recheckWhenSettled) {
            recheckWhenSettled = false;
            recheck(true, recheckFromAnotherWindow);
        }
    }

    private void refresh() {
        EditorState s = state.get();
        boolean open = (s == EditorState.NEW || s == EditorState.EDITING) && merge.get() == null
                && deleteConflict.get() == null;
        boolean writable = open && !lock.readOnlyProperty().get();
        List<FieldError> problems = buffer.problemsProperty().get();
        boolean dirty = buffer.dirtyProperty().get();
        editable.set(writable);
        // A save may be requested while another is in flight (it queues), but not while a load or delete runs.
        boolean otherCallInFlight = busy.get() && !saves.inFlight();
        canSave.set(writable && problems.isEmpty() && (dirty || s == EditorState.NEW) && !otherCallInFlight);
        // Revert stays possible while read-only: dropping one's own edits never needs the lease.
        canRevert.set(open && dirty && !busy.get());
        canDelete.set(writable && s == EditorState.EDITING && !busy.get());
        saveBlockedReason.set(open && !problems.isEmpty() ? EditorTexts.blockedReason(problems) : "");
        displayName.set(buffer.currentProperty().get().displayName());
        versionLine.set(EditorTexts.versionLine(s, buffer.base(), clock));
        title.set(EditorTexts.title(s, dirty, displayName.get(), id, user));
    }

    private static String detail(Throwable failure) {
        String message = failure.getMessage();
        return message == null || message.isBlank() ? failure.getClass().getSimpleName() : message;
    }
}
