package org.lockstep.ui.demo;

import static org.lockstep.text.Texts.tr;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyIntegerProperty;
import javafx.beans.property.ReadOnlyIntegerWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleObjectProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The Trainer panel's state: the scenarios, the chosen one, how many of its steps have run, and what to notice.
 * "Next step" runs one step in the operator windows; before step 1 the scenario's data and both windows are reset,
 * so every run starts from version 1. "Run all" runs the remaining steps one after another; "Reset data" goes back
 * to the start. One step runs at a time. FX thread only.
 */
public final class TrainerViewModel {

    private final Cast cast;
    private final ObservableList<Scenario> scenarios;
    private final ObjectProperty<Scenario> selected = new SimpleObjectProperty<>(this, "selected");
    private final ReadOnlyIntegerWrapper done = new ReadOnlyIntegerWrapper(this, "done");
    private final ReadOnlyBooleanWrapper running = new ReadOnlyBooleanWrapper(this, "running");
    private final ReadOnlyStringWrapper notice = new ReadOnlyStringWrapper(this, "notice", "");
    private final ReadOnlyStringWrapper error = new ReadOnlyStringWrapper(this, "error", "");
    private final ReadOnlyBooleanWrapper failed = new ReadOnlyBooleanWrapper(this, "failed");
    // Bumped by reset(): the result of a step that was running then is dropped.
    private int generation;
    private final BooleanBinding canRunNext;
    // The chosen scenario's data was just reset: step 1 need not reset it again.
    private boolean fresh;

    /** A panel over {@code scenarios}, acting through {@code cast}; the first scenario is chosen. */
    public TrainerViewModel(List<Scenario> scenarios, Cast cast) {
        this.cast = cast;
        this.scenarios = FXCollections.unmodifiableObservableList(FXCollections.observableArrayList(scenarios));
        selected.addListener((obs, was, now) -> {
            fresh = false;
            failed.set(false);
            done.set(0);
            notice.set("");
            error.set("");
        });
        selected.set(scenarios.get(0));
        canRunNext = Bindings.createBooleanBinding(() -> !running.get() && !failed.get() && selected.get() != null
                && done.get() < selected.get().steps().size(), running, failed, done, selected);
    }

    /** Every scenario, in order. */
    public ObservableList<Scenario> scenarios() {
        return scenarios;
    }

    /** The chosen scenario; choosing another starts it from step 1 (the list is disabled while a step runs). */
    public ObjectProperty<Scenario> selectedProperty() {
        return selected;
    }

    /** How many steps of the chosen scenario have run. */
    public ReadOnlyIntegerProperty doneProperty() {
        return done.getReadOnlyProperty();
    }

    /** A step or a reset is running. */
    public ReadOnlyBooleanProperty runningProperty() {
        return running.getReadOnlyProperty();
    }

    /** What the class should notice after the last step; empty before the first. */
    public ReadOnlyStringProperty noticeProperty() {
        return notice.getReadOnlyProperty();
    }

    /** Why the last step could not be carried out; empty when it could. */
    public ReadOnlyStringProperty errorProperty() {
        return error.getReadOnlyProperty();
    }

    /** The last step could not be carried out; Next step waits for Reset data (or another scenario). */
    public ReadOnlyBooleanProperty failedProperty() {
        return failed.getReadOnlyProperty();
    }

    /** Whether "Next step" (and "Run all") would do something now. */
    public BooleanBinding canRunNextProperty() {
        return canRunNext;
    }

    /**
     * Runs the next step; before step 1 it resets the scenario's data and both windows.
     *
     * @return completes when the step is done; completes exceptionally (with the reason also in
     *         {@link #errorProperty()}) when it could not be carried out, and at once when nothing is left to run
     */
    // The stage whenComplete returns is dropped on purpose: its callback completes `result`, which carries the outcome.
    @SuppressWarnings("FutureReturnValueIgnored")
    public CompletableFuture<Void> runNext() {
        if (!canRunNext.get()) {
            return CompletableFuture.completedFuture(null);
        }
        Scenario scenario = selected.get();
        int index = done.get();
        Step step = scenario.steps().get(index);
        running.set(true);
        error.set("");
        int gen = generation;
        cast.beginStep();
        CompletableFuture<Void> prepared = index > 0 || fresh ? CompletableFuture.completedFuture(null)
                : scenario.start() == null ? cast.resetLab()
                : cast.reset(scenario.start()).thenApply(c -> null);
        CompletableFuture<Void> result = new CompletableFuture<>();
        prepared.thenCompose(v -> step.action().apply(cast)).whenComplete((v, failure) -> {
            if (gen != generation) {
                result.complete(null); // Reset data interrupted this step; the reset owns the state now
                return;
            }
            running.set(false);
            fresh = false;
            if (!scenario.equals(selected.get())) {
                result.complete(null);
            } else if (failure == null) {
                done.set(index + 1);
                notice.set(step.notice());
                result.complete(null);
            } else {
                Throwable cause = unwrap(failure);
                failed.set(true);
                error.set(tr("Step {0} could not be carried out: {1} Press Reset data to start again.", index + 1,
                        message(cause)));
                result.completeExceptionally(cause);
            }
        });
        return result;
    }

    /** Runs the remaining steps one after another, stopping at the first that cannot be carried out or at Reset
     *  data. */
    public CompletableFuture<Void> runAll() {
        return runAll(generation);
    }

    private CompletableFuture<Void> runAll(int gen) {
        // Reset data ends the run: a step it interrupted must not start the scenario over.
        if (gen != generation || !canRunNext.get()) {
            return CompletableFuture.completedFuture(null);
        }
        return runNext().thenCompose(v -> runAll(gen));
    }

    /**
     * Puts the chosen scenario's customer and both windows back to the start, before step 1. A step (or Run all)
     * under way stops first: it does nothing more in the windows and its result is dropped.
     */
    @SuppressWarnings("FutureReturnValueIgnored") // as in runNext: `result` carries the outcome
    public CompletableFuture<Void> reset() {
        Scenario scenario = selected.get();
        if (scenario == null) {
            return CompletableFuture.completedFuture(null);
        }
        generation++;
        failed.set(false);
        running.set(true);
        done.set(0);
        notice.set("");
        error.set("");
        CompletableFuture<Void> result = new CompletableFuture<>();
        int gen = generation;
        CompletableFuture<String> resetting = scenario.start() == null
                ? cast.resetLab().thenApply(v -> tr("Results cleared: each run resets the lab's own stock rows."))
                : cast.reset(scenario.start()).thenApply(c -> tr("Data reset: {0} is back at version 1.",
                        c.data().company()));
        resetting.whenComplete((said, failure) -> {
            if (gen != generation) {
                result.complete(null); // a later reset took over
                return;
            }
            running.set(false);
            if (failure == null) {
                fresh = true;
                notice.set(said);
                result.complete(null);
            } else {
                error.set(tr("Could not reset the data: {0}", message(failure)));
                result.completeExceptionally(failure);
            }
        });
        return result;
    }

    /** A future's failure arrives wrapped once it passed through a stage; the step's own exception is inside. */
    private static Throwable unwrap(Throwable t) {
        return t instanceof CompletionException && t.getCause() != null ? t.getCause() : t;
    }

    private static String message(Throwable t) {
        Throwable cause = unwrap(t);
        return cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
    }
}
