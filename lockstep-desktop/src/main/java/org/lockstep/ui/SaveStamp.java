package org.lockstep.ui;

import static org.lockstep.text.Texts.tr;

import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import org.lockstep.domain.Customer;
import org.lockstep.text.Language;
import org.lockstep.text.Texts;

/**
 * Says who saved a record and when, in words an operator reads at a glance. The time is the database's timestamp
 * ({@code updated_at}, the database clock) shown in the operator's time zone: "10:03" today, "28 Nov 10:03" this
 * year, "28 Nov 2025 10:03" before — the day and month as the operator's {@link Language} writes them ("28 de nov.").
 */
public final class SaveStamp {

    private static final DateTimeFormatter TODAY = DateTimeFormatter.ofPattern("HH:mm", Locale.ROOT);

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
        // The language is asked at each call: it is chosen at start, possibly after this class was loaded.
        Language language = Texts.language();
        DateTimeFormatter day = local.getYear() == today.getYear() ? language.dayMonth() : language.dayMonthYear();
        return day.format(local) + " " + TODAY.format(local);
    }

    /** The editor's header line, e.g. "version 3 · saved by Bob at 10:03". */
    public static String versionLine(Customer customer, Clock clock) {
        String by = customer.updatedBy();
        String at = time(customer.updatedAt(), clock);
        return by == null || by.isBlank() ? tr("version {0} · saved at {1}", customer.version(), at)
                : tr("version {0} · saved by {1} at {2}", customer.version(), by, at);
    }

    /** Who saved the record, e.g. "Bob"; "someone" when the database does not say. */
    public static String who(Customer customer) {
        String by = customer.updatedBy();
        return by == null || by.isBlank() ? tr("someone") : by;
    }
}
