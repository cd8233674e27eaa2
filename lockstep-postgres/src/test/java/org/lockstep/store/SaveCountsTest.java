package org.lockstep.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.lockstep.server.Database;
import org.lockstep.report.ConflictReport;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.FreshDatabase;

/**
 * Saves per day counted ahead (V18, {@link SaveCounts}) equal a direct count of {@code customer_history}: on 40 days
 * of saves every 7 min 13 s up to the database's now — across the settled/unsettled boundary a day ago, in zones
 * whose days begin on the half hour — after a purge of history rows, and when two reports fill at once.
 */
@DatabaseTest
class SaveCountsTest {

    @FreshDatabase
    static Database db;

    @BeforeAll
    static void seed() {
        db.jdbi().useHandle(h -> {
            h.execute("INSERT INTO customer_history (customer_id, version, op, changed_by, changed_at, new_row)"
                    + " SELECT 1 + g % 50, 2 + g, 'UPDATE', 'op', now() - make_interval(secs => g * 433), '{}'"
                    + " FROM generate_series(0, 40 * 86400 / 433) g");
            // Exactly on a quarter-hour's start and a microsecond before it, on both sides of the settle boundary.
            h.execute("INSERT INTO customer_history (customer_id, version, op, changed_by, changed_at, new_row)"
                    + " SELECT 99, g, 'UPDATE', 'op', t, '{}' FROM (SELECT row_number() OVER () AS g, t FROM unnest("
                    + "ARRAY[date_bin('15 minutes', now() - interval '1 day', timestamptz '2000-01-01 00:00+00'),"
                    + " date_bin('15 minutes', now() - interval '1 day', timestamptz '2000-01-01 00:00+00')"
                    + " - interval '1 microsecond', date_trunc('day', now() - interval '3 days'),"
                    + " date_trunc('day', now() - interval '3 days') - interval '1 microsecond']) t) s");
            // Not saves: a creation and a deletion, dated ten days ago.
            h.execute("INSERT INTO customer_history (customer_id, version, op, changed_by, changed_at, new_row,"
                    + " old_row) VALUES (7, 1, 'INSERT', 'op', now() - interval '10 days', '{}', NULL),"
                    + " (7, 2, 'DELETE', 'op', now() - interval '10 days', NULL, '{}')");
        });
    }

    @Test
    void theReportsSavesPerDayEqualADirectCountInEveryZoneAndTheSecondReportCountsNothingAgain() {
        db.jdbi().useHandle(h -> h.execute("DELETE FROM customer_save_count"));
        for (String zone : new String[]{"UTC", "Asia/Kolkata", "America/St_Johns", "Pacific/Chatham"}) {
            ConflictReport report = new JdbiConflictReports(db.jdbi()).read(35, ZoneId.of(zone));
            assertThat(saves(report)).as(zone).isEqualTo(direct(report, ZoneId.of(zone)));
        }
        Instant settled = SaveCounts.floor(dbNow().minus(SaveCounts.SETTLE));
        OffsetDateTime last = db.jdbi().withHandle(h -> h.createQuery("SELECT max(period) FROM customer_save_count")
                .mapTo(OffsetDateTime.class).one());
        assertThat(last.toInstant()).isBefore(settled).isAfter(settled.minus(SaveCounts.PERIOD.multipliedBy(3)));
        assertThat(storedEqualsDirect()).isTrue();
        long stored = db.jdbi().withHandle(h -> h.createQuery("SELECT sum(saves) FROM customer_save_count")
                .mapTo(Long.class).one());
        assertThat(stored).isPositive();
        // Nothing left to count, but a quarter-hour that settled since the report.
        assertThat(SaveCounts.fill(db.jdbi(), 35)).isBetween(0, 1);
    }

    @Test
    void aPurgeOfHistoryDropsTheCountsOfItsQuarterHoursAndTheNextReportCountsWhatIsLeft() {
        ConflictReport before = new JdbiConflictReports(db.jdbi()).read(30, ZoneOffset.UTC);
        LocalDate purged = before.to().minusDays(12);
        int dropped = db.jdbi().withHandle(h -> h.createUpdate("DELETE FROM customer_history WHERE op = 'UPDATE'"
                + " AND changed_at >= :day AND changed_at < :day + interval '5 hours'")
                .bind("day", purged.atStartOfDay().atOffset(ZoneOffset.UTC)).execute());
        assertThat(dropped).isPositive();
        long left = db.jdbi().withHandle(h -> h.createQuery("SELECT count(*) FROM customer_save_count WHERE period"
                + " >= :day AND period < :day + interval '1 day'")
                .bind("day", purged.atStartOfDay().atOffset(ZoneOffset.UTC)).mapTo(Long.class).one());
        assertThat(left).isEqualTo(96 - 20);

        ConflictReport after = new JdbiConflictReports(db.jdbi()).read(30, ZoneOffset.UTC);

        assertThat(saves(after)).isEqualTo(direct(after, ZoneOffset.UTC));
        assertThat(saves(after).get(purged)).isEqualTo(saves(before).get(purged) - dropped);
        assertThat(storedEqualsDirect()).isTrue();
    }

    @Test
    void twoReportsFillingAtOnceCountEachQuarterHourOnceAndRight() throws Exception {
        db.jdbi().useHandle(h -> h.execute("DELETE FROM customer_save_count"));
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        int counted;
        try {
            CompletableFuture<Integer> a = CompletableFuture.supplyAsync(() -> awaitThenFill(start), pool);
            CompletableFuture<Integer> b = CompletableFuture.supplyAsync(() -> awaitThenFill(start), pool);
            start.countDown();
            counted = a.get() + b.get();
        } finally {
            pool.shutdown();
        }

        // Each quarter-hour of the 20 days (and one) up to a day ago was stored once, with its right count.
        Map<String, Object> stored = db.jdbi().withHandle(h -> h.createQuery("SELECT count(*) AS n,"
                + " extract(epoch FROM max(period) - min(period))::bigint / 900 + 1 AS span,"
                + " min(period) >= now() - interval '21 days 15 minutes' AND min(period) < now() - interval '20 days'"
                + " AS first_ok FROM customer_save_count").mapToMap().one());
        assertThat(((Number) stored.get("n")).longValue()).isEqualTo(counted)
                .isEqualTo(((Number) stored.get("span")).longValue()).isBetween(20 * 96 - 1L, 20 * 96L);
        assertThat(stored.get("first_ok")).isEqualTo(true);
        assertThat(storedEqualsDirect()).isTrue();
    }

    private static int awaitThenFill(CountDownLatch start) {
        try {
            start.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        return SaveCounts.fill(db.jdbi(), 20);
    }

    /** Whether every stored quarter-hour holds exactly the UPDATE rows of the history in it. */
    private static boolean storedEqualsDirect() {
        return db.jdbi().withHandle(h -> h.createQuery("SELECT NOT EXISTS (SELECT 1 FROM customer_save_count c"
                + " WHERE c.saves <> (SELECT count(*) FROM customer_history WHERE op = 'UPDATE'"
                + " AND changed_at >= c.period AND changed_at < c.period + interval '15 minutes'))")
                .mapTo(Boolean.class).one());
    }

    private static Map<LocalDate, Long> saves(ConflictReport report) {
        Map<LocalDate, Long> result = new LinkedHashMap<>();
        report.daysList().forEach(d -> result.put(d.day(), d.saves()));
        return result;
    }

    private static Map<LocalDate, Long> direct(ConflictReport report, ZoneId zone) {
        Map<LocalDate, Long> result = new LinkedHashMap<>();
        for (LocalDate d = report.from(); !d.isAfter(report.to()); d = d.plusDays(1)) {
            LocalDate day = d;
            result.put(day, db.jdbi().withHandle(h -> h.createQuery("SELECT count(*) FROM customer_history"
                    + " WHERE op = 'UPDATE' AND changed_at >= :a AND changed_at < :b")
                    .bind("a", day.atStartOfDay(zone).toOffsetDateTime())
                    .bind("b", day.plusDays(1).atStartOfDay(zone).toOffsetDateTime()).mapTo(Long.class).one()));
        }
        return result;
    }

    private static Instant dbNow() {
        return db.jdbi().withHandle(h -> h.createQuery("SELECT now()").mapTo(OffsetDateTime.class).one())
                .toInstant();
    }
}
