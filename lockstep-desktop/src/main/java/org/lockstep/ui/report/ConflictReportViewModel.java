package org.lockstep.ui.report;

import static org.lockstep.text.Texts.tr;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.text.NumberFormat;
import java.util.function.ToLongFunction;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleObjectProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import org.lockstep.concurrency.TaskExecutor;
import org.lockstep.concurrency.TaskScope;
import org.lockstep.domain.HotRecordAdvice;
import org.lockstep.report.ConflictReport;
import org.lockstep.report.ConflictReportFormats;
import org.lockstep.report.ConflictReports;
import org.lockstep.text.Texts;
import org.lockstep.ui.lab.ChartSeries;

/**
 * The Conflict report window's state (Tools → Conflict report): the chosen range of days, the report read for it in
 * the background, the chart series computed from it as plain data, and CSV and JSON export. FX thread only; database
 * and file work go through the {@link TaskExecutor}, and a report that arrives after another range was chosen is
 * dropped ({@link TaskScope}).
 */
public final class ConflictReportViewModel {

    /** The ranges offered, in days. */
    public static final List<Integer> RANGES = List.of(7, 30, 90, 365);

    private final ConflictReports reports;
    private final TaskExecutor executor;
    private final TaskScope scope;
    private final ZoneId zone;
    private final ObjectProperty<Integer> days = new SimpleObjectProperty<>(this, "days", 30);
    private final ReadOnlyObjectWrapper<ConflictReport> report = new ReadOnlyObjectWrapper<>(this, "report");
    private final ReadOnlyBooleanWrapper busy = new ReadOnlyBooleanWrapper(this, "busy");
    private final ReadOnlyStringWrapper status = new ReadOnlyStringWrapper(this, "status", "");
    private final ReadOnlyStringWrapper error = new ReadOnlyStringWrapper(this, "error", "");
    private final ReadOnlyStringWrapper summary = new ReadOnlyStringWrapper(this, "summary", "");
    private final ObservableList<ConflictReport.Day> dayRows = FXCollections.observableArrayList();
    private final ObservableList<ConflictReport.CustomerConflicts> customers = FXCollections.observableArrayList();
    private final ObservableList<String> alerts = FXCollections.observableArrayList();
    private final ObservableList<ChartSeries> conflictSeries = FXCollections.observableArrayList();
    private final ObservableList<ChartSeries> rateSeries = FXCollections.observableArrayList();

    /**
     * @param reports  reads the report (blocking; called through {@code executor})
     * @param executor runs the reads and exports off the FX thread
     * @param zone     whose days the report counts
     */
    public ConflictReportViewModel(ConflictReports reports, TaskExecutor executor, ZoneId zone) {
        this.reports = reports;
        this.executor = executor;
        this.scope = new TaskScope(executor);
        this.zone = zone;
        days.addListener((obs, was, now) -> refresh());
    }

    /** The range, in days; changing it reads the report again. */
    public ObjectProperty<Integer> daysProperty() {
        return days;
    }

    /** The report shown; {@code null} until the first read arrives. */
    public ReadOnlyObjectProperty<ConflictReport> reportProperty() {
        return report.getReadOnlyProperty();
    }

    /** Whether a read or an export is running. */
    public ReadOnlyBooleanProperty busyProperty() {
        return busy.getReadOnlyProperty();
    }

    /** What was done last ("Exported 30 days to …"). */
    public ReadOnlyStringProperty statusProperty() {
        return status.getReadOnlyProperty();
    }

    /** Why the last read or export failed, in one line; empty when it did not. */
    public ReadOnlyStringProperty errorProperty() {
        return error.getReadOnlyProperty();
    }

    /** The totals in a sentence: "In 30 days: 120 saves, 6 hit zero rows (4.8 %), 5 merges saved, …". */
    public ReadOnlyStringProperty summaryProperty() {
        return summary.getReadOnlyProperty();
    }

    /** One row per day, newest first. */
    public ObservableList<ConflictReport.Day> days() {
        return dayRows;
    }

    /** The customers with most conflicts. */
    public ObservableList<ConflictReport.CustomerConflicts> customers() {
        return customers;
    }

    /** One line per customer hot by the editor's rule. */
    public ObservableList<String> alerts() {
        return alerts;
    }

    /** Per day: saves that hit zero rows, merges, lease waits, broken and lapsed leases, lab retries exhausted. */
    public ObservableList<ChartSeries> conflictSeries() {
        return conflictSeries;
    }

    /** Per day: the conflict rate in percent. */
    public ObservableList<ChartSeries> rateSeries() {
        return rateSeries;
    }

    /** Reads the report for the chosen range in the background. */
    public void refresh() {
        Integer n = days.get();
        if (n == null) {
            return;
        }
        scope.renew();
        busy.set(true);
        error.set("");
        scope.execute(() -> reports.read(n, zone), this::show, failure -> {
            busy.set(false);
            error.set(tr("The report could not be read: {0}. Try Refresh.", message(failure)));
        });
    }

    /** Writes the report shown as CSV (one row per day and a total), in the background. */
    public void exportCsv(Path file) {
        export(file, "CSV", out -> ConflictReportFormats.csv(report.get(), out));
    }

    /** Writes the report shown as JSON, the same keys as {@code lockstep report conflicts --json}. */
    public void exportJson(Path file) {
        export(file, "JSON", out -> out.write(ConflictReportFormats.jsonText(report.get())));
    }

    private interface Body {
        void write(Writer out) throws IOException;
    }

    private void export(Path file, String format, Body body) {
        if (report.get() == null) {
            error.set(tr("Nothing to export yet: the report is still being read."));
            return;
        }
        error.set("");
        executor.execute(() -> {
            try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
                body.write(out);
            }
            return file;
        }, written -> status.set(tr("Exported the report as {0} to {1}", format, written.toString())),
                failure -> error.set(tr("Cannot write {0}: {1}", file.toString(), message(failure))));
    }

    private void show(ConflictReport r) {
        busy.set(false);
        report.set(r);
        List<ConflictReport.Day> newestFirst = new ArrayList<>(r.daysList());
        java.util.Collections.reverse(newestFirst);
        dayRows.setAll(newestFirst);
        customers.setAll(r.customers());
        alerts.setAll(r.alerts().stream().map(ConflictReportViewModel::alert).toList());
        conflictSeries.setAll(List.of(
                series(r, tr("Saves that met a newer version"), ConflictReport.Day::zeroRowSaves),
                series(r, tr("Merges saved"), ConflictReport.Day::mergesSaved),
                series(r, tr("Merges abandoned"), ConflictReport.Day::mergesAbandoned),
                series(r, tr("Waits for a lock"), ConflictReport.Day::leaseWaits),
                series(r, tr("Locks broken"), ConflictReport.Day::leasesBroken),
                series(r, tr("Locks lapsed"), ConflictReport.Day::leasesLapsed),
                series(r, tr("Lab retries exhausted"), ConflictReport.Day::labRetriesExhausted)));
        rateSeries.setAll(List.of(new ChartSeries(tr("Conflict rate, %"), r.daysList().stream()
                .map(d -> new ChartSeries.Point(label(d), d.conflictRate() * 100)).toList())));
        ConflictReport.Day t = r.total();
        summary.set(tr("In {0, plural, one {# day} other {# days}}: {1, plural, one {# save} other {# saves}},"
                + " {2, plural, one {# conflict} other {# conflicts}} ({3}),"
                + " {4, plural, one {# merge saved} other {# merges saved}},"
                + " {5, number} abandoned, {6, plural, one {# wait for a lock} other {# waits for a lock}},"
                + " {7, plural, one {# lock broken} other {# locks broken}}, {8, number} lapsed,"
                + " {9, plural, one {# lab retry exhausted} other {# lab retries exhausted}}.",
                r.daysList().size(), t.saves(), t.zeroRowSaves(), percent(t.conflictRate()), t.mergesSaved(),
                t.mergesAbandoned(), t.leaseWaits(), t.leasesBroken(), t.leasesLapsed(), t.labRetriesExhausted()));
        status.set(tr("Read at {0} (server time)", r.readAt().atZone(zone).toLocalTime().withNano(0).toString()));
    }

    private static ChartSeries series(ConflictReport r, String name, ToLongFunction<ConflictReport.Day> value) {
        return new ChartSeries(name, r.daysList().stream().map(d -> new ChartSeries.Point(label(d),
                value.applyAsLong(d))).toList());
    }

    /**
     * A hot customer's alert in the current language: "Hot record: customer 12 (Hot Harbour Ltd) — 3 conflicts on
     * this customer in the last 7 days — consider Lock for editing" (the command line's report keeps the store's
     * English {@link ConflictReport.HotAlert#line()}).
     */
    static String alert(ConflictReport.HotAlert a) {
        long days = HotRecordAdvice.WINDOW.toDays();
        return a.name() == null || a.name().isEmpty()
                ? tr("Hot record: customer {0} (deleted) — {1, plural, one {# conflict} other {# conflicts}} on this"
                        + " customer in the last {2, plural, one {day} other {# days}} — consider Lock for editing",
                        a.customerId(), a.conflicts(), days)
                : tr("Hot record: customer {0} ({3}) — {1, plural, one {# conflict} other {# conflicts}} on this"
                        + " customer in the last {2, plural, one {day} other {# days}} — consider Lock for editing",
                        a.customerId(), a.conflicts(), days, a.name());
    }

    /** A rate as a percentage with one decimal in the current language: "12.5 %", "12,5 %". */
    static String percent(double rate) {
        NumberFormat format = NumberFormat.getNumberInstance(Texts.locale());
        format.setGroupingUsed(false);
        format.setMinimumFractionDigits(1);
        format.setMaximumFractionDigits(1);
        return tr("{0} %", format.format(rate * 100));
    }

    /** The x category of a day in the language's order: "11-29" in English, "29/11" in Portuguese and Spanish. */
    static String label(ConflictReport.Day d) {
        return Texts.language().numericDayMonth().format(d.day());
    }

    /** A day as the table shows it: "2026-11-29" in English, "29/11/2026" in Portuguese and Spanish. */
    public static String day(ConflictReport.Day d) {
        return Texts.language().numericDate().format(d.day());
    }

    private static String message(Throwable t) {
        return t.getMessage() == null || t.getMessage().isBlank() ? t.getClass().getSimpleName() : t.getMessage();
    }
}
