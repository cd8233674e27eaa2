package org.lockstep.ui.demo;

import static org.lockstep.text.Texts.tr;

import java.util.function.Function;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.collections.ListChangeListener;
import javafx.collections.ObservableList;
import javafx.scene.Parent;
import javafx.scene.chart.BarChart;
import javafx.scene.chart.CategoryAxis;
import javafx.scene.chart.LineChart;
import javafx.scene.chart.NumberAxis;
import javafx.scene.chart.XYChart;
import javafx.scene.control.Label;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
import org.lockstep.ui.ColumnWidths;
import org.lockstep.lab.StrategyResult;
import org.lockstep.ui.lab.ChartSeries;

/**
 * Scenario 7's results inside the Trainer panel: the lab's table (confirmed, final stock, lost updates, retries
 * exhausted per strategy), a chart of purchases confirmed beside units taken, the sweep's chart and its verdict.
 * Binds to a {@link BlackFridayViewModel}.
 */
public final class BlackFridayView {

    /** The width a chart needs to be read beside the table. */
    static final double CHART_WIDTH = 260;

    private final VBox root;

    /** Builds the node over {@code vm}. */
    public BlackFridayView(BlackFridayViewModel vm) {
        TableView<StrategyResult> table = new TableView<>(vm.results());
        ColumnWidths.keepHeadersWhole(table);
        table.setId("black-friday-results");
        table.getColumns().add(column(tr("Strategy"), 100, r -> r.strategy().id()));
        table.getColumns().add(column(tr("Confirmed"), 90, StrategyResult::confirmed));
        table.getColumns().add(column(tr("Final stock"), 96, StrategyResult::finalStock));
        table.getColumns().add(column(tr("Lost updates"), 110, StrategyResult::lostUpdates));
        table.getColumns().add(column(tr("Sold out"), 80, StrategyResult::soldOut));
        table.getColumns().add(column(tr("Gave up"), 80, StrategyResult::retriesExhausted));
        table.getColumns().forEach(c -> c.setMinWidth(c.getPrefWidth()));
        table.setPlaceholder(new Label(tr("Press Next step: the lab runs eight buyers for five units.")));
        // As tall as its header and one row per strategy, so no row hides behind a scroll bar (issue 27).
        table.setFixedCellSize(24);
        table.prefHeightProperty().bind(javafx.beans.binding.Bindings.max(3, javafx.beans.binding.Bindings.size(
                vm.results())).multiply(24).add(30));
        table.setMinHeight(javafx.scene.layout.Region.USE_PREF_SIZE);
        table.setMaxHeight(javafx.scene.layout.Region.USE_PREF_SIZE);
        table.setMinWidth(javafx.scene.layout.Region.USE_PREF_SIZE);
        table.setPrefWidth(table.getColumns().stream().mapToDouble(TableColumn::getPrefWidth).sum() + 4);
        BarChart<String, Number> sold = new BarChart<>(new CategoryAxis(), new NumberAxis());
        sold.setId("black-friday-chart");
        sold.setTitle(tr("Five units on sale"));
        sold.setAnimated(false);
        sold.setPrefHeight(180);
        sold.setMinHeight(140);
        plot(sold, vm.soldSeries());
        LineChart<String, Number> sweep = new LineChart<>(new CategoryAxis(), new NumberAxis());
        sweep.setId("black-friday-sweep");
        sweep.setTitle(tr("Confirmed purchases per second, by buyers"));
        sweep.setAnimated(false);
        sweep.setPrefHeight(180);
        sweep.setMinHeight(140);
        plot(sweep, vm.sweepSeries());
        Label verdict = new Label();
        verdict.setId("black-friday-verdict");
        verdict.setWrapText(true);
        verdict.getStyleClass().add("notice");
        verdict.textProperty().bind(vm.verdictProperty());
        verdict.visibleProperty().bind(vm.verdictProperty().isNotEmpty());
        verdict.managedProperty().bind(verdict.visibleProperty());
        // Side by side where the band is wide enough (the Trainer panel is a wide, short band, a third of the
        // screen's height); the charts go under the table where it is not, rather than running off its edge.
        HBox charts = new HBox(8, sold, sweep);
        HBox.setHgrow(sold, Priority.ALWAYS);
        HBox.setHgrow(sweep, Priority.ALWAYS);
        sold.setMinWidth(0);
        sweep.setMinWidth(0);
        HBox.setHgrow(charts, Priority.ALWAYS);
        HBox row = new HBox(8);
        verdict.setMinHeight(javafx.scene.layout.Region.USE_PREF_SIZE);
        verdict.setMaxWidth(Double.MAX_VALUE);
        root = new VBox(6, row, verdict);
        root.setMinWidth(0);
        Runnable arrange = () -> {
            boolean wide = root.getWidth() <= 0 || root.getWidth() >= table.getPrefWidth() + 2 * CHART_WIDTH;
            if (wide && !row.getChildren().contains(table)) {
                root.getChildren().remove(table);
                root.getChildren().remove(charts);
                row.getChildren().setAll(table, charts);
            } else if (!wide && !root.getChildren().contains(table)) {
                row.getChildren().clear();
                root.getChildren().addAll(0, java.util.List.of(table, charts));
            }
        };
        root.widthProperty().addListener(o -> arrange.run());
        arrange.run();
        root.setId("black-friday");
    }

    /** The node. */
    public Parent root() {
        return root;
    }

    private static void plot(XYChart<String, Number> chart, ObservableList<ChartSeries> data) {
        Runnable redraw = () -> chart.getData().setAll(data.stream().map(s -> {
            XYChart.Series<String, Number> series = new XYChart.Series<>();
            series.setName(s.name());
            s.points().forEach(p -> series.getData().add(new XYChart.Data<>(p.category(), p.value())));
            return series;
        }).toList());
        data.addListener((ListChangeListener<ChartSeries>) change -> redraw.run());
        redraw.run();
    }

    private static TableColumn<StrategyResult, Object> column(String title, double width,
            Function<StrategyResult, Object> value) {
        TableColumn<StrategyResult, Object> column = new TableColumn<>(title);
        column.setPrefWidth(width);
        column.setCellValueFactory(cell -> new ReadOnlyObjectWrapper<>(value.apply(cell.getValue())));
        return column;
    }
}
