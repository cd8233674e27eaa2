package org.lockstep.ui.report;

import static org.lockstep.text.Texts.tr;

import java.io.File;
import java.nio.file.Path;
import java.util.function.Consumer;
import java.util.function.Function;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.collections.ListChangeListener;
import javafx.collections.ObservableList;
import javafx.geometry.Insets;
import javafx.scene.Parent;
import javafx.scene.chart.CategoryAxis;
import javafx.scene.chart.LineChart;
import javafx.scene.chart.NumberAxis;
import javafx.scene.chart.StackedBarChart;
import javafx.scene.chart.XYChart;
import javafx.scene.control.Button;
import javafx.scene.control.ChoiceBox;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.ProgressIndicator;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import javafx.stage.FileChooser;
import org.lockstep.text.Texts;
import org.lockstep.ui.ColumnWidths;
import org.lockstep.report.ConflictReport;
import org.lockstep.ui.lab.ChartSeries;
import org.lockstep.ui.theme.Themes;

/**
 * The Conflict report's node: the range, the totals, the alert lines, a stacked bar chart of conflicts per day
 * beside the conflict rate, the days as a table and the customers with most conflicts. Binds to a
 * {@link ConflictReportViewModel} and forwards Refresh and the exports; charts are built from its plain series.
 */
public final class ConflictReportView {

    private final ConflictReportViewModel vm;
    private final BorderPane root = new BorderPane();

    /** Builds the node over {@code vm}. */
    public ConflictReportView(ConflictReportViewModel vm) {
        this.vm = vm;
        root.setTop(toolbar());
        VBox center = new VBox(8, summary(), alerts(), charts(), tables());
        center.setPadding(new Insets(8));
        VBox.setVgrow(center.getChildren().get(3), Priority.ALWAYS);
        root.setCenter(center);
        Themes.ensureInstalled();
        root.getStylesheets().add(ConflictReportView.class.getResource("ConflictReportView.css").toExternalForm());
        root.getStyleClass().add("conflict-report");
    }

    /** The node. */
    public Parent root() {
        return root;
    }

    private HBox toolbar() {
        ChoiceBox<Integer> range = new ChoiceBox<>();
        range.setId("conflict-report-days");
        range.getItems().setAll(ConflictReportViewModel.RANGES);
        range.valueProperty().bindBidirectional(vm.daysProperty());
        range.setConverter(new javafx.util.StringConverter<>() {
            @Override
            public String toString(Integer n) {
                return n == null ? "" : tr("Last {0, plural, one {# day} other {# days}}", n);
            }

            @Override
            public Integer fromString(String s) {
                return null;
            }
        });
        Button refresh = button("conflict-report-refresh", tr("_Refresh"), e -> vm.refresh());
        Button csv =
                button("conflict-report-export-csv", tr("Export _CSV…"), e -> choose("CSV", "*.csv", vm::exportCsv));
        Button json = button("conflict-report-export-json", tr("Export _JSON…"),
                e -> choose("JSON", "*.json", vm::exportJson));
        csv.disableProperty().bind(vm.reportProperty().isNull());
        json.disableProperty().bind(vm.reportProperty().isNull());
        ProgressIndicator busy = new ProgressIndicator();
        busy.setPrefSize(18, 18);
        busy.visibleProperty().bind(vm.busyProperty());
        Label status = new Label();
        status.setId("conflict-report-status");
        status.textProperty().bind(vm.statusProperty());
        Label error = new Label();
        error.setId("conflict-report-error");
        error.getStyleClass().add("error");
        error.textProperty().bind(vm.errorProperty());
        Region gap = new Region();
        HBox.setHgrow(gap, Priority.ALWAYS);
        HBox bar = new HBox(8, new Label(tr("Range:")), range, refresh, busy, error, gap, status, csv, json);
        bar.setPadding(new Insets(8));
        bar.getStyleClass().add("toolbar");
        return bar;
    }

    private Label summary() {
        Label summary = new Label();
        summary.setId("conflict-report-summary");
        summary.getStyleClass().add("summary");
        summary.setWrapText(true);
        summary.setMinHeight(Region.USE_PREF_SIZE); // the VBox would squeeze it to one elided line
        summary.textProperty().bind(vm.summaryProperty());
        return summary;
    }

    private ListView<String> alerts() {
        ListView<String> alerts = new ListView<>(vm.alerts());
        alerts.setId("conflict-report-alerts");
        alerts.getStyleClass().add("alerts");
        // One row per alert, up to four, then a scroll bar: every hot customer shows without taking the charts' room.
        alerts.setFixedCellSize(24);
        alerts.prefHeightProperty().bind(javafx.beans.binding.Bindings.createDoubleBinding(
                () -> 4 + 24.0 * Math.max(1, Math.min(4, vm.alerts().size())), vm.alerts()));
        alerts.minHeightProperty().bind(alerts.prefHeightProperty());
        alerts.setPlaceholder(new Label(tr("No customer is hot: none met 3 conflicts in the last 7 days.")));
        return alerts;
    }

    private HBox charts() {
        StackedBarChart<String, Number> conflicts = new StackedBarChart<>(new CategoryAxis(), new NumberAxis());
        conflicts.setId("conflict-report-chart");
        conflicts.setTitle(tr("Conflicts and merges per day"));
        conflicts.setAnimated(false);
        conflicts.setCategoryGap(2);
        LineChart<String, Number> rate = new LineChart<>(new CategoryAxis(), new NumberAxis());
        rate.setId("conflict-report-rate-chart");
        rate.setTitle(tr("Conflict rate per day (conflicts per save tried)"));
        rate.setAnimated(false);
        rate.setCreateSymbols(false);
        plot(conflicts, vm.conflictSeries());
        plot(rate, vm.rateSeries());
        HBox.setHgrow(conflicts, Priority.ALWAYS);
        HBox.setHgrow(rate, Priority.ALWAYS);
        rate.setPrefWidth(420);
        HBox charts = new HBox(8, conflicts, rate);
        // The charts keep their height (legend included); the tables below take what is left and scroll.
        charts.setMinHeight(320);
        charts.setPrefHeight(320);
        return charts;
    }

    private static void plot(XYChart<String, Number> chart, ObservableList<ChartSeries> data) {
        Runnable redraw = () -> chart.getData().setAll(data.stream().map(ConflictReportView::series).toList());
        data.addListener((ListChangeListener<ChartSeries>) change -> redraw.run());
        redraw.run();
    }

    private static XYChart.Series<String, Number> series(ChartSeries data) {
        XYChart.Series<String, Number> series = new XYChart.Series<>();
        series.setName(data.name());
        data.points().forEach(p -> series.getData().add(new XYChart.Data<>(p.category(), p.value())));
        return series;
    }

    private HBox tables() {
        TableView<ConflictReport.Day> days = new TableView<>(vm.days());
        ColumnWidths.keepHeadersWhole(days);
        days.setId("conflict-report-table");
        TableColumn<ConflictReport.Day, Object> day = column(tr("Day"), 84, ConflictReportViewModel::day);
        // Never cut ("2026-1…" said nothing): as wide as the longest date, whatever the table's width.
        ColumnWidths.atLeast(day, Texts.language().numericDate().format(java.time.LocalDate.of(2026, 12, 31)));
        days.getColumns().add(day);
        days.getColumns().add(column(tr("Saves"), 52, ConflictReport.Day::saves));
        days.getColumns().add(column(tr("Conflicts"), 64, ConflictReport.Day::zeroRowSaves));
        days.getColumns().add(column(tr("Rate"), 56, d -> ConflictReportViewModel.percent(d.conflictRate())));
        days.getColumns().add(column(tr("Merged"), 58, ConflictReport.Day::mergesSaved));
        days.getColumns().add(column(tr("Abandoned"), 84, ConflictReport.Day::mergesAbandoned));
        days.getColumns().add(column(tr("Waits"), 50, ConflictReport.Day::leaseWaits));
        days.getColumns().add(column(tr("Broken"), 56, ConflictReport.Day::leasesBroken));
        days.getColumns().add(column(tr("Lapsed"), 56, ConflictReport.Day::leasesLapsed));
        days.getColumns().add(column(tr("Lab"), 44, ConflictReport.Day::labRetriesExhausted));
        days.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        days.setPlaceholder(new Label(tr("Reading…")));
        TableView<ConflictReport.CustomerConflicts> customers = new TableView<>(vm.customers());
        ColumnWidths.keepHeadersWhole(customers);
        customers.setId("conflict-report-customers");
        customers.getColumns().add(column(tr("Id"), 44, ConflictReport.CustomerConflicts::customerId));
        customers.getColumns().add(column(tr("Name"), 180, c -> c.name().isEmpty() ? tr("(deleted)") : c.name()));
        customers.getColumns().add(column(tr("Conflicts"), 68, ConflictReport.CustomerConflicts::conflicts));
        customers.getColumns().add(column(tr("Saves"), 50, ConflictReport.CustomerConflicts::saves));
        customers.getColumns().add(column(tr("Rate"), 56, c -> ConflictReportViewModel.percent(c.conflictRate())));
        customers.getColumns().add(column(tr("Met by"), 160, c -> String.join(", ", c.metBy())));
        customers.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        customers.setPlaceholder(new Label(tr("No customer met a conflict in these days.")));
        HBox.setHgrow(days, Priority.ALWAYS);
        HBox.setHgrow(customers, Priority.ALWAYS);
        days.setPrefWidth(600);
        customers.setPrefWidth(560);
        return new HBox(8, titled(tr("Per day, newest first. Conflicts: saves that met a newer version; waits: tries "
                + "to lock a customer another had locked; lab: lab purchases given up after the last retry."), days),
                titled(tr("Customers with most conflicts, and who met them"), customers));
    }

    private static VBox titled(String title, Region content) {
        Label heading = new Label(title);
        heading.getStyleClass().add("heading");
        heading.setWrapText(true);
        // The table sets the column's width; the heading wraps within it.
        heading.setPrefWidth(120);
        heading.setMaxWidth(Double.MAX_VALUE);
        heading.setMinHeight(Region.USE_PREF_SIZE);
        VBox box = new VBox(4, heading, content);
        VBox.setVgrow(content, Priority.ALWAYS);
        HBox.setHgrow(box, Priority.ALWAYS);
        return box;
    }

    private static <S> TableColumn<S, Object> column(String title, double width, Function<S, Object> value) {
        TableColumn<S, Object> column = new TableColumn<>(title);
        column.setPrefWidth(width);
        column.setCellValueFactory(cell -> new ReadOnlyObjectWrapper<>(value.apply(cell.getValue())));
        return column;
    }

    private static Button button(String id, String text, javafx.event.EventHandler<javafx.event.ActionEvent> action) {
        Button b = new Button(text);
        b.setId(id);
        b.setMnemonicParsing(true);
        b.setOnAction(action);
        return b;
    }

    private void choose(String format, String pattern, Consumer<Path> export) {
        FileChooser chooser = new FileChooser();
        chooser.setTitle(tr("Export the conflict report as {0}", format));
        chooser.getExtensionFilters().add(new FileChooser.ExtensionFilter(format, pattern));
        chooser.setInitialFileName("conflict-report" + pattern.substring(1));
        File file = chooser.showSaveDialog(root.getScene() == null ? null : root.getScene().getWindow());
        if (file != null) {
            export.accept(file.toPath());
        }
    }
}
