package org.lockstep.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;
import java.util.Locale;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;
import org.lockstep.domain.HotRecordAdvice;
import org.lockstep.domain.UnicodeText;

/**
 * The {@link ConflictReport} as JSON, CSV and a plain-text table: the same keys and columns for {@code lockstep report
 * conflicts} and the Conflict report window's export. Rates are fractions (0.25 = 25 %) rounded to 4 decimals.
 */
public final class ConflictReportFormats {

    /** The columns of a day, in JSON keys and CSV headers alike. */
    public static final List<String> DAY_COLUMNS = List.of("day", "saves", "zero_row_saves", "conflict_rate",
            "merges_saved", "merges_abandoned", "lease_waits", "leases_broken", "leases_lapsed",
            "lab_retries_exhausted");

    private static final ObjectMapper JSON = new ObjectMapper();

    private ConflictReportFormats() {
    }

    /**
     * The report as one JSON object: {@code from, to, zone, read_at, hot_record} (the threshold and window in days),
     * {@code days} (one object per day with {@link #DAY_COLUMNS}), {@code total} (the same keys but {@code day}),
     * {@code customers} ({@code customer_id, name, conflicts, saves, conflict_rate, met_by}) and {@code alerts}
     * ({@code customer_id, name, conflicts, line}).
     */
    public static ObjectNode json(ConflictReport report) {
        ObjectNode root = JSON.createObjectNode();
        root.put("from", report.from().toString());
        root.put("to", report.to().toString());
        root.put("zone", report.zone().getId());
        root.put("read_at", report.readAt().toString());
        ObjectNode hot = root.putObject("hot_record");
        hot.put("threshold", HotRecordAdvice.THRESHOLD);
        hot.put("window_days", HotRecordAdvice.WINDOW.toDays());
        ArrayNode days = root.putArray("days");
        report.daysList().forEach(d -> day(days.addObject(), d, true));
        day(root.putObject("total"), report.total(), false);
        ArrayNode customers = root.putArray("customers");
        for (ConflictReport.CustomerConflicts c : report.customers()) {
            ObjectNode node = customers.addObject();
            node.put("customer_id", c.customerId());
            node.put("name", c.name());
            node.put("conflicts", c.conflicts());
            node.put("saves", c.saves());
            node.put("conflict_rate", rate(c.conflictRate()));
            ArrayNode who = node.putArray("met_by");
            c.metBy().forEach(who::add);
        }
        ArrayNode alerts = root.putArray("alerts");
        for (ConflictReport.HotAlert a : report.alerts()) {
            ObjectNode node = alerts.addObject();
            node.put("customer_id", a.customerId());
            node.put("name", a.name());
            node.put("conflicts", a.conflicts());
            node.put("line", a.line());
        }
        return root;
    }

    /** {@link #json} as indented text. */
    public static String jsonText(ConflictReport report) {
        try {
            return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(json(report));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("Cannot write the report as JSON", e);
        }
    }

    /** Writes one CSV row per day ({@link #DAY_COLUMNS} as the header), then a row {@code total}. */
    public static void csv(ConflictReport report, Writer out) {
        try {
            // The header as the first record: CSVFormat's setHeader overloads name java.sql types, which the core's
            // compiler does not see (lockstep-core/pom.xml).
            CSVPrinter csv = CSVFormat.DEFAULT.print(out);
            csv.printRecord(DAY_COLUMNS);
            for (ConflictReport.Day d : report.daysList()) {
                csv.printRecord(values(d.day().toString(), d));
            }
            csv.printRecord(values("total", report.total()));
            csv.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The report for a person: a table of the days (only days with something counted, and the total), the customers
     * with most conflicts and who met them, and one alert line per hot customer. Names are written as one line each
     * ({@link UnicodeText#oneLine}): a line break or an escape sequence in a name cannot forge a row or drive the
     * reader's terminal.
     */
    public static String text(ConflictReport report) {
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "Conflicts from %s to %s (%s)%n%n", report.from(), report.to(),
                report.zone().getId()));
        String row = "%-10s %7s %8s %6s %8s %9s %6s %6s %6s %9s%n";
        out.append(String.format(Locale.ROOT, row, "DAY", "SAVES", "0 ROWS", "RATE", "MERGED", "ABANDONED", "WAITS",
                "BROKEN", "LAPSED", "EXHAUSTED"));
        for (ConflictReport.Day d : report.daysList()) {
            if (!d.equals(ConflictReport.Day.empty(d.day()))) {
                out.append(line(row, d.day().toString(), d));
            }
        }
        out.append(line(row, "total", report.total()));
        out.append(System.lineSeparator());
        if (report.customers().isEmpty()) {
            out.append("No customer met a conflict in these days.").append(System.lineSeparator());
        } else {
            out.append("Customers with most conflicts:").append(System.lineSeparator());
            for (ConflictReport.CustomerConflicts c : report.customers()) {
                out.append(String.format(Locale.ROOT, "  %-8d %-32s %5d conflicts, %5d saves (%s) — met by %s%n",
                        c.customerId(), c.name().isEmpty() ? "(deleted)" : UnicodeText.oneLine(c.name()),
                        c.conflicts(), c.saves(), percent(c.conflictRate()),
                        UnicodeText.oneLine(String.join(", ", c.metBy()))));
            }
        }
        // Names come from psql, scripts and operators' settings: each stays on its line and drives no terminal.
        for (ConflictReport.HotAlert a : report.alerts()) {
            out.append(UnicodeText.oneLine(a.line())).append(System.lineSeparator());
        }
        return out.toString();
    }

    /** A rate as a percentage with one decimal: "12.5 %". */
    public static String percent(double rate) {
        return String.format(Locale.ROOT, "%.1f %%", rate * 100);
    }

    private static String line(String row, String label, ConflictReport.Day d) {
        return String.format(Locale.ROOT, row, label, d.saves(), d.zeroRowSaves(), percent(d.conflictRate()),
                d.mergesSaved(), d.mergesAbandoned(), d.leaseWaits(), d.leasesBroken(), d.leasesLapsed(),
                d.labRetriesExhausted());
    }

    private static void day(ObjectNode node, ConflictReport.Day d, boolean withDay) {
        if (withDay) {
            node.put("day", d.day().toString());
        }
        node.put("saves", d.saves());
        node.put("zero_row_saves", d.zeroRowSaves());
        node.put("conflict_rate", rate(d.conflictRate()));
        node.put("merges_saved", d.mergesSaved());
        node.put("merges_abandoned", d.mergesAbandoned());
        node.put("lease_waits", d.leaseWaits());
        node.put("leases_broken", d.leasesBroken());
        node.put("leases_lapsed", d.leasesLapsed());
        node.put("lab_retries_exhausted", d.labRetriesExhausted());
    }

    private static List<Object> values(String label, ConflictReport.Day d) {
        return List.of(label, d.saves(), d.zeroRowSaves(), rate(d.conflictRate()), d.mergesSaved(),
                d.mergesAbandoned(), d.leaseWaits(), d.leasesBroken(), d.leasesLapsed(), d.labRetriesExhausted());
    }

    private static BigDecimal rate(double r) {
        return BigDecimal.valueOf(r).setScale(4, RoundingMode.HALF_UP);
    }
}
