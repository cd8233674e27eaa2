package org.lockstep.ui.demo;

import static org.lockstep.text.Texts.tr;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import org.lockstep.concurrency.TaskExecutor;
import org.lockstep.lab.LabProgress;
import org.lockstep.lab.LabRun;
import org.lockstep.lab.LabRunner;
import org.lockstep.lab.Strategy;
import org.lockstep.lab.StrategyResult;
import org.lockstep.lab.SweepPlan;
import org.lockstep.ui.lab.ChartSeries;

/**
 * Scenario 7, "Black Friday", as the Trainer panel shows it: the contention lab's classic run (eight buyers, five
 * units, one purchase each) under each strategy in turn, then a sweep of optimistic against pessimistic locking as
 * buyers grow. The lab itself runs them ({@link LabRunner}, on the demo's database); this keeps the results and the
 * chart series as plain data. FX thread only.
 */
public final class BlackFridayViewModel {

    /** The sweep's buyer counts: small enough for a class to wait for, large enough to show the crossing. */
    public static final List<Integer> SWEEP_WORKERS = List.of(1, 2, 4, 8, 16);
    /** The sweep's purchases per buyer and think time: enough attempts per point to measure a rate. */
    static final LabRun SWEEP_TEMPLATE = LabRun.CLASSIC.withOpsPerWorker(5).withThinkMs(5);

    private final LabRunner lab;
    private final TaskExecutor executor;
    private final ObservableList<StrategyResult> results = FXCollections.observableArrayList();
    private final ObservableList<StrategyResult> sweep = FXCollections.observableArrayList();
    private final ObservableList<ChartSeries> soldSeries = FXCollections.observableArrayList();
    private final ObservableList<ChartSeries> sweepSeries = FXCollections.observableArrayList();
    private final ReadOnlyStringWrapper verdict = new ReadOnlyStringWrapper(this, "verdict", "");

    /**
     * @param lab      runs the lab (blocking; called through {@code executor})
     * @param executor runs it off the FX thread and hands the results back on it
     */
    public BlackFridayViewModel(LabRunner lab, TaskExecutor executor) {
        this.lab = lab;
        this.executor = executor;
    }

    /** The classic run's results so far, one per strategy, in the order they ran. */
    public ObservableList<StrategyResult> results() {
        return results;
    }

    /** The sweep's results, worker counts in order, optimistic before pessimistic at each. */
    public ObservableList<StrategyResult> sweepResults() {
        return sweep;
    }

    /** Purchases confirmed and units taken from the stock, per strategy run so far. */
    public ObservableList<ChartSeries> soldSeries() {
        return soldSeries;
    }

    /** Confirmed purchases per second by buyers, one series per strategy swept. */
    public ObservableList<ChartSeries> sweepSeries() {
        return sweepSeries;
    }

    /** After the sweep: from how many buyers on optimistic retries cost more than pessimistic waits here. */
    public ReadOnlyStringProperty verdictProperty() {
        return verdict.getReadOnlyProperty();
    }

    /** Clears every result (Reset data). */
    public void clear() {
        results.clear();
        sweep.clear();
        soldSeries.clear();
        sweepSeries.clear();
        verdict.set("");
    }

    /** Runs the classic race once per strategy, one after the other; completes with their results. */
    public CompletableFuture<List<StrategyResult>> race(List<Strategy> strategies) {
        CompletableFuture<List<StrategyResult>> done = new CompletableFuture<>();
        executor.execute(() -> lab.run(LabRun.CLASSIC, strategies, LabProgress.NONE), r -> {
            results.addAll(r);
            soldSeries.setAll(List.of(
                    new ChartSeries(tr("Confirmed purchases"), results.stream().map(s -> new ChartSeries.Point(
                            s.strategy().id(), s.confirmed())).toList()),
                    new ChartSeries(tr("Units taken from stock"), results.stream().map(s -> new ChartSeries.Point(
                            s.strategy().id(), s.initialStock() - s.finalStock())).toList())));
            done.complete(r);
        }, done::completeExceptionally);
        return done;
    }

    /** Sweeps optimistic against pessimistic over {@link #SWEEP_WORKERS}; completes with the results. */
    public CompletableFuture<List<StrategyResult>> sweep() {
        SweepPlan plan = new SweepPlan(SWEEP_WORKERS, List.of(Strategy.OPTIMISTIC, Strategy.PESSIMISTIC),
                SWEEP_TEMPLATE);
        CompletableFuture<List<StrategyResult>> done = new CompletableFuture<>();
        executor.execute(() -> lab.sweep(plan, LabProgress.NONE), r -> {
            sweep.setAll(r);
            List<ChartSeries> series = new ArrayList<>();
            for (Strategy s : plan.strategies()) {
                series.add(new ChartSeries(tr("{0}, confirmed/s", s.id()), r.stream().filter(x -> x.strategy() == s)
                        .map(x -> new ChartSeries.Point(Integer.toString(x.workers()), x.confirmedPerS())).toList()));
            }
            sweepSeries.setAll(series);
            verdict.set(verdict(r));
            done.complete(r);
        }, done::completeExceptionally);
        return done;
    }

    /**
     * Where optimistic retries start to cost more than pessimistic waits: the fewest buyers at which pessimistic
     * locking confirmed more purchases per second than optimistic.
     */
    static String verdict(List<StrategyResult> sweep) {
        Optional<Integer> crossing = SWEEP_WORKERS.stream().filter(w -> rate(sweep, Strategy.PESSIMISTIC, w)
                > rate(sweep, Strategy.OPTIMISTIC, w)).findFirst();
        long retries = sweep.stream().filter(r -> r.strategy() == Strategy.OPTIMISTIC).mapToLong(
                StrategyResult::retries).sum();
        return crossing.map(w -> tr("From {0, plural, one {# buyer} other {# buyers}} on, pessimistic waits sold "
                + "faster than optimistic retries ({1, plural, one {# retry} other {# retries}} in the sweep): "
                + "contention made retrying cost more than waiting.", w, retries))
                .orElse(tr("Up to {0, plural, one {# buyer} other {# buyers}}, optimistic stayed ahead here "
                        + "({1, plural, one {# retry} other {# retries}} in the sweep): at this contention retrying "
                        + "still costs less than waiting.", SWEEP_WORKERS.get(SWEEP_WORKERS.size() - 1), retries));
    }

    private static double rate(List<StrategyResult> sweep, Strategy strategy, int workers) {
        return sweep.stream().filter(r -> r.strategy() == strategy && r.workers() == workers)
                .mapToDouble(StrategyResult::confirmedPerS).findFirst().orElse(0);
    }
}
