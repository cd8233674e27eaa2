package org.lockstep.ui.editor;

import java.time.Clock;
import java.util.List;
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
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.CustomerRepository;
import org.lockstep.domain.DeleteOutcome;
import org.lockstep.domain.FieldError;
import org.lockstep.domain.InvalidCustomerException;
import org.lockstep.domain.SaveOutcome;
import org.lockstep.ui.SaveStamp;
import org.lockstep.ui.TaskExecutor;
import org.lockstep.ui.conflict.ConflictChoice;
import org.lockstep.ui.conflict.ConflictViewModel;

/**
 * One customer editor: loads a record, buffers the operator's edits, validates them while typing and saves them
 * with a versioned save (PoEAA, Optimistic Offline Lock). Every database call runs through the {@link TaskExecutor};
 * results are applied on the FX thread, which is the only thread that may touch this object.
 *
 * <p>Saves from one editor are serialized: a save requested while another is in flight waits in a queue and then
 * uses the version that one returned, so an operator never conflicts with their own save. A queued save whose values
 * the database already holds is skipped rather than written as an empty new version.
 *
 * <p>A save that matches zero rows raises a {@link ConflictViewModel} ({@link #conflictProperty()}); nothing is
 * overwritten until the operator chooses. A failed call keeps every edit and says so in {@link #noticeProperty()}.
 */
public final class CustomerEditorViewModel {

    /** The notice after a save failed for any reason other than invalid values. */
    public static final String SAVE_FAILED = "Can't reach the database — your changes are kept. Try Save again.";

    private final CustomerRepository repository;
    private final TaskExecutor executor;
    private final String user;
    private final Clock clock;
    private final EditBuffer buffer = new EditBuffer();
    private final SaveQueue saves = new SaveQueue(this::startSave);

    private final ReadOnlyObjectWrapper<EditorState> state =
            new ReadOnlyObjectWrapper<>(this, "state", EditorState.EMPTY);
    private final ReadOnlyBooleanWrapper busy = new ReadOnlyBooleanWrapper(this, "busy");
    private final ReadOnlyObjectWrapper<EditorNotice> notice = new ReadOnlyObjectWrapper<>(this, "notice");
    private final ReadOnlyObjectWrapper<ConflictViewModel> conflict = new ReadOnlyObjectWrapper<>(this, "conflict");
    private final ReadOnlyBooleanWrapper editable = new ReadOnlyBooleanWrapper(this, "editable");
    private final ReadOnlyBooleanWrapper canSave = new ReadOnlyBooleanWrapper(this, "canSave");
    private final ReadOnlyBooleanWrapper canRevert = new ReadOnlyBooleanWrapper(this, "canRevert");
    private final ReadOnlyBooleanWrapper canDelete = new ReadOnlyBooleanWrapper(this, "canDelete");
    private final ReadOnlyStringWrapper saveBlockedReason = new ReadOnlyStringWrapper(this, "saveBlockedReason", "");
    private final ReadOnlyStringWrapper displayName = new ReadOnlyStringWrapper(this, "displayName", "");
    private final ReadOnlyStringWrapper versionLine = new ReadOnlyStringWrapper(this, "versionLine", "");
    private final ReadOnlyStringWrapper title = new ReadOnlyStringWrapper(this, "title", "");

    private long id = -1;
    private int callsInFlight;
    // Bumped by load and startNew: a late result for an earlier record must not overwrite the one shown now.
    private int generation;
    private EditBuffer.Snapshot conflictedMine;
    private Consumer<Customer> onSaved = c -> { };
    private Consumer<Long> onDeleted = i -> { };
    private Runnable controlCommitter = () -> { };

    /**
     * @param repository where customers are kept, acting as {@code user}
     * @param executor   runs the database calls off the FX thread
     * @param user       the operator's name, for titles and messages
     */
    public CustomerEditorViewModel(CustomerRepository repository, TaskExecutor executor, String user) {
        this(repository, executor, user, Clock.systemDefaultZone());
    }

    /** As the other constructor, telling the time of saves by {@code clock} (zone and today). */
    public CustomerEditorViewModel(CustomerRepository repository, TaskExecutor executor, String user, Clock clock) {
        this.repository = Objects.requireNonNull(repository);
        this.executor = Objects.requireNonNull(executor);
        this.user = Objects.requireNonNull(user);
        this.clock = clock;
        Observable[] inputs = {state, busy, conflict, buffer.dirtyProperty(), buffer.problemsProperty(),
            buffer.currentProperty(), buffer.baseProperty()};
        for (Observable input : inputs) {
            input.addListener(o -> refresh());
        }
        refresh();
    }

    /** Loads a customer in the background; until it arrives the editor shows "Loading…" and takes no edits. */
    public void load(long customerId) {
        int gen = ++generation;
        boolean reload = buffer.base() != null && buffer.base().id() == customerId;
        EditorState before = state.get();
        forgetPending(customerId);
        if (!reload) {
            buffer.reset(null);
        }
        state.set(EditorState.LOADING);
        run(() -> repository.find(customerId), found -> {
            if (gen != generation) {
                return;
            }
            if (found.isPresent()) {
                buffer.reset(found.get());
                state.set(EditorState.EDITING);
            } else {
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
        state.set(EditorState.NEW);
        buffer.reset(null);
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
            buffer.reset(buffer.base());
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
        run(() -> repository.delete(base.id(), base.version()), outcome -> {
            if (outcome instanceof DeleteOutcome.Deleted) {
                deleted(gen, base.id(), EditorNotice.info("Deleted " + name + "."));
            } else if (gen != generation) {
                return;
            } else if (outcome instanceof DeleteOutcome.Conflict c && c.theirs().isPresent()) {
                Customer theirs = c.theirs().get();
                notice.set(EditorNotice.error("Not deleted: " + name + " changed since you loaded it ("
                        + SaveStamp.who(theirs) + " saved version " + theirs.version() + " at "
                        + SaveStamp.time(theirs.updatedAt(), clock) + "). Reload to see the changes.", "")
                        .withReload());
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

    /** An unresolved conflict, or {@code null}. While one is open the editor takes no edits. */
    public ReadOnlyObjectProperty<ConflictViewModel> conflictProperty() {
        return conflict.getReadOnlyProperty();
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
        run(() -> repository.save(base.id(), baseVersion, mine.data()), outcome -> {
            if (outcome instanceof SaveOutcome.Saved s) {
                saved(gen, mine, s.saved());
            } else if (outcome instanceof SaveOutcome.Conflict c) {
                conflicted(gen, mine, baseVersion, c.theirs());
            }
        }, e -> saveFailed(gen, mine, e));
    }

    private void saved(int gen, EditBuffer.Snapshot mine, Customer stored) {
        if (gen == generation) {
            id = stored.id();
            buffer.saved(stored, mine);
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

    private void conflicted(int gen, EditBuffer.Snapshot mine, long baseVersion, Optional<Customer> theirs) {
        if (theirs.isPresent() && theirs.get().data().normalized().sameValues(mine.data().normalized())) {
            // The database already holds exactly these values (e.g. a save whose reply was lost): nothing to resolve.
            saved(gen, mine, theirs.get());
            return;
        }
        if (gen != generation) {
            saves.next(this::alreadyStored);
            return;
        }
        EditBuffer.Snapshot latest = saves.abandon(mine);
        conflictedMine = latest;
        conflict.set(new ConflictViewModel(theirs, latest.data(), baseVersion, user, clock, this::resolve));
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
        } else {
            notice.set(EditorNotice.error(SAVE_FAILED, detail(failure)));
        }
    }

    private void resolve(ConflictChoice choice) {
        ConflictViewModel open = conflict.get();
        EditBuffer.Snapshot mine = conflictedMine;
        conflict.set(null);
        conflictedMine = null;
        notice.set(null);
        switch (choice) {
            case OVERWRITE_WITH_MINE -> {
                buffer.rebase(open.theirs().orElseThrow());
                saves.submit(mine);
            }
            case DISCARD_MINE_AND_RELOAD -> {
                buffer.reset(open.theirs().orElseThrow());
                state.set(EditorState.EDITING);
            }
            case BACK_TO_MY_EDITS -> notice.set(EditorNotice.info(open.header()
                    + ". Your edits are kept; Save shows both versions again."));
            case SAVE_MINE_AS_NEW -> {
                id = -1;
                state.set(EditorState.NEW);
                buffer.rebase(null);
                saves.submit(mine);
            }
            case DISCARD -> {
                buffer.reset(buffer.base());
                deleted(generation, id, EditorNotice.info("This customer was deleted by someone else."));
            }
        }
    }

    private void deleted(int gen, long deletedId, EditorNotice message) {
        if (gen == generation) {
            forgetPending(deletedId);
            state.set(EditorState.DELETED);
            notice.set(message);
        }
        onDeleted.accept(deletedId);
    }

    private void forgetPending(long customerId) {
        id = customerId;
        saves.clear();
        conflict.set(null);
        conflictedMine = null;
        notice.set(null);
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
    }

    private void refresh() {
        EditorState s = state.get();
        boolean open = (s == EditorState.NEW || s == EditorState.EDITING) && conflict.get() == null;
        List<FieldError> problems = buffer.problemsProperty().get();
        boolean dirty = buffer.dirtyProperty().get();
        editable.set(open);
        // A save may be requested while another is in flight (it queues), but not while a load or delete runs.
        boolean otherCallInFlight = busy.get() && !saves.inFlight();
        canSave.set(open && problems.isEmpty() && (dirty || s == EditorState.NEW) && !otherCallInFlight);
        canRevert.set(open && dirty && !busy.get());
        canDelete.set(open && s == EditorState.EDITING && !busy.get());
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
