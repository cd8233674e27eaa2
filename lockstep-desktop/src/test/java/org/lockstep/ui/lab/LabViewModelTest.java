package org.lockstep.ui.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lockstep.server.Database;
import org.lockstep.server.LabConnections;
import org.lockstep.lab.ContentionLab;
import org.lockstep.lab.LabCsv;
import org.lockstep.lab.Strategy;
import org.lockstep.lab.StrategyResult;
import org.lockstep.store.JdbiLabStore;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.FreshDatabase;
import org.lockstep.concurrency.TaskExecutor;

/** The Lab window's view model with a real lab on a real database, run on the test's thread. */
@DatabaseTest
class LabViewModelTest {

    @FreshDatabase
    static Database db;

    static LabViewModel viewModel() {
        return new LabViewModel(LabConnections.runner(db), TaskExecutor.sameThread(), Runnable::run);
    }

    static Map<String, Number> bars(javafx.beans.value.ObservableValue<ChartSeries> series) {
        return series.getValue().points().stream()
                .collect(Collectors.toMap(ChartSeries.Point::category, ChartSeries.Point::value));
    }

    static int stockOf(Strategy strategy) {
        return db.jdbi().withHandle(h -> h.createQuery("SELECT stock FROM lab_stock WHERE name = :name")
                .bind("name", strategy.id()).mapTo(Integer.class).one());
    }

    @Test
    void aRunFillsTheTableAndTheChartsAndNamesTheLostUpdates() {
        LabViewModel vm = viewModel();
        vm.workersProperty().set(4);
        vm.stockProperty().set(2);
        List<Double> progress = new ArrayList<>();
        vm.progressProperty().addListener((obs, was, now) -> progress.add(now.doubleValue()));

        vm.run();

        assertThat(vm.busyProperty().get()).isFalse();
        assertThat(vm.errorProperty().get()).isEmpty();
        assertThat(vm.results()).extracting(StrategyResult::strategy).containsExactly(Strategy.values());
        StrategyResult none = vm.results().get(0);
        assertThat(none.confirmed()).isEqualTo(4);
        assertThat(none.finalStock()).isEqualTo(stockOf(Strategy.NONE)).isEqualTo(1);
        assertThat(bars(vm.lostUpdatesSeries())).containsEntry("No protection", 3.0).containsEntry("Optimistic", 0.0)
                .hasSize(5);
        assertThat(bars(vm.throughputSeries())).containsOnlyKeys("No protection", "Optimistic", "Pessimistic",
                "Conditional write", "Lease with token");
        assertThat(bars(vm.retriesSeries()).get("Optimistic").longValue())
                .isEqualTo(vm.results().get(1).retries()).isPositive();
        for (StrategyResult safe : vm.results().subList(1, 5)) {
            assertThat(safe.confirmed()).as(safe.strategy().id()).isEqualTo(2);
            assertThat(stockOf(safe.strategy())).as(safe.strategy().id()).isZero();
        }
        assertThat(vm.statusProperty().get()).contains("No protection lost 3 updates (4 confirmed, stock fell by 1)");
        assertThat(vm.progressProperty().get()).isEqualTo(1.0);
        assertThat(progress).isNotEmpty().allMatch(p -> p >= 0 && p <= 1);
    }

    @Test
    void onlyTheChosenStrategiesRunAndNoneChosenMeansNoRun() {
        LabViewModel vm = viewModel();
        vm.thinkMsProperty().set(0);
        for (Strategy s : Strategy.values()) {
            vm.selectedProperty(s).set(s == Strategy.CONDITIONAL || s == Strategy.LEASE);
        }

        vm.run();

        assertThat(vm.results()).extracting(StrategyResult::strategy)
                .containsExactly(Strategy.CONDITIONAL, Strategy.LEASE);
        vm.selectedProperty(Strategy.CONDITIONAL).set(false);
        vm.selectedProperty(Strategy.LEASE).set(false);
        assertThat(vm.canRunProperty().get()).isFalse();
    }

    @Test
    void aSweepPlotsThroughputPerStrategyByWorkerCount() {
        LabViewModel vm = viewModel();
        vm.sweepMaxWorkersProperty().set(4);
        vm.sweepOpsPerWorkerProperty().set(2);
        vm.thinkMsProperty().set(1);
        vm.selectedProperty(Strategy.LEASE).set(false);

        vm.sweep();

        assertThat(vm.errorProperty().get()).isEmpty();
        assertThat(vm.sweepSeries()).extracting(ChartSeries::name)
                .containsExactly("No protection", "Optimistic", "Pessimistic", "Conditional write");
        for (ChartSeries line : vm.sweepSeries()) {
            assertThat(line.points()).extracting(ChartSeries.Point::category).containsExactly("1", "2", "4");
            assertThat(line.points()).allMatch(d -> d.value() > 0);
        }
        assertThat(vm.sweepResults()).hasSize(12);
        assertThat(vm.statusProperty().get()).startsWith("Sweep done: 12 runs.");
        StrategyResult optimisticAt4 = vm.sweepResults().stream()
                .filter(r -> r.strategy() == Strategy.OPTIMISTIC && r.workers() == 4).findFirst().orElseThrow();
        assertThat(vm.sweepSeries().get(1).points().get(2).value())
                .isEqualTo(optimisticAt4.confirmedPerS());

        vm.sweepMetricProperty().set(LabViewModel.SweepMetric.THROUGHPUT);

        assertThat(vm.sweepSeries()).hasSize(4);
        assertThat(vm.sweepSeries().get(1).points().get(2).value())
                .isEqualTo(optimisticAt4.throughputOpsPerS());
    }

    @Test
    void theCsvExportHoldsEveryRowShown(@TempDir Path dir) throws Exception {
        LabViewModel vm = viewModel();
        vm.thinkMsProperty().set(5);
        vm.run();
        vm.sweepMaxWorkersProperty().set(2);
        vm.sweepOpsPerWorkerProperty().set(1);
        vm.selectedProperty(Strategy.NONE).set(false);
        vm.selectedProperty(Strategy.LEASE).set(false);
        vm.sweep();
        Path file = dir.resolve("lab.csv");

        vm.exportCsv(file);

        List<CSVRecord> rows;
        try (Reader in = Files.newBufferedReader(file)) {
            rows = CSVFormat.RFC4180.builder().setHeader().setSkipHeaderRecord(true).get().parse(in).getRecords();
        }
        assertThat(rows).hasSize(5 + 6);
        assertThat(rows.get(0).isConsistent()).isTrue();
        assertThat(rows.get(0).getParser().getHeaderNames()).containsExactlyElementsOf(LabCsv.HEADER);
        for (int i = 0; i < 5; i++) {
            StrategyResult r = vm.results().get(i);
            assertThat(rows.get(i).get("source")).isEqualTo("run");
            assertThat(rows.get(i).get("strategy")).isEqualTo(r.strategy().id());
            assertThat(rows.get(i).get("confirmed")).isEqualTo(Long.toString(r.confirmed()));
            assertThat(rows.get(i).get("final_stock")).isEqualTo(Integer.toString(r.finalStock()));
            assertThat(rows.get(i).get("lost_updates")).isEqualTo(Long.toString(r.lostUpdates()));
            assertThat(Double.parseDouble(rows.get(i).get("throughput_ops_s"))).isCloseTo(r.throughputOpsPerS(),
                    org.assertj.core.data.Offset.offset(0.01));
        }
        assertThat(rows.subList(5, 11)).extracting(row -> row.get("source")).containsOnly("sweep");
        assertThat(rows.subList(5, 11)).extracting(row -> row.get("workers"))
                .containsExactly("1", "1", "1", "2", "2", "2");
        assertThat(vm.statusProperty().get()).isEqualTo("Exported 11 rows to " + file);
    }

    @Test
    void aRunThatCannotReachTheDatabaseSaysWhyAndIsNoLongerBusy() {
        Jdbi nowhere = Jdbi.create("jdbc:postgresql://127.0.0.1:1/lab?connectTimeout=2");
        LabViewModel vm = new LabViewModel(new ContentionLab(n -> new JdbiLabStore(nowhere, () -> {})),
                TaskExecutor.sameThread(), Runnable::run);

        vm.run();

        assertThat(vm.busyProperty().get()).isFalse();
        assertThat(vm.errorProperty().get()).startsWith("Cannot reach the database");
        assertThat(vm.results()).isEmpty();
        assertThat(vm.canRunProperty().get()).isTrue();
    }

    @Test
    void aMissingNumberIsReportedAndNothingRuns() {
        LabViewModel vm = viewModel();
        vm.workersProperty().set(null);

        vm.run();

        assertThat(vm.errorProperty().get()).isEqualTo("Enter a whole number for workers");
        assertThat(vm.results()).isEmpty();
        assertThat(vm.busyProperty().get()).isFalse();
    }
}
