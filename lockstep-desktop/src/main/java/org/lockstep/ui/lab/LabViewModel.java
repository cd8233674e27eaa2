package org.lockstep.ui.lab;

import static org.lockstep.text.Texts.tr;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.ToDoubleFunction;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyDoubleProperty;
import javafx.beans.property.ReadOnlyDoubleWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import org.lockstep.lab.LabCsv;
import org.lockstep.lab.LabProgress;
import org.lockstep.lab.LabRun;
import org.lockstep.lab.LabRunner;
import org.lockstep.lab.Strategy;
import org.lockstep.lab.StrategyResult;
import org.lockstep.lab.SweepPlan;
import org.lockstep.concurrency.TaskExecutor;
import org.lockstep.text.Texts;

/**
 * The Lab window's state: the run's parameters, which strategies to run, the results of the last run (table and
 * bar charts of throughput, lost updates and retries per strategy), the last contention sweep (throughput per
 * strategy over 1 … N workers), and progress while a run or sweep works in the background.
 */
public final class LabViewModel {

    /** What the sweep chart plots per strategy and worker count. */
    public enum SweepMetric {
        /** Confirmed purchases per second: a purchase given up after its last retry does not count. */
        CONFIRMED(Texts.key("Confirmed purchases per second")),
        /** Purchase attempts finished per second, whatever their outcome. */
        THROUGHPUT(Texts.key("Purchase attempts per second"));

        private final String label;
        SweepMetric(String label) {
            this.label = label;
        }

        /** The axis label, in the current language. */
        public String label() {
            return tr(label);
        }

        /** The plotted value of one result. */
        public double of(StrategyResult result) {
            return switch (this) {
                case CONFIRMED -> result.confirmedPerS();
                case THROUGHPUT -> result.throughputOpsPerS();
            };
        }

        @Override
        public String toString() {
            return label();
        }
    }

    private final LabRunner runner;
    private final TaskExecutor executor;
    private final Executor uiThread;

    private final ObjectProperty<Integer> workers = new SimpleObjectProperty<>(LabRun.CLASSIC.workers());
    private final ObjectProperty<Integer> stock = new SimpleObjectProperty<>(LabRun.CLASSIC.stock());
    private final ObjectProperty<Integer> opsPerWorker = new SimpleObjectProperty<>(LabRun.CLASSIC.opsPerWorker());
    private final ObjectProperty<Integer> thinkMs = new SimpleObjectProperty<>((int) LabRun.CLASSIC.thinkMinMs());
    private final ObjectProperty<Integer> sweepMaxWorkers = new SimpleObjectProperty<>(64);
    private final ObjectProperty<Integer> sweepOpsPerWorker = new SimpleObjectProperty<>(5);
    private final ObjectProperty<SweepMetric> sweepMetric = new SimpleObjectProperty<>(SweepMetric.CONFIRMED);
    private final Map<Strategy, BooleanProperty> selected = new EnumMap<>(Strategy.class);

    private final ReadOnlyBooleanWrapper busy = new ReadOnlyBooleanWrapper();
    private final ReadOnlyDoubleWrapper progress = new ReadOnlyDoubleWrapper();
    private final ReadOnlyStringWrapper status = new ReadOnlyStringWrapper(tr("Choose the parameters and press Run."));
    private final ReadOnlyStringWrapper error = new ReadOnlyStringWrapper("");

    private final ObservableList<StrategyResult> results = FXCollections.observableArrayList();
    private final ObservableList<StrategyResult> sweepResults = FXCollections.observableArrayList();
    private final ReadOnlyObjectWrapper<ChartSeries> throughput =
            new ReadOnlyObjectWrapper<>(ChartSeries.empty(tr("Throughput, attempts/s")));
    private final ReadOnlyObjectWrapper<ChartSeries> lostUpdates =
            new ReadOnlyObjectWrapper<>(ChartSeries.empty(tr("Lost updates")));
    private final ReadOnlyObjectWrapper<ChartSeries> retries =
            new ReadOnlyObjectWrapper<>(ChartSeries.empty(tr("Retries")));
    private final ObservableList<ChartSeries> sweepSeries = FXCollections.observableArrayList();

    private final BooleanBinding canRun;

    /**
     * @param runner   runs the lab (blocking; called through {@code executor})
     * @param executor runs the lab off the FX thread and hands the result back on it
     * @param uiThread runs progress updates on the FX thread ({@code Platform::runLater}; {@code Runnable::run} in
     *                 tests)
     */
    public LabViewModel(LabRunner runner, TaskExecutor executor, Executor uiThread) {
        this.runner = runner;
        this.executor = executor;
        this.uiThread = uiThread;
        for (Strategy s : Strategy.values()) {
            selected.put(s, new SimpleBooleanProperty(true));
        }
        BooleanBinding anySelected = Bindings.createBooleanBinding(() -> !selectedStrategies().isEmpty(),
                selected.values().toArray(BooleanProperty[]::new));
        canRun = busy.not().and(anySelected);
        sweepMetric.addListener((obs, was, now) -> plotSweep());
    }

    /** Buyers racing at once. */
    public ObjectProperty<Integer> workersProperty() {
        return workers;
    }

    /** Units on sale at the start. */
    public ObjectProperty<Integer> stockProperty() {
        return stock;
    }

    /** Purchase attempts per buyer in a run. */
    public ObjectProperty<Integer> opsPerWorkerProperty() {
        return opsPerWorker;
    }

    /** Think time between read and write, in milliseconds; used by runs and sweeps. */
    public ObjectProperty<Integer> thinkMsProperty() {
        return thinkMs;
    }

    /** The sweep's largest worker count: it runs 1, 2, 4 … up to this (at most 64). */
    public ObjectProperty<Integer> sweepMaxWorkersProperty() {
        return sweepMaxWorkers;
    }

    /** Purchase attempts per buyer in a sweep (stock is always enough for all of them). */
    public ObjectProperty<Integer> sweepOpsPerWorkerProperty() {
        return sweepOpsPerWorker;
    }

    /** What the sweep chart plots; changing it re-plots the last sweep. */
    public ObjectProperty<SweepMetric> sweepMetricProperty() {
        return sweepMetric;
    }

    /** Whether {@code strategy} takes part in the next run or sweep. */
    public BooleanProperty selectedProperty(Strategy strategy) {
        return selected.get(strategy);
    }

    /** Whether a run or sweep is working. */
    public ReadOnlyBooleanProperty busyProperty() {
        return busy.getReadOnlyProperty();
    }

    /** How far the current run or sweep has got, 0 to 1. */
    public ReadOnlyDoubleProperty progressProperty() {
        return progress.getReadOnlyProperty();
    }

    /** One line on what happened last. */
    public ReadOnlyStringProperty statusProperty() {
        return status.getReadOnlyProperty();
    }

    /** Why the last run, sweep or export failed; empty when it did not. */
    public ReadOnlyStringProperty errorProperty() {
        return error.getReadOnlyProperty();
    }

    /** Whether Run and Sweep can start: nothing is running and at least one strategy is chosen. */
    public BooleanBinding canRunProperty() {
        return canRun;
    }

    /** The last run's results, one per strategy. */
    public ObservableList<StrategyResult> results() {
        return results;
    }

    /** The last sweep's results, one per worker count and strategy. */
    public ObservableList<StrategyResult> sweepResults() {
        return sweepResults;
    }

    /** Throughput per strategy of the last run (category = strategy id). */
    public ReadOnlyObjectProperty<ChartSeries> throughputSeries() {
        return throughput.getReadOnlyProperty();
    }

    /** Lost updates per strategy of the last run. */
    public ReadOnlyObjectProperty<ChartSeries> lostUpdatesSeries() {
        return lostUpdates.getReadOnlyProperty();
    }

    /** Retries per strategy of the last run. */
    public ReadOnlyObjectProperty<ChartSeries> retriesSeries() {
        return retries.getReadOnlyProperty();
    }

    /**
     * The last sweep: one series per strategy, the {@link #sweepMetricProperty() chosen metric} by worker count
     * (category = worker count).
     */
    public ObservableList<ChartSeries> sweepSeries() {
        return sweepSeries;
    }

    /** The strategies chosen, in declaration order. */
    public List<Strategy> selectedStrategies() {
        return selected.entrySet().stream().filter(e -> e.getValue().get()).map(Map.Entry::getKey).toList();
    }

    /** Runs each chosen strategy once with the parameters, in the background; then shows the results. */
    public void run() {
        if (!canRun.get()) {
            return;
        }
        LabRun run;
        try {
            run = LabRun.CLASSIC.withWorkers(whole(workers, tr("Enter a whole number for workers")))
                    .withStock(whole(stock, tr("Enter a whole number for stock")))
                    .withOpsPerWorker(whole(opsPerWorker, tr("Enter a whole number for attempts per worker")))
                    .withThinkMs(whole(thinkMs, tr("Enter a whole number for think time")));
        } catch (IllegalArgumentException e) {
            error.set(e.getMessage());
            return;
        }
        List<Strategy> strategies = selectedStrategies();
        start(tr("Running {0, plural, one {# strategy} other {# strategies}}: {1, plural, one {# worker races}"
                + " other {# workers race}} for {2, plural, one {# unit} other {# units}}…", strategies.size(),
                run.workers(), run.stock()));
        LabProgress listener = progressListener();
        executor.execute(() -> runner.run(run, strategies, listener), this::showRun, this::failed);
    }

    /** Runs the contention sweep in the background; then plots throughput per strategy by worker count. */
    public void sweep() {
        if (!canRun.get()) {
            return;
        }
        SweepPlan plan;
        try {
            int most = whole(sweepMaxWorkers, tr("Enter a whole number for sweep workers"));
            List<Integer> counts = SweepPlan.STANDARD_WORKERS.stream().filter(w -> w <= most).toList();
            plan = new SweepPlan(counts.isEmpty() ? List.of(1) : counts, selectedStrategies(),
                    LabRun.CLASSIC.withOpsPerWorker(whole(sweepOpsPerWorker,
                            tr("Enter a whole number for sweep attempts per worker")))
                            .withThinkMs(whole(thinkMs, tr("Enter a whole number for think time"))));
        } catch (IllegalArgumentException e) {
            error.set(e.getMessage());
            return;
        }
        start(tr("Sweeping {0, plural, one {# strategy} other {# strategies}} over {1} workers…",
                plan.strategies().size(), plan.workerCounts().toString()));
        LabProgress listener = progressListener();
        executor.execute(() -> runner.sweep(plan, listener), this::showSweep, this::failed);
    }

    /**
     * Writes the last run's and the last sweep's results to {@code file} as CSV ({@link LabCsv}), in the
     * background.
     */
    public void exportCsv(Path file) {
        List<StrategyResult> run = List.copyOf(results);
        List<StrategyResult> sweep = List.copyOf(sweepResults);
        error.set("");
        executor.execute(() -> {
            try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
                LabCsv.write(out, run, sweep);
            }
            return file;
        }, written -> status.set(tr("Exported {0, plural, one {# row} other {# rows}} to {1}",
                run.size() + sweep.size(), written.toString())),
                e -> error.set(tr("Cannot write {0}: {1}", file.toString(),
                        e instanceof IOException && e.getMessage() != null ? e.getMessage() : e.toString())));
    }

    /** The value; {@code message} ("Enter a whole number for workers") when it is empty. */
    private static int whole(ObjectProperty<Integer> value, String message) {
        if (value.get() == null) {
            throw new IllegalArgumentException(message);
        }
        return value.get();
    }

    private void start(String message) {
        busy.set(true);
        progress.set(0);
        error.set("");
        status.set(message);
    }

    /**
     * Progress arrives on the buyers' threads after every purchase; only the latest value matters, so at most one
     * update waits for the FX thread at a time.
     */
    private LabProgress progressListener() {
        AtomicLong latest = new AtomicLong();
        AtomicLong of = new AtomicLong(1);
        AtomicBoolean pending = new AtomicBoolean();
        return (done, total) -> {
            latest.accumulateAndGet(done, Math::max);
            of.set(Math.max(total, 1));
            if (pending.compareAndSet(false, true)) {
                uiThread.execute(() -> {
                    pending.set(false);
                    if (busy.get()) {
                        progress.set((double) latest.get() / of.get());
                    }
                });
            }
        };
    }

    private void showRun(List<StrategyResult> done) {
        results.setAll(done);
        throughput.set(new ChartSeries(throughput.get().name(), bars(done, StrategyResult::throughputOpsPerS)));
        lostUpdates.set(new ChartSeries(lostUpdates.get().name(), bars(done, r -> r.lostUpdates())));
        retries.set(new ChartSeries(retries.get().name(), bars(done, r -> r.retries())));
        finish(summary(done));
    }

    private void showSweep(List<StrategyResult> done) {
        sweepResults.setAll(done);
        plotSweep();
        long exhausted = done.stream().filter(r -> r.strategy() == Strategy.OPTIMISTIC)
                .mapToLong(StrategyResult::retriesExhausted).sum();
        finish(exhausted == 0 ? tr("Sweep done: {0, plural, one {# run} other {# runs}}.", done.size())
                : tr("Sweep done: {0, plural, one {# run} other {# runs}}. Optimistic buyers gave up {1, plural,"
                        + " one {# purchase} other {# purchases}} after {2, plural, one {# attempt}"
                        + " other {# attempts}}.", done.size(), exhausted, LabRun.CLASSIC.retry().maxAttempts()));
    }

    private void plotSweep() {
        SweepMetric metric = sweepMetric.get() == null ? SweepMetric.CONFIRMED : sweepMetric.get();
        List<ChartSeries> series = new ArrayList<>();
        for (Strategy s : Strategy.values()) {
            List<StrategyResult> points = sweepResults.stream().filter(r -> r.strategy() == s).toList();
            if (!points.isEmpty()) {
                series.add(new ChartSeries(tr(s.displayName()), points.stream()
                        .map(r -> new ChartSeries.Point(Integer.toString(r.workers()), metric.of(r))).toList()));
            }
        }
        sweepSeries.setAll(series);
    }

    private void failed(Throwable e) {
        busy.set(false);
        progress.set(0);
        error.set(e.getMessage() == null ? e.toString() : e.getMessage());
        status.set(tr("The lab stopped; nothing was measured."));
    }

    private void finish(String message) {
        busy.set(false);
        progress.set(1);
        status.set(message);
    }

    private static List<ChartSeries.Point> bars(List<StrategyResult> done, ToDoubleFunction<StrategyResult> value) {
        return done.stream().map(r -> new ChartSeries.Point(tr(r.strategy().displayName()), value.applyAsDouble(r)))
                .toList();
    }

    private static String summary(List<StrategyResult> done) {
        List<String> lost = done.stream().filter(r -> r.lostUpdates() != 0)
                .map(r -> tr("{0} lost {1, plural, one {# update} other {# updates}} ({2, number} confirmed,"
                        + " stock fell by {3, number})", tr(r.strategy().displayName()), r.lostUpdates(), r.confirmed(),
                        r.initialStock() - r.finalStock()))
                .toList();
        return lost.isEmpty() ? tr("Done: no lost updates, nothing oversold.")
                : tr("Done: {0}.", String.join("; ", lost));
    }
}
