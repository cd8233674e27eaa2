package org.lockstep.ui.merge;

import java.time.Clock;
import java.time.ZoneId;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyIntegerProperty;
import javafx.beans.property.ReadOnlyIntegerWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.ObservableList;
import org.lockstep.concurrency.TaskExecutor;
import org.lockstep.concurrency.TaskScope;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.CustomerRepository;
import org.lockstep.domain.FieldParser;
import org.lockstep.domain.HistoryRepository;
import org.lockstep.domain.InvalidCustomerException;
import org.lockstep.domain.SaveOutcome;
import org.lockstep.domain.merge.ThreeWayMerge;
import org.lockstep.editing.CustomerEditing;
import org.lockstep.editing.MergeSave;
import org.lockstep.ui.EditorLocale;
import org.lockstep.editing.LockMessages;

/**
 * The merge dialog's state and decisions, after a versioned save came back with zero rows (PoEAA, Optimistic Offline
 * Lock): base (what the editor loaded), mine (the editor's values) and theirs (the record now) merged field by field
 * with {@link ThreeWayMerge}, one {@link MergeRowViewModel} per field, conflicts first.
 *
 * <p>Save merged is {@link CustomerEditing#mergeAndSave} with one attempt, as {@code lockstep set --merge} uses it:
 * a versioned save on theirs' version, skipped when the record already holds the Result. When that hits zero rows too, the dialog refreshes in place:
 * base becomes the theirs I merged against, mine becomes my merged result, theirs the record now, and
 * {@link #noticeProperty()} says so. When the record was deleted, the dialog turns into the deleted flow: Re-create
 * with my values (a new record keeping its external ref) or Discard. A database error leaves everything as it was,
 * with a message, so Save merged can be tried again; the operator can always leave.
 *
 * <p>All methods run on the JavaFX thread (or the test's thread with {@link TaskExecutor#sameThread()}); database
 * work goes through a {@link TaskScope}: once the dialog finished (saved, discarded, cancelled, re-created) or
 * refreshed, late answers from the database are dropped.
 */
public final class MergeViewModel {

    private final CustomerEditing editing;
    private final TaskScope scope;
    private final long id;
    private final CustomerData editorMine;

    private Customer base;
    private CustomerData mine;
    private Customer theirs;
    // The rows show values in the editor's locale; the Result is read back in the same one.
    private final FieldParser parser = EditorLocale.fields();
    private boolean refreshed;

    private final MergeRows rows = new MergeRows();
    private final MergeHeadings headings;
    private final ReadOnlyStringWrapper notice = new ReadOnlyStringWrapper(this, "notice", "");
    private final ReadOnlyStringWrapper error = new ReadOnlyStringWrapper(this, "error", "");
    private final ReadOnlyStringWrapper problems = new ReadOnlyStringWrapper(this, "problems", "");
    private final ReadOnlyStringWrapper progress = new ReadOnlyStringWrapper(this, "progress", "");
    private final ReadOnlyIntegerWrapper conflicts = new ReadOnlyIntegerWrapper(this, "conflicts");
    private final ReadOnlyIntegerWrapper resolved = new ReadOnlyIntegerWrapper(this, "resolved");
    private final ReadOnlyBooleanWrapper busy = new ReadOnlyBooleanWrapper(this, "busy");
    private final ReadOnlyBooleanWrapper deleted = new ReadOnlyBooleanWrapper(this, "deleted");
    private final ReadOnlyBooleanWrapper finished = new ReadOnlyBooleanWrapper(this, "finished");
    private final ReadOnlyBooleanWrapper canSave = new ReadOnlyBooleanWrapper(this, "canSave");
    private final ReadOnlyBooleanWrapper canRecreate = new ReadOnlyBooleanWrapper(this, "canRecreate");

    private Consumer<Customer> onSaved = c -> {};
    private Consumer<Customer> onDiscarded = c -> {};
    private Consumer<CustomerData> onCancelled = d -> {};
    private Consumer<Customer> onRecreated = c -> {};
    private Consumer<Long> onDeletionAccepted = i -> {};

    /**
     * A merge of my edits with a record someone else saved.
     *
     * @param base   the record as the editor loaded it
     * @param mine   the editor's values
     * @param theirs the record now (same id, a later version)
     */
    public MergeViewModel(CustomerRepository customers, HistoryRepository history, TaskExecutor executor,
            Customer base, CustomerData mine, Customer theirs) {
        this(customers, history, executor, base, mine, Objects.requireNonNull(theirs, "theirs"),
                Clock.systemDefaultZone());
    }

    private MergeViewModel(CustomerRepository customers, HistoryRepository history, TaskExecutor executor,
            Customer base, CustomerData mine, Customer theirs, Clock clock) {
        this.editing = new CustomerEditing(customers);
        this.headings = new MergeHeadings(Objects.requireNonNull(history, "history"), clock);
        this.scope = new TaskScope(executor);
        this.id = base.id();
        this.editorMine = Objects.requireNonNull(mine, "mine");
        if (theirs != null && theirs.id() != id) {
            throw new IllegalArgumentException("theirs is customer " + theirs.id() + ", base is customer " + id);
        }
        load(base, mine.normalized(), theirs);
    }

    /**
     * My save of a record someone deleted: shows who deleted it when (from the history's DELETE entry) and offers
     * Re-create with my values or Discard.
     *
     * @param base the record as the editor loaded it
     * @param mine the editor's values
     */
    public static MergeViewModel forDeleted(CustomerRepository customers, HistoryRepository history,
            TaskExecutor executor, Customer base, CustomerData mine) {
        return new MergeViewModel(customers, history, executor, base, mine, null, Clock.systemDefaultZone());
    }

    /**
     * The view model for a save's {@link SaveOutcome.Conflict}: a merge when theirs exists, else the deleted flow.
     *
     * @param base the record as the editor loaded it
     * @param mine the editor's values that the save tried to write
     */
    public static MergeViewModel forConflict(CustomerRepository customers, HistoryRepository history,
            TaskExecutor executor, Customer base, CustomerData mine,
            SaveOutcome.Conflict conflict) {
        return new MergeViewModel(customers, history, executor, base, mine, conflict.theirs().orElse(null),
                Clock.systemDefaultZone());
    }

    // ---- listeners the editor sets -------------------------------------------------------------------------------

    /** Called once the merged save committed, with the saved record: the editor's new clean base. */
    public void setOnSaved(Consumer<Customer> listener) {
        onSaved = Objects.requireNonNull(listener);
    }

    /** Called on "Discard my changes", with theirs: the editor shows theirs, clean. */
    public void setOnDiscarded(Consumer<Customer> listener) {
        onDiscarded = Objects.requireNonNull(listener);
    }

    /** Called on Esc / Back / closing the window, with the editor's values as it passed them: nothing is lost. */
    public void setOnCancelled(Consumer<CustomerData> listener) {
        onCancelled = Objects.requireNonNull(listener);
    }

    /** Called when "Re-create with my values" created a new record (the old one was deleted). */
    public void setOnRecreated(Consumer<Customer> listener) {
        onRecreated = Objects.requireNonNull(listener);
    }

    /**
     * Called on "Discard" for a record someone deleted, with its id: my edits are dropped and the record is gone, so
     * the editor should close it.
     */
    public void setOnDeletionAccepted(Consumer<Long> listener) {
        onDeletionAccepted = Objects.requireNonNull(listener);
    }

    // ---- what the view shows --------------------------------------------------------------------------------------

    /** Every field's row: conflicts first, then the other changed fields, then the unchanged ones; field order within. */
    public ObservableList<MergeRowViewModel> rows() {
        return rows.rowsView;
    }

    /** The rows to show: the changed fields and any invalid one, or every field with {@link #showAllProperty()}. */
    public ObservableList<MergeRowViewModel> visibleRows() {
        return rows.visibleRowsView;
    }

    /** The row of one field. */
    public MergeRowViewModel row(CustomerField field) {
        return rows.row(field);
    }

    /** Whether the unchanged fields are shown too. */
    public BooleanProperty showAllProperty() {
        return rows.showAll;
    }

    /** "Bob saved version 7 at 10:03 while you were editing version 5", or who deleted it when. */
    public ReadOnlyStringProperty titleProperty() {
        return headings.title.getReadOnlyProperty();
    }

    /** From the history: "3 saves since you loaded it: Bob (2), Carol (1)"; empty until loaded. */
    public ReadOnlyStringProperty historySummaryProperty() {
        return headings.historySummary.getReadOnlyProperty();
    }

    /** What changed under the operator: "Carol saved version 9 while you were merging — review the new changes". */
    public ReadOnlyStringProperty noticeProperty() {
        return notice.getReadOnlyProperty();
    }

    /** Why the last database call failed, and that nothing was lost; empty when it did not. */
    public ReadOnlyStringProperty errorProperty() {
        return error.getReadOnlyProperty();
    }

    /** Every reason the Result cannot be saved, in one sentence; empty when it can. */
    public ReadOnlyStringProperty problemsProperty() {
        return problems.getReadOnlyProperty();
    }

    /** "2 of 3 conflicts resolved". */
    public ReadOnlyStringProperty progressProperty() {
        return progress.getReadOnlyProperty();
    }

    /** The Base column's heading: which version, and what it is to the operator. */
    public ReadOnlyStringProperty baseHeadingProperty() {
        return headings.baseHeading.getReadOnlyProperty();
    }

    /** The Mine column's heading. */
    public ReadOnlyStringProperty mineHeadingProperty() {
        return headings.mineHeading.getReadOnlyProperty();
    }

    /** The Theirs column's heading: which version by whom, or that it was deleted. */
    public ReadOnlyStringProperty theirsHeadingProperty() {
        return headings.theirsHeading.getReadOnlyProperty();
    }

    /** The Result column's heading. */
    public ReadOnlyStringProperty resultHeadingProperty() {
        return headings.resultHeading.getReadOnlyProperty();
    }

    /** How many fields conflict. */
    public ReadOnlyIntegerProperty conflictsProperty() {
        return conflicts.getReadOnlyProperty();
    }

    /** How many conflicting fields are resolved. */
    public ReadOnlyIntegerProperty resolvedProperty() {
        return resolved.getReadOnlyProperty();
    }

    /** Whether a database call is running. */
    public ReadOnlyBooleanProperty busyProperty() {
        return busy.getReadOnlyProperty();
    }

    /** Whether the record is gone: the dialog offers Re-create or Discard instead of Save merged. */
    public ReadOnlyBooleanProperty deletedProperty() {
        return deleted.getReadOnlyProperty();
    }

    /** Whether the dialog is done (saved, discarded, cancelled, re-created) and should close. */
    public ReadOnlyBooleanProperty finishedProperty() {
        return finished.getReadOnlyProperty();
    }

    /** Whether Save merged may run: no conflict left, every Result valid, nothing running. */
    public ReadOnlyBooleanProperty canSaveProperty() {
        return canSave.getReadOnlyProperty();
    }

    /** Whether Re-create with my values may run (deleted records only). */
    public ReadOnlyBooleanProperty canRecreateProperty() {
        return canRecreate.getReadOnlyProperty();
    }

    /** The row the operator works on: where focus is, or where F7 went; Alt+M / Alt+T act on it. */
    public ReadOnlyObjectProperty<MergeRowViewModel> currentProperty() {
        return rows.currentProperty();
    }

    /** The customer's id. */
    public long customerId() {
        return id;
    }

    /** The base the merge is computed from: the loaded record, or after a refresh the theirs I merged against. */
    public Customer base() {
        return base;
    }

    /** Mine as merged now: the editor's values, or after a refresh my merged result. */
    public CustomerData mine() {
        return mine;
    }

    /** The record now; empty when it was deleted. */
    public Optional<Customer> theirs() {
        return Optional.ofNullable(theirs);
    }

    /** The window title: "Merge: Embraer". */
    public String windowTitle() {
        return (deleted.get() ? "Deleted while you were editing: " : "Merge: ") + mine.displayName();
    }

    /** My values as readable text for the clipboard ("Copy mine"): one "Label: value" line per field. */
    public String mineAsText() {
        return ReadableValues.of("My values for " + mine.displayName() + " (customer " + id + ", edited from version "
                + base.version() + ")", mine);
    }

    // ---- what the operator does -----------------------------------------------------------------------------------

    /** Makes a row the current one (the view calls this when focus enters a row). */
    public void setCurrent(MergeRowViewModel row) {
        rows.current.set(row);
    }

    /**
     * F7: moves to the next conflict after the current row, wrapping around.
     *
     * @return whether there was a conflict to go to
     */
    public boolean nextConflict() {
        return rows.moveToConflict(1);
    }

    /** Shift+F7: moves to the previous conflict, wrapping around. */
    public boolean previousConflict() {
        return rows.moveToConflict(-1);
    }

    /** Alt+M: Use mine on the current row, when it conflicts. */
    public void useMineOnCurrent() {
        rows.useMineOnCurrent();
    }

    /** Alt+T: Use theirs on the current row, when it conflicts. */
    public void useTheirsOnCurrent() {
        rows.useTheirsOnCurrent();
    }

    /** "Use mine for all": mine for every conflict not yet decided. */
    public void useMineForAll() {
        rows.all().forEach(MergeRowViewModel::useMineIfUndecided);
    }

    /** "Use theirs for all": theirs for every conflict not yet decided. */
    public void useTheirsForAll() {
        rows.all().forEach(MergeRowViewModel::useTheirsIfUndecided);
    }

    /**
     * Save merged: a versioned save of the Result on theirs' version, in the background. Saved → the dialog finishes
     * and {@link #setOnSaved onSaved} runs; zero rows → the dialog refreshes in place with the new theirs, or turns
     * into the deleted flow; a failure → {@link #errorProperty()} says why and nothing changes. Does nothing while
     * {@link #canSaveProperty()} is false.
     */
    public void saveMerged() {
        if (!canSave.get()) {
            return;
        }
        CustomerData merged = resultValues();
        Customer against = theirs;
        start();
        scope.execute(() -> editing.mergeAndSave(against, merged, against, 1),
                outcome -> saved(against, merged, outcome), failure -> failed("Not saved", failure, "Save merged"));
    }

    private void saved(Customer against, CustomerData merged, MergeSave outcome) {
        busy.set(false);
        if (outcome instanceof MergeSave.Saved saved) {
            finish();
            onSaved.accept(saved.saved());
        } else if (outcome instanceof MergeSave.AlreadyStored stored) {
            // Theirs already holds the Result (Use theirs for all): nothing to write, the editor takes theirs.
            finish();
            onSaved.accept(stored.theirs());
        } else if (outcome instanceof MergeSave.MovedOn moved) {
            refreshed = true;
            load(against, merged, moved.theirs());
            notice.set(headings.header().newChangesWhileMerging(moved.theirs()));
        } else if (outcome instanceof MergeSave.Conflicts conflicts) {
            // Not with one attempt on theirs' own version; shown as a refresh should the rule ever change.
            refreshed = true;
            load(against, merged, conflicts.theirs());
        } else if (outcome instanceof MergeSave.Deleted) {
            refreshed = true;
            load(against, merged, null);
        } else if (outcome instanceof MergeSave.Locked locked) {
            error.set("Not saved: " + LockMessages.lockedBy(locked.holder(), ZoneId.systemDefault())
                    + ". Nothing is lost: your merge is still here; try Save merged once the lock ends.");
        } else if (outcome instanceof MergeSave.LeaseLost) {
            error.set("Not saved: the lock for editing was lost. Nothing is lost: your merge is still here.");
        }
    }

    /**
     * "Re-create with my values" for a record someone deleted: creates a new record from the Result (my values,
     * keeping the external ref), in the background. Created → the dialog finishes and
     * {@link #setOnRecreated onRecreated} runs.
     */
    public void recreate() {
        if (!canRecreate.get()) {
            return;
        }
        CustomerData values = resultValues();
        start();
        scope.execute(() -> editing.create(values), created -> {
            busy.set(false);
            finish();
            onRecreated.accept(created);
        }, failure -> failed("Not re-created", failure, "Re-create"));
    }

    /**
     * "Discard my changes": the editor shows theirs, clean. For a deleted record: "Discard" — the editor closes it.
     */
    public void discardMyChanges() {
        if (finished.get()) {
            return;
        }
        finish();
        if (theirs == null) {
            onDeletionAccepted.accept(id);
        } else {
            onDiscarded.accept(theirs);
        }
    }

    /** Esc / Back: back to the editor with its values intact. Allowed at any time, even while saving. */
    public void cancel() {
        if (finished.get()) {
            return;
        }
        finish();
        onCancelled.accept(editorMine);
    }

    // ---- internals ------------------------------------------------------------------------------------------------

    private void load(Customer newBase, CustomerData newMine, Customer newTheirs) {
        scope.renew();
        base = newBase;
        mine = newMine;
        theirs = newTheirs;
        deleted.set(newTheirs == null);
        notice.set("");
        error.set("");
        rows.show(ThreeWayMerge.merge(newBase.data(), newMine, newTheirs == null ? newBase.data() : newTheirs.data()),
                this::revalidate);
        headings.show(scope, base, theirs, refreshed);
        revalidate();
    }

    /** The Result's text of every field. */
    private Map<CustomerField, String> resultTexts() {
        Map<CustomerField, String> texts = new EnumMap<>(CustomerField.class);
        rows.all().forEach(r -> texts.put(r.field(), r.getResult()));
        return texts;
    }

    /** The Result as values; only called when the check found no problem. */
    private CustomerData resultValues() {
        return ResultCheck.values(resultTexts(), parser);
    }

    /** Checks the Result like the editor does, after every change of a row. */
    private void revalidate() {
        show(ResultCheck.of(resultTexts(), parser, theirs == null ? CustomerData.EMPTY : theirs.data()));
    }

    private void show(ResultCheck check) {
        rows.all().forEach(r -> r.setError(check.byField().getOrDefault(r.field(), "")));
        problems.set(check.ok() ? "" : "Cannot be saved yet: " + String.join("; ", check.all()));
        int total = rows.conflicts();
        int done = rows.resolved();
        conflicts.set(total);
        resolved.set(done);
        progress.set(MergeHeader.progress(done, total));
        updateActions();
        rows.refreshVisible();
    }

    private void updateActions() {
        boolean open = !busy.get() && !finished.get() && problems.get().isEmpty();
        canSave.set(open && !deleted.get() && resolved.get() == conflicts.get());
        canRecreate.set(open && deleted.get());
    }

    private void start() {
        busy.set(true);
        error.set("");
        updateActions();
    }

    private void finish() {
        finished.set(true);
        scope.close();
        updateActions();
    }

    private void failed(String what, Throwable failure, String retry) {
        busy.set(false);
        if (failure instanceof InvalidCustomerException invalid) {
            error.set(what + ": the database did not accept some values. Correct the Result and try " + retry
                    + " again.");
            show(ResultCheck.of(invalid.errors()));
            return;
        }
        error.set(what + ": " + message(failure) + ". Nothing is lost: your merge is still here; try " + retry
                + " again.");
        updateActions();
    }

    static String message(Throwable failure) {
        String m = failure.getMessage();
        return m == null || m.isBlank() ? failure.getClass().getSimpleName() : m;
    }
}
