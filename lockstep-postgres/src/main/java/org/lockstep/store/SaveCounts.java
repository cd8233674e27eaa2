package org.lockstep.store;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Saves per day for the conflict report, from counts per settled quarter-hour kept in {@code customer_save_count}
 * (V18__save_counts.sql) and a live count of the rest of {@code customer_history}. A save never pays for it: the
 * report counts each settled quarter-hour it lacks once ({@link #fill}), and reads the sums in its own snapshot
 * ({@link #perDay}). A day whose quarter-hours are not all counted — today, yesterday, one a purge invalidated, one
 * a concurrent purge dropped between fill and read — is counted live from the history, so a day's count always equals
 * a direct count. Figures in docs/benchmarks.md, "The conflict report"; the decision in ADR 0015.
 */
final class SaveCounts {

    private static final Logger LOG = LoggerFactory.getLogger(SaveCounts.class);

    /** The length of a counted period; every zone's day in use today begins on one. */
    static final Duration PERIOD = Duration.ofMinutes(15);

    /**
     * How long after its end a quarter-hour is counted: by then every transaction of Lockstep that stamped a save
     * in it has long committed or ended (statement_timeout 10 s, idle_in_transaction_session_timeout 60 s), so no
     * save can appear in it later by Lockstep's paths (the rest, in V18__save_counts.sql).
     */
    static final Duration SETTLE = Duration.ofDays(1);

    /**
     * The most days one fill statement counts: 70,000 saves at 10,000 a day, a fraction of the statement timeout even
     * on a loaded machine, and what was counted is kept if a later chunk fails.
     */
    static final int CHUNK_DAYS = 7;

    /** Saves per day of the report's zone in {@code [:from, :to)}, straight from the history. */
    static final String LIVE = """
            SELECT (changed_at AT TIME ZONE :zone)::date AS day, count(*) AS n FROM customer_history
            WHERE changed_at >= :from AND changed_at < :to AND op = 'UPDATE' GROUP BY 1
            """;

    /** Counted saves per day of the report's zone, with how many quarter-hours of the day were counted. */
    static final String COUNTED = """
            SELECT (period AT TIME ZONE :zone)::date AS day, sum(saves) AS n, count(*) AS periods
            FROM customer_save_count WHERE period >= :from AND period < :to GROUP BY 1
            """;

    /** The runs of settled quarter-hours in {@code [:from, :to)} with no count yet (gaps and islands). */
    static final String MISSING = """
            SELECT min(p) AS run_from, max(p) + interval '15 minutes' AS run_to FROM (
                SELECT p, p - row_number() OVER (ORDER BY p) * interval '15 minutes' AS run
                FROM generate_series(CAST(:from AS timestamptz), CAST(:to AS timestamptz) - interval '15 minutes',
                                     interval '15 minutes') p
                WHERE NOT EXISTS (SELECT 1 FROM customer_save_count c WHERE c.period = p)) m
            GROUP BY run ORDER BY 1
            """;

    /**
     * Counts every quarter-hour of {@code [:from, :to)} that has no count yet, in the owner's function
     * (R__40_audit.sql): operators cannot write the counts themselves, so none can forge the report's saves.
     */
    static final String COUNT = "SELECT lockstep_count_saves(:from, :to)";

    private SaveCounts() {
    }

    /**
     * Counts the settled quarter-hours of the last {@code days} days (and one more, for zones behind UTC) that have
     * no count yet, {@value #CHUNK_DAYS} days per transaction. Best effort: a failure is logged and the report counts those days live.
     *
     * @param days the report's days, 1 to {@code ConflictReport.MAX_DAYS}
     * @return how many quarter-hours were counted now (0 when all were counted already)
     */
    static int fill(Jdbi jdbi, int days) {
        try {
            return jdbi.withHandle(h -> {
                Instant now = h.createQuery("SELECT now()").mapTo(OffsetDateTime.class).one().toInstant();
                Instant from = ceil(now.minus(Duration.ofDays(days + 1L)));
                Instant to = floor(now.minus(SETTLE));
                if (!from.isBefore(to)) {
                    return 0;
                }
                if (stored(h, from, to) == Duration.between(from, to).dividedBy(PERIOD)) {
                    return 0; // all counted already: the usual case, an index-only count instead of the gaps query
                }
                List<Instant[]> runs = h.createQuery(MISSING).bind("from", utc(from)).bind("to", utc(to))
                        .map((rs, ctx) -> new Instant[]{rs.getObject("run_from", OffsetDateTime.class).toInstant(),
                                rs.getObject("run_to", OffsetDateTime.class).toInstant()})
                        .list();
                int counted = 0;
                for (Instant[] run : runs) {
                    for (Instant a = run[0]; a.isBefore(run[1]); a = a.plus(Duration.ofDays(CHUNK_DAYS))) {
                        Instant b = min(a.plus(Duration.ofDays(CHUNK_DAYS)), run[1]);
                        counted += count(h, a, b);
                    }
                }
                return counted;
            });
        } catch (RuntimeException e) {
            LOG.warn("Saves per quarter-hour were not counted ahead ({}); the report counts them from the history",
                    e.toString());
            return 0;
        }
    }

    private static int count(Handle h, Instant from, Instant to) {
        return h.createQuery(COUNT).bind("from", utc(from)).bind("to", utc(to)).mapTo(Integer.class).one();
    }

    /** How many quarter-hours of {@code [from, to)} are counted already. */
    private static long stored(Handle h, Instant from, Instant to) {
        return h.createQuery("SELECT count(*) FROM customer_save_count WHERE period >= :from AND period < :to")
                .bind("from", utc(from)).bind("to", utc(to)).mapTo(Long.class).one();
    }

    /**
     * Adds the saves of each day in {@code counts} (consecutive days of {@code zone}) to its {@code column}: the
     * stored counts of a day whose quarter-hours are all counted, else a live count of the day from the history.
     * Runs in the caller's transaction, so it reads the report's snapshot.
     */
    static void perDay(Handle h, ZoneId zone, Map<LocalDate, long[]> counts, int column) {
        List<LocalDate> days = List.copyOf(counts.keySet());
        if (days.isEmpty()) {
            return;
        }
        Map<LocalDate, long[]> counted = new HashMap<>();
        h.createQuery(COUNTED).bind("zone", SqlZone.of(zone)).bind("from", start(days.get(0), zone))
                .bind("to", start(days.get(days.size() - 1).plusDays(1), zone))
                .map((rs, ctx) -> counted.put(rs.getObject("day", LocalDate.class),
                        new long[]{rs.getLong("n"), rs.getLong("periods")}))
                .list();
        List<LocalDate> live = new ArrayList<>();
        for (LocalDate day : days) {
            long[] c = counted.get(day);
            if (c != null && c[1] == periods(day, zone)) {
                counts.get(day)[column] += c[0];
            } else {
                live.add(day);
            }
        }
        for (int i = 0; i < live.size();) {
            int j = i + 1;
            while (j < live.size() && live.get(j).equals(live.get(j - 1).plusDays(1))) {
                j++;
            }
            h.createQuery(LIVE).bind("zone", SqlZone.of(zone)).bind("from", start(live.get(i), zone))
                    .bind("to", start(live.get(j - 1).plusDays(1), zone)).map((rs, ctx) -> {
                        long[] day = counts.get(rs.getObject("day", LocalDate.class));
                        if (day != null) {
                            day[column] += rs.getLong("n");
                        }
                        return null;
                    }).list();
            i = j;
        }
    }

    /** How many quarter-hours make up the day in {@code zone}; -1 when it does not begin and end on one. */
    static long periods(LocalDate day, ZoneId zone) {
        Instant a = day.atStartOfDay(zone).toInstant();
        Instant b = day.plusDays(1).atStartOfDay(zone).toInstant();
        return a.equals(floor(a)) && b.equals(floor(b)) ? Duration.between(a, b).dividedBy(PERIOD) : -1;
    }

    private static OffsetDateTime start(LocalDate day, ZoneId zone) {
        return utc(day.atStartOfDay(zone).toInstant());
    }

    static Instant floor(Instant t) {
        long s = PERIOD.toSeconds();
        return Instant.ofEpochSecond(Math.floorDiv(t.getEpochSecond(), s) * s);
    }

    static Instant ceil(Instant t) {
        Instant f = floor(t);
        return f.equals(t) ? t : f.plus(PERIOD);
    }

    private static Instant min(Instant a, Instant b) {
        return a.isBefore(b) ? a : b;
    }

    private static OffsetDateTime utc(Instant t) {
        return t.atOffset(ZoneOffset.UTC);
    }
}
