package org.lockstep.ui.lab;

import static org.lockstep.text.Texts.tr;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.text.NumberFormat;
import java.util.function.Function;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.css.PseudoClass;
import javafx.fxml.FXML;
import javafx.fxml.FXMLLoader;
import javafx.scene.Parent;
import javafx.scene.chart.BarChart;
import javafx.scene.chart.LineChart;
import javafx.scene.chart.NumberAxis;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.ChoiceBox;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressBar;
import javafx.scene.control.Spinner;
import javafx.scene.control.SpinnerValueFactory.IntegerSpinnerValueFactory;
import javafx.scene.control.TabPane;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.chart.XYChart;
import javafx.scene.layout.ColumnConstraints;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.stage.FileChooser;
import org.lockstep.ui.ColumnWidths;
import org.lockstep.lab.LabRun;
import org.lockstep.lab.Strategy;
import org.lockstep.lab.StrategyResult;
import org.lockstep.lab.SweepPlan;
import org.lockstep.text.Texts;
import org.lockstep.ui.theme.Themes;

/**
 * The contention lab's content (FXML: {@code LabView.fxml}): parameters, strategies, Run and Sweep with a progress
 * bar, the results table with bar charts of throughput, lost updates and retries, and the sweep's line chart. It
 * binds the controls to {@link LabViewModel} and forwards the buttons; the CSV export asks for a file here.
 */
public final class LabView {

    private static final PseudoClass LOST = PseudoClass.getPseudoClass("lost");

    private final LabViewModel vm;
    private final Parent root;

    // The injected controls, one per line as the FXML lists their ids (kept so by the formatter tags).
    // @formatter:off
    @FXML private Label workersLabel;
    @FXML private Spinner<Integer> workersSpinner;
    @FXML private Label stockLabel;
    @FXML private Spinner<Integer> stockSpinner;
    @FXML private Label opsLabel;
    @FXML private Spinner<Integer> opsSpinner;
    @FXML private Label thinkLabel;
    @FXML private Spinner<Integer> thinkSpinner;
    @FXML private HBox strategyBox;
    @FXML private Button runButton;
    @FXML private Button sweepButton;
    @FXML private ChoiceBox<Integer> sweepWorkersChoice;
    @FXML private Spinner<Integer> sweepOpsSpinner;
    @FXML private Button exportButton;
    @FXML private ProgressBar progressBar;
    @FXML private Label statusLabel;
    @FXML private Label errorLabel;
    @FXML private TabPane tabs;
    @FXML private TableView<StrategyResult> resultsTable;
    @FXML private GridPane chartGrid;
    @FXML private BarChart<String, Number> throughputChart;
    @FXML private BarChart<String, Number> lostChart;
    @FXML private BarChart<String, Number> retriesChart;
    @FXML private Label sweepMetricLabel;
    @FXML private ChoiceBox<LabViewModel.SweepMetric> sweepMetricChoice;
    @FXML private LineChart<String, Number> sweepChart;
    @FXML private NumberAxis sweepValueAxis;
    // @formatter:on

    /** Builds the view from its FXML and binds it to {@code vm}. */
    public LabView(LabViewModel vm) {
        this.vm = vm;
        Themes.ensureInstalled(); // the stylesheet names the palette's colours
        FXMLLoader loader = new FXMLLoader(LabView.class.getResource("LabView.fxml"), Texts.bundle());
        loader.setController(this);
        try {
            root = loader.load();
        } catch (IOException e) {
            throw new UncheckedIOException("LabView.fxml is missing or broken", e);
        }
    }

    /** The view's root node. */
    public Parent root() {
        return root;
    }

    @FXML
    private void initialize() {
        bindSpinner(workersLabel, workersSpinner, "lab-workers", 1, LabRun.MAX_WORKERS, vm.workersProperty());
        bindSpinner(stockLabel, stockSpinner, "lab-stock", 0, 1_000_000, vm.stockProperty());
        bindSpinner(opsLabel, opsSpinner, "lab-ops", 1, 10_000, vm.opsPerWorkerProperty());
        bindSpinner(thinkLabel, thinkSpinner, "lab-think", 0, (int) LabRun.MAX_THINK_MS, vm.thinkMsProperty());
        bindSpinner(null, sweepOpsSpinner, "lab-sweep-ops", 1, 1_000, vm.sweepOpsPerWorkerProperty());
        for (Strategy s : Strategy.values()) {
            CheckBox box = new CheckBox(tr(s.displayName()));
            box.setId("lab-strategy-" + s.id());
            box.selectedProperty().bindBidirectional(vm.selectedProperty(s));
            box.setTooltip(new javafx.scene.control.Tooltip(tr(s.description())));
            strategyBox.getChildren().add(box);
        }
        sweepWorkersChoice.getItems().setAll(SweepPlan.STANDARD_WORKERS);
        sweepWorkersChoice.valueProperty().bindBidirectional(vm.sweepMaxWorkersProperty());
        sweepWorkersChoice.setId("lab-sweep-workers");
        runButton.setId("lab-run");
        sweepButton.setId("lab-sweep");
        exportButton.setId("lab-export");
        runButton.disableProperty().bind(vm.canRunProperty().not());
        sweepButton.disableProperty().bind(vm.canRunProperty().not());
        exportButton.disableProperty().bind(vm.busyProperty());
        runButton.setOnAction(e -> {
            tabs.getSelectionModel().select(0);
            vm.run();
        });
        sweepButton.setOnAction(e -> {
            tabs.getSelectionModel().select(1);
            vm.sweep();
        });
        exportButton.setOnAction(e -> export());
        progressBar.progressProperty().bind(vm.progressProperty());
        statusLabel.textProperty().bind(vm.statusProperty());
        statusLabel.setId("lab-status");
        errorLabel.textProperty().bind(vm.errorProperty());
        errorLabel.visibleProperty().bind(vm.errorProperty().isNotEmpty());
        errorLabel.managedProperty().bind(errorLabel.visibleProperty());
        errorLabel.setId("lab-error");
        bindTable();
        bindCharts();
    }

    private static void bindSpinner(Label label, Spinner<Integer> spinner, String id, int min, int max,
            ObjectProperty<Integer> value) {
        IntegerSpinnerValueFactory factory = new IntegerSpinnerValueFactory(min, max, value.get());
        spinner.setValueFactory(factory);
        factory.valueProperty().bindBidirectional(value);
        spinner.setId(id);
        // A typed value counts when the field loses focus too, not only on Enter; text that is no number gives way
        // to the last valid value.
        spinner.focusedProperty().addListener((obs, was, focused) -> {
            if (!focused) {
                Integer last = spinner.getValue();
                try {
                    spinner.commitValue();
                } catch (NumberFormatException e) {
                    factory.setValue(last);
                }
                if (spinner.getValue() == null) {
                    factory.setValue(last);
                }
                spinner.getEditor().setText(String.valueOf(spinner.getValue()));
            }
        });
        if (label != null) {
            label.setLabelFor(spinner);
        }
    }

    private void bindTable() {
        resultsTable.setId("lab-results");
        resultsTable.setItems(vm.results());
        resultsTable.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_ALL_COLUMNS);
        ColumnWidths.keepHeadersWhole(resultsTable);
        resultsTable.getColumns().setAll(List.of(
                column(tr("Strategy"), 95, r -> tr(r.strategy().displayName()), false),
                column(tr("Confirmed"), 85, StrategyResult::confirmed, true),
                column(tr("Final stock"), 90, StrategyResult::finalStock, true),
                column(tr("Lost updates"), 105, StrategyResult::lostUpdates, true),
                column(tr("Conflicts"), 80, StrategyResult::conflicts, true),
                column(tr("Retries"), 70, StrategyResult::retries, true),
                column(tr("Gave up"), 70, StrategyResult::retriesExhausted, true),
                column(tr("Lock waits"), 90, StrategyResult::lockWaits, true),
                column(tr("Lock timeouts"), 115, StrategyResult::lockTimeouts, true),
                column(tr("Attempts/s"), 95, r -> fixed(r.throughputOpsPerS(), 1), true),
                column(tr("p50 ms"), 70, r -> fixed(r.p50Ms(), 1), true),
                column(tr("p99 ms"), 70, r -> fixed(r.p99Ms(), 1), true)));
        resultsTable.setRowFactory(table -> new TableRow<>() {
            @Override
            protected void updateItem(StrategyResult item, boolean empty) {
                super.updateItem(item, empty);
                pseudoClassStateChanged(LOST, !empty && item != null && item.lostUpdates() != 0);
            }
        });
    }

    private static TableColumn<StrategyResult, Object> column(String title, double width,
            Function<StrategyResult, Object> value,
            boolean numeric) {
        TableColumn<StrategyResult, Object> column = new TableColumn<>(title);
        column.setPrefWidth(width);
        column.setMinWidth(width * 0.8);
        column.setCellValueFactory(c -> new ReadOnlyObjectWrapper<>(value.apply(c.getValue())));
        column.setSortable(false);
        if (numeric) {
            column.getStyleClass().add("numeric");
        }
        return column;
    }

    /** A chart series that follows the view model's plain series. */
    private static XYChart.Series<String, Number> plotted(javafx.beans.value.ObservableValue<ChartSeries> data) {
        XYChart.Series<String, Number> series = series(data.getValue());
        data.addListener((obs, was, now) -> {
            series.setName(now.name());
            series.getData().setAll(series(now).getData());
        });
        return series;
    }

    private static XYChart.Series<String, Number> series(ChartSeries data) {
        XYChart.Series<String, Number> series = new XYChart.Series<>();
        series.setName(data.name());
        data.points().forEach(p -> series.getData().add(new XYChart.Data<>(p.category(), p.value())));
        return series;
    }

    private void bindCharts() {
        for (int i = 0; i < 3; i++) {
            ColumnConstraints third = new ColumnConstraints();
            third.setPercentWidth(100.0 / 3);
            chartGrid.getColumnConstraints().add(third);
        }
        throughputChart.getData().add(plotted(vm.throughputSeries()));
        lostChart.getData().add(plotted(vm.lostUpdatesSeries()));
        retriesChart.getData().add(plotted(vm.retriesSeries()));
        vm.sweepSeries().addListener((javafx.collections.ListChangeListener<ChartSeries>) change -> sweepChart.getData()
                .setAll(vm.sweepSeries().stream().map(LabView::series).toList()));
        sweepChart.getData().setAll(vm.sweepSeries().stream().map(LabView::series).toList());
        sweepChart.setId("lab-sweep-chart");
        sweepMetricChoice.getItems().setAll(LabViewModel.SweepMetric.values());
        sweepMetricChoice.valueProperty().bindBidirectional(vm.sweepMetricProperty());
        sweepMetricChoice.setId("lab-sweep-metric");
        sweepMetricLabel.setLabelFor(sweepMetricChoice);
        sweepValueAxis.labelProperty().bind(vm.sweepMetricProperty().map(LabViewModel.SweepMetric::label));
    }

    private void export() {
        FileChooser chooser = new FileChooser();
        chooser.setTitle(tr("Export lab results as CSV"));
        chooser.setInitialFileName("lockstep-lab.csv");
        chooser.getExtensionFilters().add(new FileChooser.ExtensionFilter(tr("CSV files"), "*.csv"));
        File file = chooser.showSaveDialog(root.getScene().getWindow());
        if (file != null) {
            vm.exportCsv(file.toPath());
        }
    }

    private static String fixed(double value, int decimals) {
        // The language's decimal mark (12.5, 12,5), without grouping: the columns stay narrow.
        NumberFormat format = NumberFormat.getNumberInstance(Texts.locale());
        format.setGroupingUsed(false);
        format.setMinimumFractionDigits(decimals);
        format.setMaximumFractionDigits(decimals);
        return format.format(value);
    }
}
