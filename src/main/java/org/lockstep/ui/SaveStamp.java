package org.lockstep.ui;

import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import org.lockstep.domain.Customer;

/**
 * Says who saved a record and when, in words an operator reads at a glance. The time is the database's timestamp
 * ({@code updated_at}, the database clock) shown in the operator's time zone: "10:03" today, "28 Nov 10:03" this
 * year, "28 Nov 2025 10:03" before.
 */
public final class SaveStamp {

    private static final DateTimeFormatter TODAY = DateTimeFormatter.ofPattern("HH:mm", Locale.ENGLISH);
    private static final DateTimeFormatter THIS_YEAR = DateTimeFormatter.ofPattern("d MMM HH:mm", Locale.ENGLISH);
    private static final DateTimeFormatter EARLIER = DateTimeFormatter.ofPattern("d MMM yyyy HH:mm", Locale.ENGLISH);

    private SaveStamp() {
    }

    /**
     * The time of a save, relative to today.
     *
     * @param at    the database timestamp
     * @param clock gives today and the time zone (the system clock in the application)
     */
    public static String time(Instant at, Clock clock) {
        ZonedDateTime local = at.atZone(clock.getZone());
        LocalDate today = LocalDate.now(clock);
        if (local.toLocalDate().equals(today)) {
            return TODAY.format(local);
        }
        return local.getYear() == today.getYear() ? THIS_YEAR.format(local) : EARLIER.format(local);
    }

    /** The editor's header line, e.g. "version 3 · saved by Bob at 10:03". */
    public static String versionLine(Customer customer, Clock clock) {
        return "version " + customer.version() + " · saved " + by(customer) + "at "
                + time(customer.updatedAt(), clock);
    }

    /** Who saved the record, e.g. "Bob"; "someone" when the database does not say. */
    public static String who(Customer customer) {
        String by = customer.updatedBy();
        return by == null || by.isBlank() ? "someone" : by;
    }

    private static String by(Customer customer) {
        String by = customer.updatedBy();
        return by == null || by.isBlank() ? "" : "by " + by + " ";
    }
}
