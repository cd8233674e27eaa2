package org.lockstep.report;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.List;
import java.util.Objects;

/**
 * Conflicts and merges per day over the last {@code days} days, for supervisors deciding which customers to edit
 * under Lock for editing (ADR 0015). Counted from what the database records: {@code customer_conflict},
 * {@code customer_history}, {@code lease_event} and {@code conflict_event} (V17__conflict_report.sql).
 *
 * @param from      the first day (in {@code zone})
 * @param to        the last day, today when the report was read
 * @param zone      the time zone whose days the counts are grouped by
 * @param readAt    when the report was read, by the database clock
 * @param daysList  one entry per day from {@code from} to {@code to}, in order, days without events included
 * @param customers the customers with most conflicts in the range, most first (at most {@link #TOP_CUSTOMERS})
 * @param alerts    customers hot by the editor's hot-record rule now, most conflicts first
 */
public record ConflictReport(LocalDate from, LocalDate to, ZoneId zone, Instant readAt, List<Day> daysList,
        List<CustomerConflicts> customers, List<HotAlert> alerts) {

    /** How many customers the report lists. */
    public static final int TOP_CUSTOMERS = 10;

    /** The most days one report covers: a year and a day (the conflicts are kept 400 days). */
    public static final int MAX_DAYS = 366;

    /** Copies the lists. */
    public ConflictReport {
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
        Objects.requireNonNull(zone, "zone");
        daysList = List.copyOf(daysList);
        customers = List.copyOf(customers);
        alerts = List.copyOf(alerts);
    }

    /** The sum of every day's counts. */
    public Day total() {
        Day t = Day.empty(to);
        for (Day d : daysList) {
            t = new Day(to, t.saves + d.saves, t.zeroRowSaves + d.zeroRowSaves, t.mergesSaved + d.mergesSaved,
                    t.mergesAbandoned + d.mergesAbandoned, t.leaseWaits + d.leaseWaits,
                    t.leasesBroken + d.leasesBroken, t.leasesLapsed + d.leasesLapsed,
                    t.labRetriesExhausted + d.labRetriesExhausted);
        }
        return t;
    }

    /**
     * One day's counts.
     *
     * @param day                 the day, in the report's zone
     * @param saves               versions saved (history UPDATE rows, by any writer)
     * @param zeroRowSaves        versioned saves that hit zero rows: a newer version was there (a conflict)
     * @param mergesSaved         merged results saved after a conflict
     * @param mergesAbandoned     merges the operator discarded ("Discard my changes")
     * @param leaseWaits          locks for editing refused because another session held the lease
     * @param leasesBroken        leases broken by another operator
     * @param leasesLapsed        leases whose expiry passed with no release or break (the holder stopped renewing)
     * @param labRetriesExhausted contention lab purchases given up after the last allowed retry
     */
    public record Day(LocalDate day, long saves, long zeroRowSaves, long mergesSaved, long mergesAbandoned,
            long leaseWaits, long leasesBroken, long leasesLapsed, long labRetriesExhausted) {

        /** A day with nothing counted. */
        public static Day empty(LocalDate day) {
            return new Day(day, 0, 0, 0, 0, 0, 0, 0, 0);
        }

        /**
         * The conflict rate: saves that hit zero rows per save attempted ({@code zeroRowSaves / (saves +
         * zeroRowSaves)}), between 0 and 1; 0 on a day without saves.
         */
        public double conflictRate() {
            long attempts = saves + zeroRowSaves;
            return attempts == 0 ? 0 : (double) zeroRowSaves / attempts;
        }
    }

    /**
     * A customer with conflicts in the report's range.
     *
     * @param customerId the customer's id
     * @param name       its company name now; empty when it was deleted
     * @param conflicts  saves and deletes on it that hit zero rows in the range
     * @param saves      versions of it saved in the range
     * @param metBy      the operators whose saves met the conflicts, by name, most conflicts first
     */
    public record CustomerConflicts(long customerId, String name, long conflicts, long saves, List<String> metBy) {
        /** Copies the list. */
        public CustomerConflicts {
            name = name == null ? "" : name;
            metBy = List.copyOf(metBy);
        }

        /** The conflict rate: conflicts per save attempted, between 0 and 1. */
        public double conflictRate() {
            long attempts = saves + conflicts;
            return attempts == 0 ? 0 : (double) conflicts / attempts;
        }
    }

    /**
     * A customer hot now by the editor's rule ({@link org.lockstep.domain.HotRecordAdvice}: at least
     * {@code THRESHOLD} conflicts within {@code WINDOW}), with the line the report shows.
     *
     * @param customerId the customer's id
     * @param name       its company name; empty when deleted
     * @param conflicts  its conflicts within the hot-record window
     * @param line       e.g. "Hot record: customer 42 (Acme) — 4 conflicts on this customer in the last 7 days —
     *                   consider Lock for editing"
     */
    public record HotAlert(long customerId, String name, int conflicts, String line) {
    }
}
