package org.lockstep.ui.editor;

import java.time.Clock;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.function.Consumer;
import javafx.beans.Observable;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import org.lockstep.concurrency.TaskScope;
import org.lockstep.ui.timeline.TimelineViewModel;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerRepository;
import org.lockstep.domain.HistoryRepository;
import org.lockstep.editing.CustomerEditing;
import org.lockstep.editing.LockState;
import org.lockstep.ui.EditorServices;
import org.lockstep.ui.lock.EditLockViewModel;
import org.lockstep.ui.lock.OpenLocks;
import org.lockstep.text.Texts;

/**
 * One customer editor: loads a record, buffers the operator's edits, validates them while typing and saves them
 * with a versioned save (PoEAA, Optimistic Offline Lock). Every database call runs through a {@link TaskScope} over
 * the process's executor: results are applied on the FX thread, which is the only thread that may touch this object,
 * and a result for a record no longer shown is dropped. A failed call keeps every edit and says so in
 * {@link #noticeProperty()}.
 *
 * <p>The editor is composed of small parts, and the view binds to them directly: {@link #buffer()} (the edits),
 * {@link #status()} (what the controls show), {@link #saves()} (saves and deletes through
 * {@link org.lockstep.editing.CustomerEditing}, serialized), {@link #live()} (other writers' changes as they happen),
 * {@link #conflicts()} (a zero-row save opens a three-way merge, a zero-row delete a decision; nothing is overwritten
 * until the operator chooses), {@link #helpers()} (messaging, presence seat, hot-record advice) and {@link #lock()}
 * (the lock for editing, wired to the edits by {@link LockWiring}). This class keeps what they share: the record
 * shown, its state and notice, and the moves from record to record.
 *
 * <p>Each editor writes as a writer id of its own ({@link EditorServices#forNewEditor()}): two windows of one operator
 * are two writers. A save from another window is announced here like anyone's ("You saved version 8 in another
 * window — Review"), and a lease held in another window makes this editor read-only ("Locked by you in another
 * window") and refuses its saves, under the lease and optimistic alike (docs/decisions/0012-one-writer-per-editor.md).
 */
public final class CustomerEditorViewModel {

    /** The notice after a save failed for any reason other than invalid values. */
    public static final String SAVE_FAILED =
            Texts.key("Can't reach the database — your changes are kept. Try Save again.");
    /** The notice after a save whose reply was lost for good: it may or may not have been saved. */
    public static final String SAVE_OUTCOME_UNKNOWN = Texts.key("The connection was lost while saving: Lockstep "
            + "can't tell whether it was saved. Your changes are kept — Save again once the database is back; it will "
            + "not save twice.");

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
    private final TimelineViewModel timeline;
    private final RecordHelpers helpers;
    private final LiveFollower live;
    private final ConflictFlow conflicts;
    private final EditorSaves saves;
    private final List<Runnable> unsubscribe = new ArrayList<>();
    private long id = -1;
    private Consumer<Customer> onSaved = c -> {};
    private Consumer<Long> onDeleted = i -> {};

    /** An editor using the process's services; its lock starts in the default mode. */
    public CustomerEditorViewModel(EditorServices services) {
        this(services, Clock.system(ZoneId.systemDefault()));
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
        this.timeline = new TimelineViewModel(historyRepository, services.executor(), clock.getZone());
        this.helpers = RecordHelpers.of(services, lock, buffer.dirtyProperty(), notice::set);
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
        buffer.baseProperty().addListener((obs, was, now) -> timeline.show(now == null ? -1 : now.id()));
        Observable[] inputs = {state, busy, conflicts.mergeProperty(), conflicts.deleteConflictProperty(),
                buffer.dirtyProperty(), buffer.problemsProperty(), buffer.currentProperty(), buffer.baseProperty(),
                lock.readOnlyProperty()};
        for (Observable input : inputs) {
            input.addListener(o -> refresh());
        }
        LockWiring.wire(this, lock);
        services.live().ifPresent(l -> unsubscribe.addAll(live.follow(l)));
        refresh();
    }

    // ---- what the parts use ---------------------------------------------------------------------------------------

    CustomerRepository customers() {
        return editing.customers();
    }

    HistoryRepository historyRepository() {
        return historyRepository;
    }

    ZoneId zone() {
        return clock.getZone();
    }

    boolean callsInFlight() {
        return scope.busy();
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
        notice.set(EditorNotice.info(Texts.tr("Re-created as Customer #{0} with your values.", created.id())));
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
                notice.set(
                        EditorNotice.info(Texts.tr("Customer #{0} no longer exists; someone deleted it.", customerId)));
            }
        }, failure -> {
            state.set(reload ? before : EditorState.EMPTY);
            notice.set(EditorNotice.error(Texts.tr("Can't reach the database — Customer #{0} could not be loaded.",
                    customerId), EditorNotice.detail(failure)).withReload());
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

    /** Drops every edit: the editor shows its base again (a new customer becomes blank). */
    public void revert() {
        if (status.canRevert.get()) {
            // Dropping the edits also drops the reason to stay on the old base: show the newer record announced.
            buffer.reset(live.theirs().orElse(buffer.base()));
            live.clear();
            notice.set(null);
        }
    }

    /** The confirmation question before breaking another operator's lock, naming them and the customer. */
    public String breakLockQuestion() {
        String holder = lock.stateProperty().get() instanceof LockState.HeldByOther other ? other.holder().holder()
                : null;
        return EditorTexts.breakLockQuestion(holder, status.displayName.get());
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

    // ---- what the view shows --------------------------------------------------------------------------------------

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

    /** The edits: each field's text, error and warning, the base record, whether it is dirty. */
    public EditBuffer buffer() {
        return buffer;
    }

    /** What the controls show: editable, can save / revert / delete, why Save is blocked, name, version, title. */
    public EditorStatus status() {
        return status;
    }

    /** Save, Save and then, Save without lock, Restore, Delete and its question. */
    public EditorSaves saves() {
        return saves;
    }

    /** Other writers' changes: the live banner and the fields another's save just changed. */
    public LiveFollower live() {
        return live;
    }

    /** The open merge or delete decision, if any. */
    public ConflictFlow conflicts() {
        return conflicts;
    }

    /** Messaging the holder, who else is here, the hot-record advice. */
    public RecordHelpers helpers() {
        return helpers;
    }

    /** The History tab's versions of this editor's customer. */
    public CustomerHistoryViewModel history() {
        return versions;
    }

    /** The Timeline tab: this editor's customer as a sequence diagram of its history and lease events. */
    public TimelineViewModel timeline() {
        return timeline;
    }

    /** This editor's lock for editing: mode, state, banner. */
    public EditLockViewModel lock() {
        return lock;
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
}
