package org.lockstep.ui.merge;

import static org.lockstep.text.Texts.tr;

import java.time.Clock;
import java.time.ZoneId;
import java.time.LocalDate;
import java.util.Objects;
import java.util.function.Consumer;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerRepository;
import org.lockstep.domain.DeleteOutcome;
import org.lockstep.domain.HistoryRepository;
import org.lockstep.concurrency.TaskExecutor;
import org.lockstep.editing.LockMessages;

/**
 * My delete hit a stale version: someone saved the record since I loaded it. Shows "changed since you loaded it",
 * the changes between base and theirs field by field and, from the history, who saved in between; then Delete anyway
 * (a versioned delete on theirs' version) or Keep (the editor shows theirs).
 *
 * <p>When Delete anyway conflicts again, the view model refreshes in place: base becomes the theirs the operator
 * decided on, theirs the record now, and {@link #noticeProperty()} says so. When someone else deleted it meanwhile,
 * the operator's wish is fulfilled: {@link #setOnDecided onDecided} runs with {@link DeleteDecision.Deleted}. A database error leaves everything as it
 * was, with a message.
 */
public final class DeleteConflictViewModel {

    private final CustomerRepository customers;
    private final HistoryRepository history;
    private final TaskExecutor executor;
    private final Clock clock = Clock.system(ZoneId.systemDefault());
    private final long id;

    private Customer theirs;
    private boolean refreshed;
    private int generation;

    private final ObservableList<FieldChange> changes = FXCollections.observableArrayList();
    // Kept: an unmodifiable list listens to its source only weakly (see MergeViewModel).
    private final ObservableList<FieldChange> changesView = FXCollections.unmodifiableObservableList(changes);
    private final ReadOnlyStringWrapper title = new ReadOnlyStringWrapper(this, "title", "");
    private final ReadOnlyStringWrapper historySummary = new ReadOnlyStringWrapper(this, "historySummary", "");
    private final ReadOnlyStringWrapper notice = new ReadOnlyStringWrapper(this, "notice", "");
    private final ReadOnlyStringWrapper error = new ReadOnlyStringWrapper(this, "error", "");
    private final ReadOnlyStringWrapper beforeHeading = new ReadOnlyStringWrapper(this, "beforeHeading", "");
    private final ReadOnlyStringWrapper afterHeading = new ReadOnlyStringWrapper(this, "afterHeading", "");
    private final ReadOnlyBooleanWrapper busy = new ReadOnlyBooleanWrapper(this, "busy");
    private final ReadOnlyBooleanWrapper finished = new ReadOnlyBooleanWrapper(this, "finished");

    private Consumer<DeleteDecision> onDecided = d -> {};

    /**
     * @param base   the record as the editor loaded it, whose delete came back with zero rows
     * @param theirs the record now (same id, a later version)
     */
    public DeleteConflictViewModel(CustomerRepository customers, HistoryRepository history, TaskExecutor executor,
            Customer base, Customer theirs) {
        this.customers = Objects.requireNonNull(customers, "customers");
        this.history = Objects.requireNonNull(history, "history");
        this.executor = Objects.requireNonNull(executor, "executor");
        this.id = base.id();
        if (theirs.id() != id) {
            throw new IllegalArgumentException("theirs is customer " + theirs.id() + ", base is customer " + id);
        }
        load(base, theirs);
    }

    /** Called once, when the decision ends, with how it ended ({@link DeleteDecision}): deleted, or kept. */
    public void setOnDecided(Consumer<DeleteDecision> listener) {
        onDecided = Objects.requireNonNull(listener);
    }

    /** The fields that changed between base and theirs, in field order. */
    public ObservableList<FieldChange> changes() {
        return changesView;
    }

    /** "Changed since you loaded it: Bob saved version 7 at 10:03; you loaded version 5". */
    public ReadOnlyStringProperty titleProperty() {
        return title.getReadOnlyProperty();
    }

    /** From the history: "2 saves since you loaded it: Bob (1), Carol (1)"; empty until loaded. */
    public ReadOnlyStringProperty historySummaryProperty() {
        return historySummary.getReadOnlyProperty();
    }

    /** What changed under the operator while deciding; empty otherwise. */
    public ReadOnlyStringProperty noticeProperty() {
        return notice.getReadOnlyProperty();
    }

    /** Why the last database call failed, and that nothing was lost; empty when it did not. */
    public ReadOnlyStringProperty errorProperty() {
        return error.getReadOnlyProperty();
    }

    /** The heading of the older values: "When you loaded it: version 5". */
    public ReadOnlyStringProperty beforeHeadingProperty() {
        return beforeHeading.getReadOnlyProperty();
    }

    /** The heading of the newer values: "Now: version 7 by Bob". */
    public ReadOnlyStringProperty afterHeadingProperty() {
        return afterHeading.getReadOnlyProperty();
    }

    /** Whether a database call is running. */
    public ReadOnlyBooleanProperty busyProperty() {
        return busy.getReadOnlyProperty();
    }

    /** Whether the dialog is done and should close. */
    public ReadOnlyBooleanProperty finishedProperty() {
        return finished.getReadOnlyProperty();
    }

    /** The record now. */
    public Customer theirs() {
        return theirs;
    }

    /** The window title. */
    public String windowTitle() {
        return tr("Changed since you loaded it: {0}", theirs.data().displayName());
    }

    /**
     * Delete anyway: a versioned delete on theirs' version, in the background. Deleted (or already gone) →
     * {@link DeleteDecision.Deleted}; changed again → refresh in place; failure → {@link #errorProperty()}.
     */
    public void deleteAnyway() {
        if (busy.get() || finished.get()) {
            return;
        }
        Customer against = theirs;
        int gen = generation;
        busy.set(true);
        error.set("");
        executor.execute(() -> customers.delete(id, against.version()),
                outcome -> {
                    if (stale(gen)) {
                        return;
                    }
                    busy.set(false);
                    outcome.handle(new DeleteOutcome.Handler() {
                        @Override
                        public void deleted(DeleteOutcome.Deleted done) {
                            gone();
                        }

                        @Override
                        public void conflict(DeleteOutcome.Conflict conflict) {
                            if (conflict.theirs().isEmpty()) {
                                gone(); // deleted by someone else meanwhile: the record is gone, as wanted
                                return;
                            }
                            refreshed = true;
                            Customer now = conflict.theirs().get();
                            load(against, now);
                            notice.set(header().newChangesWhileDeciding(now));
                        }

                        @Override
                        public void locked(DeleteOutcome.Locked locked) {
                            error.set(tr("Not deleted: {0}. Nothing changed; try again once the lock ends.",
                                    LockMessages.lockedBy(locked.holder(), ZoneId.systemDefault())));
                        }

                        @Override
                        public void leaseLost(DeleteOutcome.LeaseLost lost) {
                            error.set(tr("Not deleted: the lock for editing was lost. Nothing changed."));
                        }
                    });
                },
                failure -> {
                    if (stale(gen)) {
                        return;
                    }
                    busy.set(false);
                    error.set(tr("Not deleted: {0}. Nothing changed; try Delete anyway again, or Keep.",
                            message(failure)));
                });
    }

    /** Keep (or Esc): the record stays; the editor shows theirs. Allowed at any time. */
    public void keep() {
        if (finished.get()) {
            return;
        }
        finish(new DeleteDecision.Kept(theirs));
    }

    private void load(Customer newBase, Customer newTheirs) {
        generation++;
        theirs = newTheirs;
        notice.set("");
        error.set("");
        MergeHeader h = header();
        title.set(refreshed ? h.changedWhileDeciding(newTheirs, newBase.version())
                : h.changedSinceLoaded(newTheirs, newBase.version()));
        beforeHeading.set(refreshed ? tr("When you decided: version {0}", newBase.version())
                : tr("When you loaded it: version {0}", newBase.version()));
        afterHeading.set(tr("Now: version {0} by {1}", newTheirs.version(), MergeHeader.who(newTheirs.updatedBy())));
        changes.setAll(FieldChange.between(newBase.data(), newTheirs.data()));
        int gen = generation;
        MergeHeader.Since since = refreshed ? MergeHeader.Since.DECIDED : MergeHeader.Since.LOADED;
        historySummary.set(tr("Looking up who saved in between…"));
        executor.execute(() -> history.between(id, newBase.version(), newTheirs.version()),
                entries -> {
                    if (!stale(gen)) {
                        historySummary.set(MergeHeader.savesBetween(entries, since, newBase.version()));
                    }
                },
                failure -> {
                    if (!stale(gen)) {
                        historySummary.set(tr("Who saved in between is unknown: {0}", message(failure)));
                    }
                });
    }

    private MergeHeader header() {
        return new MergeHeader(clock.getZone(), LocalDate.now(clock));
    }

    /** The record no longer exists: deleted by Delete anyway, or by someone else meanwhile; either way, as wanted. */
    private void gone() {
        finish(new DeleteDecision.Deleted(id));
    }

    private void finish(DeleteDecision decision) {
        finished.set(true);
        generation++;
        onDecided.accept(decision);
    }

    private boolean stale(int gen) {
        return gen != generation || finished.get();
    }

    private static String message(Throwable failure) {
        String m = failure.getMessage();
        return m == null || m.isBlank() ? failure.getClass().getSimpleName() : m;
    }
}
