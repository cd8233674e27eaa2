package org.lockstep.ui.merge;

import java.time.Clock;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
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
import javafx.beans.property.SimpleBooleanProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.CustomerRepository;
import org.lockstep.domain.FieldParser;
import org.lockstep.domain.HistoryEntry;
import org.lockstep.domain.HistoryRepository;
import org.lockstep.domain.InvalidCustomerException;
import org.lockstep.domain.SaveOutcome;
import org.lockstep.domain.merge.MergeResult;
import org.lockstep.domain.merge.ThreeWayMerge;
import org.lockstep.ui.EditorLocale;
import org.lockstep.concurrency.TaskExecutor;
import org.lockstep.ui.lock.LockMessages;

/**
 * The merge dialog's state and decisions, after a versioned save came back with zero rows (PoEAA, Optimistic Offline
 * Lock): base (what the editor loaded), mine (the editor's values) and theirs (the record now) merged field by field
 * with {@link ThreeWayMerge}, one {@link MergeRowViewModel} per field, conflicts first.
 *
 * <p>Save merged is a versioned save on theirs' version. When that hits zero rows too, the dialog refreshes in place:
 * base becomes the theirs I merged against, mine becomes my merged result, theirs the record now, and
 * {@link #noticeProperty()} says so. When the record was deleted, the dialog turns into the deleted flow: Re-create
 * with my values (a new record keeping its external ref) or Discard. A database error leaves everything as it was,
 * with a message, so Save merged can be tried again; the operator can always leave.
 *
 * <p>All methods run on the JavaFX thread (or the test's thread with {@link TaskExecutor#sameThread()}); database
 * work goes through the {@link TaskExecutor}. Once the dialog finished (saved, discarded, cancelled, re-created),
 * late answers from the database are ignored.
 */
public final class MergeViewModel {

    private final CustomerRepository customers;
    private final HistoryRepository history;
    private final TaskExecutor executor;
    private final Clock clock;
    private final long id;
    private final CustomerData editorMine;

    private Customer base;
    private CustomerData mine;
    private Customer theirs;
    // The rows show values in the editor's locale; the Result is read back in the same one.
    private final FieldParser parser = EditorLocale.fields();
    private boolean refreshed;
    private int generation;

    private final ObservableList<MergeRowViewModel> rows = FXCollections.observableArrayList();
    private final ObservableList<MergeRowViewModel> visibleRows = FXCollections.observableArrayList();
    // One read-only view each, kept: an unmodifiable list listens to its source only weakly, so a fresh wrapper per
    // call would lose its listeners to the garbage collector.
    private final ObservableList<MergeRowViewModel> rowsView = FXCollections.unmodifiableObservableList(rows);
    private final ObservableList<MergeRowViewModel> visibleRowsView =
            FXCollections.unmodifiableObservableList(visibleRows);
    private final BooleanProperty showAll = new SimpleBooleanProperty(this, "showAll");
    private final ReadOnlyStringWrapper title = new ReadOnlyStringWrapper(this, "title", "");
    private final ReadOnlyStringWrapper historySummary = new ReadOnlyStringWrapper(this, "historySummary", "");
    private final ReadOnlyStringWrapper notice = new ReadOnlyStringWrapper(this, "notice", "");
    private final ReadOnlyStringWrapper error = new ReadOnlyStringWrapper(this, "error", "");
    private final ReadOnlyStringWrapper problems = new ReadOnlyStringWrapper(this, "problems", "");
    private final ReadOnlyStringWrapper progress = new ReadOnlyStringWrapper(this, "progress", "");
    private final ReadOnlyStringWrapper baseHeading = new ReadOnlyStringWrapper(this, "baseHeading", "");
    private final ReadOnlyStringWrapper mineHeading = new ReadOnlyStringWrapper(this, "mineHeading", "");
    private final ReadOnlyStringWrapper theirsHeading = new ReadOnlyStringWrapper(this, "theirsHeading", "");
    private final ReadOnlyStringWrapper resultHeading = new ReadOnlyStringWrapper(this, "resultHeading", "");
    private final ReadOnlyIntegerWrapper conflicts = new ReadOnlyIntegerWrapper(this, "conflicts");
    private final ReadOnlyIntegerWrapper resolved = new ReadOnlyIntegerWrapper(this, "resolved");
    private final ReadOnlyBooleanWrapper busy = new ReadOnlyBooleanWrapper(this, "busy");
    private final ReadOnlyBooleanWrapper deleted = new ReadOnlyBooleanWrapper(this, "deleted");
    private final ReadOnlyBooleanWrapper finished = new ReadOnlyBooleanWrapper(this, "finished");
    private final ReadOnlyBooleanWrapper canSave = new ReadOnlyBooleanWrapper(this, "canSave");
    private final ReadOnlyBooleanWrapper canRecreate = new ReadOnlyBooleanWrapper(this, "canRecreate");
    private final ReadOnlyObjectWrapper<MergeRowViewModel> current = new ReadOnlyObjectWrapper<>(this, "current");

    private Consumer<Customer> onSaved = c -> { };
    private Consumer<Customer> onDiscarded = c -> { };
    private Consumer<CustomerData> onCancelled = d -> { };
    private Consumer<Customer> onRecreated = c -> { };
    private Consumer<Long> onDeletionAccepted = i -> { };

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
        this.customers = Objects.requireNonNull(customers, "customers");
        this.history = Objects.requireNonNull(history, "history");
        this.executor = Objects.requireNonNull(executor, "executor");
        this.clock = clock;
        this.id = base.id();
        this.editorMine = Objects.requireNonNull(mine, "mine");
        if (theirs != null && theirs.id() != id) {
            throw new IllegalArgumentException("theirs is customer " + theirs.id() + ", base is customer " + id);
        }
        showAll.addListener((obs, was, now) -> refreshVisible());
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
        return rowsView;
    }

    /** The rows to show: the changed fields and any invalid one, or every field with {@link #showAllProperty()}. */
    public ObservableList<MergeRowViewModel> visibleRows() {
        return visibleRowsView;
    }

    /** The row of one field. */
    public MergeRowViewModel row(CustomerField field) {
        return rows.stream().filter(r -> r.field() == field).findFirst().orElseThrow();
    }

    /** Whether the unchanged fields are shown too. */
    public BooleanProperty showAllProperty() {
        return showAll;
    }

    /** "Bob saved version 7 at 10:03 while you were editing version 5", or who deleted it when. */
    public ReadOnlyStringProperty titleProperty() {
        return title.getReadOnlyProperty();
    }

    /** From the history: "3 saves since you loaded it: Bob (2), Carol (1)"; empty until loaded. */
    public ReadOnlyStringProperty historySummaryProperty() {
        return historySummary.getReadOnlyProperty();
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
        return baseHeading.getReadOnlyProperty();
    }

    /** The Mine column's heading. */
    public ReadOnlyStringProperty mineHeadingProperty() {
        return mineHeading.getReadOnlyProperty();
    }

    /** The Theirs column's heading: which version by whom, or that it was deleted. */
    public ReadOnlyStringProperty theirsHeadingProperty() {
        return theirsHeading.getReadOnlyProperty();
    }

    /** The Result column's heading. */
    public ReadOnlyStringProperty resultHeadingProperty() {
        return resultHeading.getReadOnlyProperty();
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
        return current.getReadOnlyProperty();
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
        current.set(row);
    }

    /**
     * F7: moves to the next conflict after the current row, wrapping around.
     *
     * @return whether there was a conflict to go to
     */
    public boolean nextConflict() {
        return moveToConflict(1);
    }

    /** Shift+F7: moves to the previous conflict, wrapping around. */
    public boolean previousConflict() {
        return moveToConflict(-1);
    }

    private boolean moveToConflict(int step) {
        List<MergeRowViewModel> list = List.copyOf(visibleRows);
        int n = list.size();
        int from = current.get() == null ? (step > 0 ? -1 : n) : list.indexOf(current.get());
        for (int k = 1; k <= n; k++) {
            int i = Math.floorMod(from + k * step, n);
            if (list.get(i).isConflict()) {
                current.set(list.get(i));
                return true;
            }
        }
        return false;
    }

    /** Alt+M: Use mine on the current row, when it conflicts. */
    public void useMineOnCurrent() {
        MergeRowViewModel row = current.get();
        if (row != null && row.isConflict()) {
            row.useMine();
        }
    }

    /** Alt+T: Use theirs on the current row, when it conflicts. */
    public void useTheirsOnCurrent() {
        MergeRowViewModel row = current.get();
        if (row != null && row.isConflict()) {
            row.useTheirs();
        }
    }

    /** "Use mine for all": mine for every conflict not yet decided. */
    public void useMineForAll() {
        rows.forEach(MergeRowViewModel::useMineIfUndecided);
    }

    /** "Use theirs for all": theirs for every conflict not yet decided. */
    public void useTheirsForAll() {
        rows.forEach(MergeRowViewModel::useTheirsIfUndecided);
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
        int gen = generation;
        start();
        executor.execute(() -> customers.save(id, against.version(), merged),
                outcome -> {
                    if (stale(gen)) {
                        return;
                    }
                    busy.set(false);
                    if (outcome instanceof SaveOutcome.Saved saved) {
                        finish();
                        onSaved.accept(saved.saved());
                    } else if (outcome instanceof SaveOutcome.Conflict conflict) {
                        refreshed = true;
                        Customer now = conflict.theirs().orElse(null);
                        load(against, merged, now);
                        notice.set(now == null ? "" : header().newChangesWhileMerging(now));
                    } else if (outcome instanceof SaveOutcome.Locked locked) {
                        error.set("Not saved: " + LockMessages.lockedBy(locked.holder(), java.time.ZoneId.systemDefault())
                                + ". Nothing is lost: your merge is still here; try Save merged once the lock ends.");
                    } else if (outcome instanceof SaveOutcome.LeaseLost) {
                        error.set("Not saved: the lock for editing was lost. Nothing is lost: your merge is still here.");
                    }
                },
                failure -> failed(gen, "Not saved", failure, "Save merged"));
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
        int gen = generation;
        start();
        executor.execute(() -> customers.create(values),
                created -> {
                    if (stale(gen)) {
                        return;
                    }
                    busy.set(false);
                    finish();
                    onRecreated.accept(created);
                },
                failure -> failed(gen, "Not re-created", failure, "Re-create"));
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
        generation++;
        base = newBase;
        mine = newMine;
        theirs = newTheirs;
        deleted.set(newTheirs == null);
        notice.set("");
        error.set("");
        MergeResult merge = ThreeWayMerge.merge(newBase.data(), newMine,
                newTheirs == null ? newBase.data() : newTheirs.data());
        List<MergeRowViewModel> built = new ArrayList<>();
        merge.fields().forEach(f -> built.add(new MergeRowViewModel(f)));
        built.sort(Comparator.comparingInt(MergeViewModel::rank));
        built.forEach(r -> r.setOnChange(this::revalidate));
        current.set(null);
        rows.setAll(built);
        headings();
        revalidate();
        loadHistory(generation);
    }

    private static int rank(MergeRowViewModel row) {
        return row.isConflict() ? 0 : row.isChanged() ? 1 : 2;
    }

    private void headings() {
        MergeHeader h = header();
        baseHeading.set(MergeHeader.baseHeading(base.version(), refreshed));
        mineHeading.set(MergeHeader.mineHeading(refreshed));
        theirsHeading.set(MergeHeader.theirsHeading(theirs));
        resultHeading.set(MergeHeader.resultHeading(theirs == null));
        if (theirs == null) {
            title.set(h.deleted(Optional.empty(), activity()));
        } else {
            title.set(refreshed ? h.savedWhileMerging(theirs, base.version())
                    : h.savedWhileEditing(theirs, base.version()));
        }
    }

    private String activity() {
        return refreshed ? "merging" : "editing version " + base.version();
    }

    private String sincePhrase() {
        return refreshed ? "since you merged against version " + base.version() : "since you loaded it";
    }

    private MergeHeader header() {
        return new MergeHeader(clock.getZone(), LocalDate.now(clock));
    }

    private void loadHistory(int gen) {
        historySummary.set("Looking up who saved in between…");
        long fromVersion = base.version();
        Customer now = theirs;
        executor.execute(() -> now == null ? history.history(id) : history.between(id, fromVersion, now.version()),
                entries -> {
                    if (stale(gen)) {
                        return;
                    }
                    if (now == null) {
                        showDeletion(entries, fromVersion);
                    } else {
                        historySummary.set(MergeHeader.savesBetween(entries, sincePhrase()));
                    }
                },
                failure -> {
                    if (!stale(gen)) {
                        historySummary.set("Who saved in between is unknown: " + message(failure));
                    }
                });
    }

    private void showDeletion(List<HistoryEntry> entries, long fromVersion) {
        Optional<HistoryEntry> deletion = entries.stream().filter(e -> e.op() == HistoryEntry.Op.DELETE)
                .reduce((first, second) -> second);
        title.set(header().deleted(deletion, activity()));
        deletion.ifPresent(d -> theirsHeading.set(MergeHeader.deletedHeading(d)));
        List<HistoryEntry> saves = entries.stream()
                .filter(e -> e.op() == HistoryEntry.Op.UPDATE && e.version() > fromVersion).toList();
        historySummary.set(saves.isEmpty() ? "" : MergeHeader.savesBetween(saves, sincePhrase()) + ", then deleted");
    }

    /** The Result's text of every field. */
    private Map<CustomerField, String> resultTexts() {
        Map<CustomerField, String> texts = new EnumMap<>(CustomerField.class);
        rows.forEach(r -> texts.put(r.field(), r.getResult()));
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
        rows.forEach(r -> r.setError(check.byField().getOrDefault(r.field(), "")));
        problems.set(check.ok() ? "" : "Cannot be saved yet: " + String.join("; ", check.all()));
        int total = (int) rows.stream().filter(MergeRowViewModel::isConflict).count();
        int done = (int) rows.stream().filter(r -> r.isConflict() && r.isResolved()).count();
        conflicts.set(total);
        resolved.set(done);
        progress.set(MergeHeader.progress(done, total));
        updateActions();
        refreshVisible();
    }

    private void updateActions() {
        boolean open = !busy.get() && !finished.get() && problems.get().isEmpty();
        canSave.set(open && !deleted.get() && resolved.get() == conflicts.get());
        canRecreate.set(open && deleted.get());
    }

    private void refreshVisible() {
        List<MergeRowViewModel> wanted = rows.stream()
                .filter(r -> showAll.get() || r.isChanged() || !r.getError().isEmpty() || r.editedProperty().get())
                .toList();
        if (!wanted.equals(visibleRows)) {
            visibleRows.setAll(wanted);
        }
    }

    private void start() {
        busy.set(true);
        error.set("");
        updateActions();
    }

    private void finish() {
        finished.set(true);
        generation++;
        updateActions();
    }

    private boolean stale(int gen) {
        return gen != generation || finished.get();
    }

    private void failed(int gen, String what, Throwable failure, String retry) {
        if (stale(gen)) {
            return;
        }
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

    private static String message(Throwable failure) {
        String m = failure.getMessage();
        return m == null || m.isBlank() ? failure.getClass().getSimpleName() : m;
    }
}
