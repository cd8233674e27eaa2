package org.lockstep.ui.merge;

import static org.lockstep.text.Texts.tr;

import java.time.Clock;
import java.time.ZoneId;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyIntegerProperty;
import javafx.beans.property.ReadOnlyLongProperty;
import javafx.beans.property.ReadOnlyLongWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.collections.ObservableList;
import org.lockstep.concurrency.TaskExecutor;
import org.lockstep.concurrency.TaskScope;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.CustomerRepository;
import org.lockstep.domain.FieldParser;
import org.lockstep.domain.HistoryRepository;
import org.lockstep.domain.SaveOutcome;
import org.lockstep.domain.merge.ThreeWayMerge;
import org.lockstep.drafts.MergeDraft;
import org.lockstep.editing.CustomerEditing;
import org.lockstep.editing.MergeSave;
import org.lockstep.editing.LockMessages;
import org.lockstep.ui.EditorLocale;

/**
 * The merge dialog's state and decisions, after a versioned save came back with zero rows (PoEAA, Optimistic Offline
 * Lock): base (what the editor loaded), mine (the editor's values) and theirs (the record now) merged field by field
 * with {@link ThreeWayMerge}, one {@link MergeRowViewModel} per field, conflicts first.
 *
 * <p>Save merged is {@link CustomerEditing#mergeAndSave} with one attempt, as {@code lockstep set --merge} uses it:
 * a versioned save on theirs' version, skipped when the record already holds the Result. When that hits zero rows
 * too, the dialog refreshes in place: base becomes the theirs I merged against, mine my merged result, theirs the
 * record now, and {@link #noticeProperty()} says so. When the record was deleted, the dialog turns into the deleted
 * flow: Re-create with my values (a new record keeping its external ref) or Discard. A database error leaves
 * everything as it was, with a message, so Save merged can be tried again; the operator can always leave. The parts:
 * {@code MergeRows} and its {@link MergeCursor}, {@link MergeHeadings}, {@code MergeStatus}.
 *
 * <p>All methods run on the JavaFX thread (or the test's thread with {@link TaskExecutor#sameThread()}); database
 * work goes through a {@link TaskScope}: once the dialog finished (saved, discarded, cancelled, re-created) or
 * refreshed, late answers from the database are dropped.
 */
public final class MergeViewModel {

    private final CustomerEditing editing;
    private final TaskExecutor executor;
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
    private final ReadOnlyLongWrapper revision = new ReadOnlyLongWrapper(this, "revision");
    private final MergeHeadings headings;
    private final MergeStatus status = new MergeStatus(rows);

    private Consumer<MergeOutcome> onFinished = o -> {};

    /**
     * A merge of my edits with a record someone else saved.
     *
     * @param base   the record as the editor loaded it
     * @param mine   the editor's values
     * @param theirs the record now (same id, a later version)
     */
    public MergeViewModel(CustomerRepository customers, HistoryRepository history, TaskExecutor executor,
            Customer base, CustomerData mine, Customer theirs) {
        this(customers, history, executor, base, mine, Optional.of(Objects.requireNonNull(theirs, "theirs")));
    }

    /** {@code theirs} empty: the record was deleted. */
    private MergeViewModel(CustomerRepository customers, HistoryRepository history, TaskExecutor executor,
            Customer base, CustomerData mine, Optional<Customer> theirs) {
        this.editing = new CustomerEditing(customers);
        this.headings = new MergeHeadings(Objects.requireNonNull(history, "history"),
                Clock.system(ZoneId.systemDefault()));
        this.executor = executor;
        this.scope = new TaskScope(executor);
        this.id = base.id();
        this.editorMine = Objects.requireNonNull(mine, "mine");
        if (theirs.isPresent() && theirs.get().id() != id) {
            throw new IllegalArgumentException("theirs is customer " + theirs.get().id() + ", base is customer " + id);
        }
        load(base, mine.normalized(), theirs.orElse(null));
    }

    /**
     * My save of a record someone deleted: who deleted it when (the history's DELETE entry); Re-create or Discard.
     *
     * @param base the record as the editor loaded it
     * @param mine the editor's values
     */
    public static MergeViewModel forDeleted(CustomerRepository customers, HistoryRepository history,
            TaskExecutor executor, Customer base, CustomerData mine) {
        return new MergeViewModel(customers, history, executor, base, mine, Optional.empty());
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
        return new MergeViewModel(customers, history, executor, base, mine, conflict.theirs());
    }

    /**
     * Called once, when the merge ends, with how it ended ({@link MergeOutcome}): saved, discarded, cancelled,
     * re-created or the deletion accepted. Late answers from the database after that are dropped.
     */
    public void setOnFinished(Consumer<MergeOutcome> listener) {
        onFinished = Objects.requireNonNull(listener);
    }

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
        return status.notice.getReadOnlyProperty();
    }

    /** Why the last database call failed, and that nothing was lost; empty when it did not. */
    public ReadOnlyStringProperty errorProperty() {
        return status.error.getReadOnlyProperty();
    }

    /** Every reason the Result cannot be saved, in one sentence; empty when it can. */
    public ReadOnlyStringProperty problemsProperty() {
        return status.problems.getReadOnlyProperty();
    }

    /** "2 of 3 conflicts resolved". */
    public ReadOnlyStringProperty progressProperty() {
        return status.progress.getReadOnlyProperty();
    }

    /** How many fields conflict. */
    public ReadOnlyIntegerProperty conflictsProperty() {
        return status.conflicts.getReadOnlyProperty();
    }

    /** How many conflicting fields are resolved. */
    public ReadOnlyIntegerProperty resolvedProperty() {
        return status.resolved.getReadOnlyProperty();
    }

    /** Whether a database call is running. */
    public ReadOnlyBooleanProperty busyProperty() {
        return status.busy.getReadOnlyProperty();
    }

    /** Whether the record is gone: the dialog offers Re-create or Discard instead of Save merged. */
    public ReadOnlyBooleanProperty deletedProperty() {
        return status.deleted.getReadOnlyProperty();
    }

    /** Whether the dialog is done (saved, discarded, cancelled, re-created) and should close. */
    public ReadOnlyBooleanProperty finishedProperty() {
        return status.finished.getReadOnlyProperty();
    }

    /** Whether Save merged may run: no conflict left, every Result valid, nothing running. */
    public ReadOnlyBooleanProperty canSaveProperty() {
        return status.canSave.getReadOnlyProperty();
    }

    /** Whether Re-create with my values may run (deleted records only). */
    public ReadOnlyBooleanProperty canRecreateProperty() {
        return status.canRecreate.getReadOnlyProperty();
    }

    /** The row the operator works on and the moves between conflicts (F7, Alt+M, Alt+T). */
    public MergeCursor cursor() {
        return rows.cursor;
    }

    /** The column headings: which version each column shows, and what it is to the operator. */
    public MergeHeadings headings() {
        return headings;
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
        return status.deleted.get() ? tr("Deleted while you were editing: {0}", mine.displayName())
                : tr("Merge: {0}", mine.displayName());
    }

    /** My values as readable text for the clipboard ("Copy mine"): one "Label: value" line per field. */
    public String mineAsText() {
        return ReadableValues.of(tr("My values for {0} (customer {1}, edited from version {2})", mine.displayName(), id,
                base.version()), mine);
    }

    /**
     * Counts every change of a choice, a Result or the versions merged (a refresh): what an editor's journal of
     * unsaved work listens to (issue 28). Its value means nothing else.
     */
    public ReadOnlyLongProperty revisionProperty() {
        return revision.getReadOnlyProperty();
    }

    /**
     * The choices made so far, against the theirs merged now, for the editor's draft (issue 28); empty for a record
     * someone deleted, whose draft is the editor's edits alone (restored, it offers the re-creation again).
     */
    public Optional<MergeDraft> draft() {
        return theirs == null || status.finished.get() ? Optional.empty()
                : Optional.of(MergeChoices.of(theirs, rows.all()));
    }

    /**
     * A merge opened again from a draft (issue 28) chooses what the operator had chosen: mine and what they wrote
     * wherever the field still conflicts, theirs and part-by-part choices where theirs' value is still the one they
     * chose from. When the customer moved on past the version of the draft, the notice says who saved which version,
     * as when it moves on during a merge.
     */
    public void restoreChoices(MergeDraft kept) {
        if (theirs == null) {
            return;
        }
        MergeChoices.restore(kept, theirs, rows.all());
        if (theirs.version() > kept.theirsVersion()) {
            status.notice.set(headings.header().newChangesWhileMerging(theirs));
        }
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
     * and {@link #setOnFinished onFinished} runs with {@link MergeOutcome.Saved}; zero rows → the dialog refreshes in place with the new theirs, or turns
     * into the deleted flow; a failure → {@link #errorProperty()} says why and nothing changes. Does nothing while
     * {@link #canSaveProperty()} is false.
     */
    public void saveMerged() {
        if (!status.canSave.get()) {
            return;
        }
        CustomerData merged = resultValues();
        Customer against = theirs;
        status.start();
        scope.execute(() -> editing.saveMerged(against, merged),
                outcome -> saved(against, merged, outcome),
                failure -> status.failed(false, failure));
    }

    private void saved(Customer against, CustomerData merged, MergeSave outcome) {
        status.stopped();
        if (outcome instanceof MergeSave.Saved saved) {
            finish(new MergeOutcome.Saved(saved.saved()));
        } else if (outcome instanceof MergeSave.AlreadyStored stored) {
            // Theirs already holds the Result (Use theirs for all): nothing to write, the editor takes theirs.
            finish(new MergeOutcome.Saved(stored.theirs()));
        } else if (outcome instanceof MergeSave.Locked locked) {
            status.lockedOut(LockMessages.lockedBy(locked.holder(), ZoneId.systemDefault()));
        } else if (outcome instanceof MergeSave.LeaseLost) {
            status.leaseLost();
        } else {
            // Moved on, deleted, or conflicting again (not with one attempt on theirs' own version, but shown as a
            // refresh should the rule ever change): the dialog refreshes in place.
            Customer now = outcome instanceof MergeSave.MovedOn moved ? moved.theirs()
                    : outcome instanceof MergeSave.Conflicts again ? again.theirs() : null;
            refreshed = true;
            load(against, merged, now);
            if (outcome instanceof MergeSave.MovedOn) {
                status.notice.set(headings.header().newChangesWhileMerging(now));
            }
        }
    }

    /**
     * "Re-create with my values" for a record someone deleted: creates a new record from the Result (my values,
     * keeping the external ref), in the background. Created → the dialog finishes and
     * {@link #setOnFinished onFinished} runs with {@link MergeOutcome.Recreated}.
     */
    public void recreate() {
        if (!status.canRecreate.get()) {
            return;
        }
        CustomerData values = resultValues();
        status.start();
        scope.execute(() -> editing.create(values), created -> {
            status.stopped();
            finish(new MergeOutcome.Recreated(created));
        }, failure -> status.failed(true, failure));
    }

    /**
     * "Discard my changes": the editor shows theirs, clean. For a deleted record: "Discard" — the editor closes it.
     */
    public void discardMyChanges() {
        if (status.finished.get()) {
            return;
        }
        // Counted for the conflict report in the background (a failure is logged): the dialog closes at once.
        executor.task(Executors.callable(() -> editing.mergeAbandoned(id))).start();
        finish(theirs == null ? new MergeOutcome.DeletionAccepted(id) : new MergeOutcome.Discarded(theirs));
    }

    /** Esc / Back: back to the editor with its values intact. Allowed at any time, even while saving. */
    public void cancel() {
        if (status.finished.get()) {
            return;
        }
        finish(new MergeOutcome.Cancelled(editorMine));
    }

    private void load(Customer newBase, CustomerData newMine, Customer newTheirs) {
        scope.renew();
        base = newBase;
        mine = newMine;
        theirs = newTheirs;
        status.showing(newTheirs == null);
        rows.show(ThreeWayMerge.merge(newBase.data(), newMine, newTheirs == null ? newBase.data() : newTheirs.data()),
                this::revalidate);
        headings.show(scope, base, theirs, refreshed);
        revalidate();
    }

    /** The Result as values; only called when the check found no problem. */
    private CustomerData resultValues() {
        return ResultCheck.values(rows.resultTexts(), parser);
    }

    /** Checks the Result like the editor does, after every change of a row. */
    private void revalidate() {
        status.show(ResultCheck.of(rows.resultTexts(), parser, theirs == null ? CustomerData.EMPTY : theirs.data()));
        revision.set(revision.get() + 1);
    }

    private void finish(MergeOutcome outcome) {
        status.finish();
        scope.close();
        onFinished.accept(outcome);
    }
}
