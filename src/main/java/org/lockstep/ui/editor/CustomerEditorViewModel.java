package org.lockstep.ui.editor;

import java.time.Clock;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Consumer;
import javafx.beans.Observable;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.StringProperty;
import org.lockstep.concurrency.TaskScope;
import org.lockstep.domain.ConcurrencyMode;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.CustomerRepository;
import org.lockstep.domain.FieldError;
import org.lockstep.domain.HistoryRepository;
import org.lockstep.editing.CustomerEditing;
import org.lockstep.editing.LockState;
import org.lockstep.ui.EditorServices;
import org.lockstep.ui.lock.EditLockViewModel;
import org.lockstep.ui.lock.HolderMessaging;
import org.lockstep.ui.lock.OpenLocks;
import org.lockstep.ui.merge.DeleteConflictViewModel;
import org.lockstep.ui.merge.MergeViewModel;

/**
 * One customer editor: loads a record, buffers the operator's edits, validates them while typing and saves them
 * with a versioned save (PoEAA, Optimistic Offline Lock). Every database call runs through the {@link TaskExecutor};
 * results are applied on the FX thread, which is the only thread that may touch this object.
 *
 * <p>The editor is composed of small parts: {@link EditorSaves} (saves and deletes through
 * {@link org.lockstep.editing.CustomerEditing}), {@link LiveFollower} (other writers' changes as they happen),
 * {@link ConflictFlow} (merge, delete conflict, review), {@link RecordHelpers} (lock, messaging, presence seat,
 * hot-record watch, behind one attach/detach/close) and {@link EditorStatus} (what the controls show). Background
 * work runs in a {@link TaskScope}: a result for a record no longer shown is dropped.
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
 * <p>In the trainer's "Last write wins (unsafe)" mode ({@link ConcurrencyMode#LAST_WRITE_WINS}) a save
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

    private final CustomerEditing editing;
    private final HistoryRepository historyRepository;
    private final String writerId;
    private final String user;
    private final Clock clock;
    private final EditLockViewModel lock;
    private final OpenLocks openLocks;
    private final EditBuffer buffer = new EditBuffer();
    private final TaskScope scope;
    private final TaskScope reads;
    private final ReadOnlyObjectWrapper<EditorState> state =
            new ReadOnlyObjectWrapper<>(this, "state", EditorState.EMPTY);
    private final ReadOnlyBooleanWrapper busy = new ReadOnlyBooleanWrapper(this, "busy");
    private final ReadOnlyObjectWrapper<EditorNotice> notice = new ReadOnlyObjectWrapper<>(this, "notice");
    private final EditorStatus status = new EditorStatus();
    private final CustomerHistoryViewModel versions;
    private final RecordHelpers helpers;
    private final LiveFollower live;
    private final ConflictFlow conflicts;
    private final EditorSaves saves;
    private final List<Runnable> unsubscribe = new ArrayList<>();
    private long id = -1;
    private String lastHolder = "";
    private Consumer<Customer> onSaved = c -> {};
    private Consumer<Long> onDeleted = i -> {};
    private Runnable controlCommitter = () -> {};

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
        CustomerRepository repository = services.customers();
        this.editing = new CustomerEditing(repository);
        this.writerId = repository.sessionId();
        this.historyRepository = services.history();
        this.user = services.user();
        this.clock = Objects.requireNonNull(clock);
        this.lock = services.newLock();
        this.openLocks = services.openLocks();
        this.scope = new TaskScope(services.executor());
        this.reads = new TaskScope(services.executor());
        this.versions = new CustomerHistoryViewModel(historyRepository, services.executor(), clock.getZone());
        Optional<HolderMessaging> messaging = services.messages().map(m -> new HolderMessaging(m,
                services.executor(), lock, services.live().orElse(null),
                message -> notice.set(EditorNotice.info(message.describe()))));
        this.helpers = new RecordHelpers(lock, messaging, new HotRecordWatch(repository, services.executor()),
                services.presence().orElse(null), buffer.dirtyProperty());
        this.live = new LiveFollower(this, reads);
        this.conflicts = new ConflictFlow(this, historyRepository, services.executor());
        this.saves = new EditorSaves(this, editing, lock, scope, conflicts);
        scope.onBusyChanged(b -> {
            busy.set(b);
            if (!b) {
                live.settled();
            }
        });
        buffer.baseProperty().addListener((obs, was, now) -> versions.show(now == null ? -1 : now.id()));
        Observable[] inputs = {state, busy, conflicts.mergeProperty(), conflicts.deleteConflictProperty(),
                buffer.dirtyProperty(), buffer.problemsProperty(), buffer.currentProperty(), buffer.baseProperty(),
                lock.readOnlyProperty()};
        for (Observable input : inputs) {
            input.addListener(o -> refresh());
        }
        watchLock();
        services.live().ifPresent(l -> unsubscribe.addAll(live.follow(l)));
        refresh();
    }

    // ---- what the parts use ---------------------------------------------------------------------------------------

    EditBuffer buffer() {
        return buffer;
    }

    CustomerRepository customers() {
        return editing.customers();
    }

    HistoryRepository historyRepository() {
        return historyRepository;
    }

    RecordHelpers helpers() {
        return helpers;
    }

    LiveFollower live() {
        return live;
    }

    ZoneId zone() {
        return clock.getZone();
    }

    boolean callsInFlight() {
        return scope.busy();
    }

    boolean conflictOpen() {
        return conflicts.open();
    }

    void notice(EditorNotice message) {
        notice.set(message);
    }

    void editing() {
        state.set(EditorState.EDITING);
    }

    /** The editor shows {@code record}, clean, with {@code message} (null: none); no banner left to review. */
    void resetTo(Customer record, EditorNotice message) {
        live.clear();
        buffer.reset(record);
        state.set(EditorState.EDITING);
        notice.set(message);
    }

    /** This editor's save of {@code mine} committed as {@code stored} while it still shows that record. */
    void savedHere(Customer stored, EditBuffer.Snapshot mine) {
        id = stored.id();
        buffer.saved(stored, mine);
        helpers.attach(stored.id());
        state.set(EditorState.EDITING);
        if (notice.get() != null && notice.get().kind() == EditorNotice.Kind.ERROR) {
            notice.set(null);
        }
    }

    /** A save of this editor committed (here, in its merge, or for a record it no longer shows). */
    void savedElsewhere(Customer stored) {
        onSaved.accept(stored);
    }

    /** "Re-create with my values" created {@code created}: the editor now edits it. */
    void recreated(Customer created) {
        live.clear();
        id = created.id();
        buffer.reset(created);
        helpers.attach(created.id());
        state.set(EditorState.EDITING);
        notice.set(EditorNotice.info("Re-created as Customer #" + created.id() + " with your values."));
        onSaved.accept(created);
    }

    /** The customer shown now was deleted. */
    void deleted(long deletedId, EditorNotice message) {
        deleted(scope.stamp(), deletedId, message);
    }

    /** A customer was deleted; the editor shows it as deleted if it still shows the record of {@code stamp}. */
    void deleted(TaskScope.Stamp stamp, long deletedId, EditorNotice message) {
        if (stamp.isCurrent()) {
            forgetPending(deletedId);
            helpers.detach();
            state.set(EditorState.DELETED);
            notice.set(message);
        }
        onDeleted.accept(deletedId);
    }

    // ---- what the operator does -----------------------------------------------------------------------------------

    /**
     * "Review" on the live banner: opens the merge of the edits with the newer record now, on the editor's base.
     * For a record someone deleted it opens the deleted flow (re-create with my values, or discard).
     */
    public void review() {
        Customer base = buffer.base();
        if (live.bannerShown() && base != null) {
            conflicts.review(base, buffer.currentProperty().get(), live.theirs());
        }
    }

    /** Loads a customer in the background; until it arrives the editor shows "Loading…" and takes no edits. */
    public void load(long customerId) {
        boolean reload = buffer.base() != null && buffer.base().id() == customerId;
        EditorState before = state.get();
        moveOn(customerId);
        if (!reload) {
            buffer.reset(null);
            helpers.clearHotRecord();
        }
        helpers.attach(customerId);
        state.set(EditorState.LOADING);
        scope.execute(() -> customers().find(customerId), found -> {
            if (found.isPresent()) {
                buffer.reset(found.get());
                state.set(EditorState.EDITING);
                helpers.readHotRecord(customerId);
            } else {
                helpers.detach();
                state.set(EditorState.DELETED);
                notice.set(EditorNotice.info("Customer #" + customerId + " no longer exists; someone deleted it."));
            }
        }, failure -> {
            state.set(reload ? before : EditorState.EMPTY);
            notice.set(EditorNotice.error("Can't reach the database — Customer #" + customerId
                    + " could not be loaded.", detail(failure)).withReload());
        });
    }

    /** Shows a blank new customer; Save creates it, after which this is an ordinary editor of that customer. */
    public void startNew() {
        moveOn(-1);
        helpers.detach();
        state.set(EditorState.NEW);
        buffer.reset(null);
    }

    /**
     * Empties the editor without asking: drops the edits, closes an open merge or delete decision (their dialogs
     * close with them) and lets go of a lease it holds; the editor then shows no customer. The trainer demo's reset
     * uses it; an operator's own actions go through {@link #revert()} and the main window's prompts instead.
     */
    public void clear() {
        moveOn(-1);
        helpers.detach();
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
     * Saves the edits: a create for a new customer, else the save the lock's mode asks for, in the background.
     * Controls first commit any value still being typed. A save requested while another is in flight is queued.
     *
     * @return whether a save was started or queued; {@code false} when {@link #canSaveProperty()} is false
     */
    public boolean save() {
        controlCommitter.run();
        if (!status.canSave.get()) {
            return false;
        }
        saves.queue().submit(buffer.snapshot());
        return true;
    }

    /**
     * Saves, and runs {@code whenSaved} once this save and every save queued before it have committed. Nothing
     * runs when the save fails or conflicts.
     *
     * @return as {@link #save()}
     */
    public boolean saveAndThen(Runnable whenSaved) {
        saves.queue().whenDrained(whenSaved);
        boolean submitted = save();
        if (!submitted) {
            saves.queue().cancel(whenSaved);
        }
        return submitted;
    }

    /** Drops every edit: the editor shows its base again (a new customer becomes blank). */
    public void revert() {
        if (status.canRevert.get()) {
            // Dropping the edits also drops the reason to stay on the old base: show the newer record announced.
            buffer.reset(live.theirs().orElse(buffer.base()));
            live.clear();
            notice.set(null);
        }
    }

    /**
     * A versioned delete ({@code DELETE … WHERE id = ? AND version = ?}) of the record as loaded. The view asks for
     * confirmation first ({@link #deleteQuestion()}). If someone changed the record since, nothing is deleted and
     * the notice offers to reload.
     */
    public void requestDelete() {
        if (status.canDelete.get()) {
            saves.delete(buffer.base());
        }
    }

    /** "Save without lock" after this editor lost its lease: goes on optimistically and saves now. */
    public boolean saveWithoutLock() {
        lock.continueOptimistically();
        return save();
    }

    /** The confirmation question before breaking another operator's lock, naming them and the customer. */
    public String breakLockQuestion() {
        String holder = lock.stateProperty().get() instanceof LockState.HeldByOther other
                ? other.holder().holder() : "the holder";
        return "Break " + holder + "'s lock on " + status.displayName.get() + "? " + holder + " keeps the changes in "
                + "their editor but can no longer save them under the lock.";
    }

    /** "Release there": this operator holds the lease in another window; let it go from here. */
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
        String name = base == null ? status.displayName.get() : base.data().displayName();
        return "Delete " + name + " (Customer #" + id + ")? This cannot be undone."
                + (buffer.dirtyProperty().get() ? " Your unsaved changes are lost too." : "");
    }

    /**
     * "Restore this version": puts a version's values into the fields and saves them as an ordinary save on the
     * editor's current base, so it may conflict like any save (then the merge opens).
     *
     * @return whether a save started; {@code false} when the editor takes no edits now, or the record already holds
     *         these values (the notice says so)
     */
    public boolean restore(CustomerData values) {
        if (state.get() != EditorState.EDITING || !status.editable.get()) {
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

    /** Follows the hot-record advice: this editor switches to Lock for editing (taking the lease if it has edits). */
    public void useLockForEditing() {
        lock.modeProperty().set(ConcurrencyMode.LOCK_FOR_EDITING);
    }

    /** The editor closes: releases its lease (in the background) and stops its timers; not used afterwards. */
    public void close() {
        unsubscribe.forEach(Runnable::run);
        unsubscribe.clear();
        helpers.close();
        openLocks.close(lock);
    }

    /** Called on the FX thread after each successful save or create, with the stored record. */
    public void setOnSaved(Consumer<Customer> listener) {
        onSaved = listener == null ? c -> {} : listener;
    }

    /** Called on the FX thread after the customer was deleted, here or (once the operator discards) elsewhere. */
    public void setOnDeleted(Consumer<Long> listener) {
        onDeleted = listener == null ? i -> {} : listener;
    }

    /** Installs what makes the view's controls commit a value still being typed, before every save's snapshot. */
    public void setControlCommitter(Runnable committer) {
        controlCommitter = committer == null ? () -> {} : committer;
    }

    // ---- what the view shows --------------------------------------------------------------------------------------

    /** The text of one field as typed; the view binds its control to it. */
    public StringProperty textProperty(CustomerField field) {
        return buffer.text(field);
    }

    /** Why the field's value cannot be saved, or {@code null} when it can. */
    public ReadOnlyStringProperty errorProperty(CustomerField field) {
        return buffer.error(field);
    }

    /** A rule the stored, unchanged value of this field breaks (shown, never blocking), or {@code null}. */
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
        return conflicts.mergeProperty();
    }

    /** An open decision about a delete that met a newer version, or {@code null}. While open, no edits. */
    public ReadOnlyObjectProperty<DeleteConflictViewModel> deleteConflictProperty() {
        return conflicts.deleteConflictProperty();
    }

    /** The fields another's save changed when this clean editor moved to their version; highlighted briefly. */
    public ReadOnlyObjectProperty<Set<CustomerField>> recentlyChangedProperty() {
        return live.recentlyChangedProperty();
    }

    /** "Bob saved version 8 (phone, email) — Review" while this editor has unsaved edits on an older version. */
    public ReadOnlyStringProperty liveBannerProperty() {
        return live.bannerProperty();
    }

    /** The History tab's versions of this editor's customer. */
    public CustomerHistoryViewModel history() {
        return versions;
    }

    /** This editor's lock for editing: mode, state, banner. */
    public EditLockViewModel lock() {
        return lock;
    }

    /** "Message the holder…" and messages received about this customer; empty when the process has no messages. */
    public Optional<HolderMessaging> messaging() {
        return helpers.messaging();
    }

    /** "Also here: Bob (editing)": who else has this customer open; empty when nobody (or no presence shown). */
    public ReadOnlyStringProperty alsoHereProperty() {
        return helpers.alsoHereProperty();
    }

    /** "Often edited at the same time — consider Lock for editing" while optimistic on a hot record, else null. */
    public ReadOnlyStringProperty hotRecordAdviceProperty() {
        return helpers.hotRecordAdviceProperty();
    }

    /** The advice's detail, "4 conflicts on this customer in the last 7 days", or {@code null} with no advice. */
    public ReadOnlyStringProperty hotRecordDetailProperty() {
        return helpers.hotRecordDetailProperty();
    }

    /** The fields take edits. */
    public ReadOnlyBooleanProperty editableProperty() {
        return status.editable.getReadOnlyProperty();
    }

    /** Save would do something: the edits are valid and differ from the base (or the customer is new). */
    public ReadOnlyBooleanProperty canSaveProperty() {
        return status.canSave.getReadOnlyProperty();
    }

    /** Revert would do something. */
    public ReadOnlyBooleanProperty canRevertProperty() {
        return status.canRevert.getReadOnlyProperty();
    }

    /** Delete is possible: a stored customer, nothing in flight. */
    public ReadOnlyBooleanProperty canDeleteProperty() {
        return status.canDelete.getReadOnlyProperty();
    }

    /** "Can't save: …" with the first problem, or empty when nothing blocks a save. */
    public ReadOnlyStringProperty saveBlockedReasonProperty() {
        return status.saveBlockedReason.getReadOnlyProperty();
    }

    /** The customer's name as edited now: the company, else the contact, else "(unnamed)". */
    public ReadOnlyStringProperty displayNameProperty() {
        return status.displayName.getReadOnlyProperty();
    }

    /** "version N · saved by X at T", "Loading…" or "New customer · not saved yet". */
    public ReadOnlyStringProperty versionLineProperty() {
        return status.versionLine.getReadOnlyProperty();
    }

    /** The window title: "• Acme — Customer #3 — Lockstep — alice" ("•" while there are unsaved edits). */
    public ReadOnlyStringProperty titleProperty() {
        return status.title.getReadOnlyProperty();
    }

    /** The customer's id; empty for a new customer not yet saved. */
    public OptionalLong customerId() {
        return id < 0 ? OptionalLong.empty() : OptionalLong.of(id);
    }

    /** The writer id this editor writes as: its saves carry it, its lease is held by it. */
    public String writerId() {
        return writerId;
    }

    /** The operator's name. */
    public String user() {
        return user;
    }

    // ---- internals ------------------------------------------------------------------------------------------------

    private void watchLock() {
        buffer.dirtyProperty().addListener((obs, was, now) -> {
            if (now && helpers.attached()) {
                lock.editingStarted();
            }
        });
        for (CustomerField f : CustomerField.values()) {
            buffer.text(f).addListener(o -> lock.activity());
        }
        // Switching to lock mode with edits already made takes the lease at once, as a first change would.
        lock.modeProperty().addListener((obs, was, now) -> {
            if (now == ConcurrencyMode.LOCK_FOR_EDITING && buffer.dirtyProperty().get() && helpers.attached()) {
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

    /** The editor moves to {@code customerId} (-1: none): earlier results are dropped, pending work forgotten. */
    private void moveOn(long customerId) {
        scope.renew();
        reads.renew();
        forgetPending(customerId);
    }

    private void forgetPending(long customerId) {
        id = customerId;
        saves.queue().clear();
        live.forget();
        conflicts.close();
        notice.set(null);
    }

    private void refresh() {
        status.refresh(new EditorStatus.Inputs(state.get(), conflicts.open(), lock.readOnlyProperty().get(),
                buffer.problemsProperty().get(), buffer.dirtyProperty().get(), busy.get(), saves.queue().inFlight(),
                buffer.currentProperty().get(), buffer.base(), id, user, clock));
    }

    static String detail(Throwable failure) {
        String message = failure.getMessage();
        return message == null || message.isBlank() ? failure.getClass().getSimpleName() : message;
    }
}
