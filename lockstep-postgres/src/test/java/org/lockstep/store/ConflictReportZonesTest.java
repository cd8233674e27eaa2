package org.lockstep.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToLongFunction;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.lockstep.server.Database;
import org.lockstep.report.ConflictReport;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.FreshDatabase;

/**
 * The conflict report's days in every form of time zone a JVM can have as its default: regions, and fixed offsets
 * written as Java writes them ({@code +05:30}, {@code GMT+05:30}, {@code UTC-03:00}: what {@code TZ=GMT+5} or
 * {@code -Duser.timezone=GMT+05:30} give), which PostgreSQL would read with the opposite sign. Rows of every counted
 * kind, one every 97 minutes over the last two days, must each be counted once, on the day of {@code zone} their
 * instant falls on.
 */
@DatabaseTest
class ConflictReportZonesTest {

    @FreshDatabase
    static Database db;
    static final List<Instant> AT = new ArrayList<>();

    @BeforeAll
    static void seed() {
        Instant now = db.jdbi().withHandle(h -> h.createQuery("SELECT now()").mapTo(OffsetDateTime.class).one())
                .toInstant();
        for (int k = 0; k < 30; k++) {
            AT.add(now.minusSeconds(2 * 86400 - k * 97 * 60L));
        }
        db.jdbi().useHandle(h -> {
            int v = 2;
            for (Instant t : AT) {
                OffsetDateTime at = t.atOffset(ZoneOffset.UTC);
                h.createUpdate("INSERT INTO customer_history (customer_id, version, op, changed_by, changed_at,"
                        + " new_row) VALUES (1, :v, 'UPDATE', 'Ivy', :at, '{}')").bind("v", v++).bind("at", at)
                        .execute();
                h.createUpdate("INSERT INTO customer_conflict (customer_id, detected_at, detected_by, kind)"
                        + " VALUES (1, :at, 'Ivy', 'save')").bind("at", at).execute();
                h.createUpdate("INSERT INTO conflict_event (kind, customer_id, happened_at, operator)"
                        + " VALUES ('merge_saved', 1, :at, 'Ivy')").bind("at", at).execute();
                h.createUpdate("INSERT INTO lease_event (record_id, token, holder, event, actor, at)"
                        + " VALUES (1, :v, 'Ivy', 'broken', 'Ivy', :at)").bind("v", v).bind("at", at).execute();
            }
        });
    }

    @ParameterizedTest
    @ValueSource(strings = {"UTC", "Z", "Asia/Kolkata", "America/St_Johns", "+05:30", "GMT+05:30", "UTC-03:00",
            "-09:30", "+14:00", "-12:00", "GMT+05:00", "Etc/GMT-5"})
    void everyRowIsCountedOnceOnItsDayInTheZone(String id) {
        ZoneId zone = ZoneId.of(id);
        ConflictReport report = new JdbiConflictReports(db.jdbi()).read(5, zone);

        Map<LocalDate, Long> expected = new TreeMap<>();
        AT.forEach(t -> expected.merge(LocalDate.ofInstant(t, zone), 1L, Long::sum));
        assertThat(perDay(report, ConflictReport.Day::saves)).as("saves in %s", id).isEqualTo(expected);
        assertThat(perDay(report, ConflictReport.Day::zeroRowSaves)).as("zero-row saves in %s", id)
                .isEqualTo(expected);
        assertThat(perDay(report, ConflictReport.Day::mergesSaved)).as("merges in %s", id).isEqualTo(expected);
        assertThat(perDay(report, ConflictReport.Day::leasesBroken)).as("broken leases in %s", id)
                .isEqualTo(expected);
    }

    private static Map<LocalDate, Long> perDay(ConflictReport report, ToLongFunction<ConflictReport.Day> column) {
        Map<LocalDate, Long> result = new TreeMap<>();
        report.daysList().stream().filter(d -> column.applyAsLong(d) > 0)
                .forEach(d -> result.put(d.day(), column.applyAsLong(d)));
        return result;
    }
}
