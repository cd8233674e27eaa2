package org.lockstep.store;

import static org.lockstep.text.Texts.tr;

import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.transaction.TransactionIsolationLevel;
import org.lockstep.domain.HotRecordAdvice;
import org.lockstep.domain.UnicodeText;
import org.lockstep.report.ConflictReport;
import org.lockstep.report.ConflictReports;

/**
 * The conflict report from {@code customer_history}, {@code customer_conflict}, {@code lease_event} and
 * {@code conflict_event}. Every query is bounded by the report's days and served by an index on its timestamp
 * (V17__conflict_report.sql): the work grows with the rows in those days, not with the tables (EXPLAINs and timings
 * on 1,000,000 customers with a year of history in docs/benchmarks.md, "The conflict report"). Saves, by far the most
 * rows, are summed from counts per settled quarter-hour that the report stores the first time it needs them
 * ({@link SaveCounts}, V18__save_counts.sql). All queries read one
 * snapshot (a read-only REPEATABLE READ transaction), so the counts agree with each other and with {@code now()}.
 */
public final class JdbiConflictReports implements ConflictReports {

    /** Days are the report zone's; {@code :from} and {@code :to} are where its first day and the next one begin. */
    private static final String DAY = "(%s AT TIME ZONE :zone)::date";

    static final String ZERO_ROW_SAVES = """
            SELECT %s AS day, count(*) AS n FROM customer_conflict
            WHERE detected_at >= :from AND detected_at < :to AND kind = 'save' GROUP BY 1
            """.formatted(DAY.formatted("detected_at"));

    static final String EVENTS = """
            SELECT %s AS day, kind, sum(count) AS n FROM conflict_event
            WHERE happened_at >= :from AND happened_at < :to GROUP BY 1, 2
            """.formatted(DAY.formatted("happened_at"));

    static final String BROKEN = """
            SELECT %s AS day, count(*) AS n FROM lease_event
            WHERE event = 'broken' AND at >= :from AND at < :to GROUP BY 1
            """.formatted(DAY.formatted("at"));

    // A lapse: a grant whose expiry passed with no release and no break. A grant the same session superseded with a
    // new one (JdbiLeaseRepository.ACQUIRE, "superseded") ends exactly where the next grant begins; that is no lapse.
    static final String LAPSED = """
            SELECT %s AS day, count(*) AS n FROM lease_event g
            WHERE g.event IN ('acquired', 'expired_takeover')
              AND g.expires_at >= :from AND g.expires_at < least(:to, now())
              AND NOT EXISTS (SELECT 1 FROM lease_event e WHERE e.record_id = g.record_id AND e.token = g.token
                              AND e.event IN ('released', 'broken'))
              AND NOT EXISTS (SELECT 1 FROM lease_event n WHERE n.record_id = g.record_id AND n.id > g.id
                              AND n.event IN ('acquired', 'expired_takeover') AND n.at = g.expires_at)
            GROUP BY 1
            """.formatted(DAY.formatted("g.expires_at"));

    static final String TOP_CUSTOMERS = """
            SELECT customer_id, count(*) AS n FROM customer_conflict
            WHERE detected_at >= :from AND detected_at < :to
            GROUP BY customer_id ORDER BY n DESC, customer_id LIMIT :limit
            """;

    static final String MET_BY = """
            SELECT customer_id, detected_by, count(*) AS n FROM customer_conflict
            WHERE customer_id = ANY(:ids) AND detected_at >= :from AND detected_at < :to
            GROUP BY 1, 2 ORDER BY 1, n DESC, detected_by
            """;

    static final String CUSTOMER_SAVES = """
            SELECT customer_id, count(*) AS n FROM customer_history
            WHERE customer_id = ANY(:ids) AND op = 'UPDATE' AND changed_at >= :from AND changed_at < :to
            GROUP BY 1
            """;

    // The editor's rule (HotRecordAdvice), for every customer at once: the window's rows by detected_at, on customers
    // that exist: a deleted customer is never hot (issue 27), though its conflicts still count on their days.
    static final String HOT = """
            SELECT customer_id, count(*) AS n FROM customer_conflict k
            WHERE detected_at > now() - make_interval(secs => :windowS)
              AND EXISTS (SELECT 1 FROM customer c WHERE c.id = k.customer_id)
            GROUP BY customer_id HAVING count(*) >= :threshold ORDER BY n DESC, customer_id LIMIT :limit
            """;

    private static final String NAMES = """
            SELECT id, coalesce(nullif(btrim(company), ''), contact_name) AS name FROM customer WHERE id = ANY(:ids)
            """;

    /** The most hot customers one report names. */
    static final int MAX_ALERTS = 20;

    private final Jdbi jdbi;

    /** @param jdbi the database */
    public JdbiConflictReports(Jdbi jdbi) {
        this.jdbi = jdbi;
    }

    @Override
    public ConflictReport read(int days, ZoneId zone) {
        ConflictReports.checkDays(days);
        SaveCounts.fill(jdbi, days); // its own transactions, before the report's snapshot is taken
        return DatabaseCalls.read(() -> jdbi.inTransaction(TransactionIsolationLevel.REPEATABLE_READ, h -> {
            h.execute("SET TRANSACTION READ ONLY");
            return read(h, days, zone);
        }));
    }

    private static ConflictReport read(Handle h, int days, ZoneId zone) {
        Instant now = h.createQuery("SELECT now()").mapTo(OffsetDateTime.class).one().toInstant();
        LocalDate to = LocalDate.ofInstant(now, zone);
        LocalDate from = to.minusDays(days - 1L);
        OffsetDateTime start = from.atStartOfDay(zone).toOffsetDateTime().withOffsetSameInstant(ZoneOffset.UTC);
        OffsetDateTime end = to.plusDays(1).atStartOfDay(zone).toOffsetDateTime()
                .withOffsetSameInstant(ZoneOffset.UTC);
        Map<LocalDate, long[]> counts = new LinkedHashMap<>();
        for (LocalDate d = from; !d.isAfter(to); d = d.plusDays(1)) {
            counts.put(d, new long[8]);
        }
        SaveCounts.perDay(h, zone, counts, 0);
        perDay(h, ZERO_ROW_SAVES, zone, start, end, counts, 1);
        perDay(h, BROKEN, zone, start, end, counts, 5);
        perDay(h, LAPSED, zone, start, end, counts, 6);
        h.createQuery(EVENTS).bind("zone", SqlZone.of(zone)).bind("from", start).bind("to", end).map((rs, ctx) -> {
            long[] day = counts.get(rs.getObject("day", LocalDate.class));
            int column = switch (rs.getString("kind")) {
                case ConflictEvents.MERGE_SAVED -> 2;
                case ConflictEvents.MERGE_ABANDONED -> 3;
                case ConflictEvents.LEASE_WAIT -> 4;
                default -> 7;
            };
            if (day != null) {
                day[column] += rs.getLong("n");
            }
            return null;
        }).list();
        List<ConflictReport.Day> dayList = new ArrayList<>();
        counts.forEach((d, c) -> dayList.add(new ConflictReport.Day(d, c[0], c[1], c[2], c[3], c[4], c[5], c[6],
                c[7])));

        Map<Long, Long> top = idCounts(h.createQuery(TOP_CUSTOMERS).bind("from", start).bind("to", end)
                .bind("limit", ConflictReport.TOP_CUSTOMERS));
        Map<Long, Long> hot = idCounts(h.createQuery(HOT).bind("windowS", (double) HotRecordAdvice.WINDOW.toSeconds())
                .bind("threshold", HotRecordAdvice.THRESHOLD).bind("limit", MAX_ALERTS));
        List<Long> named = new ArrayList<>(top.keySet());
        hot.keySet().stream().filter(id -> !top.containsKey(id)).forEach(named::add);
        Map<Long, String> names = new HashMap<>();
        h.createQuery(NAMES).bindArray("ids", Long.class, named)
                .map((rs, ctx) -> names.put(rs.getLong("id"), rs.getString("name"))).list();
        Map<Long, List<String>> metBy = metBy(h, List.copyOf(top.keySet()), start, end);
        Map<Long, Long> saves = idCounts(h.createQuery(CUSTOMER_SAVES)
                .bindArray("ids", Long.class, List.copyOf(top.keySet())).bind("from", start).bind("to", end));
        List<ConflictReport.CustomerConflicts> customers = new ArrayList<>();
        top.forEach((id, n) -> customers.add(new ConflictReport.CustomerConflicts(id, names.get(id), n,
                saves.getOrDefault(id, 0L), metBy.getOrDefault(id, List.of()))));
        List<ConflictReport.HotAlert> alerts = new ArrayList<>();
        hot.forEach((id, n) -> alerts.add(alert(id, names.get(id), (int) Math.min(n, Integer.MAX_VALUE))));
        return new ConflictReport(from, to, zone, now, dayList, customers, alerts);
    }

    /** The alert line for a hot customer: the editor's own advice, naming the customer. */
    static ConflictReport.HotAlert alert(long id, String name, int conflicts) {
        HotRecordAdvice advice = HotRecordAdvice.advice(conflicts, HotRecordAdvice.WINDOW).orElseThrow();
        String line = name == null || name.isEmpty()
                ? tr("Hot record: customer {0} (deleted) — {1} — consider Lock for editing", id, advice.detail())
                : tr("Hot record: customer {0} ({1}) — {2} — consider Lock for editing", id, name, advice.detail());
        return new ConflictReport.HotAlert(id, name, conflicts, line);
    }

    /**
     * Who met each customer's conflicts, most conflicts first. A name is one operator in whichever Unicode form
     * it was typed (macOS gives "José" decomposed, NFD): the forms are summed under the NFC form, as the editor
     * keeps every text, instead of one operator being listed twice.
     */
    private static Map<Long, List<String>> metBy(Handle h, List<Long> ids, OffsetDateTime from, OffsetDateTime to) {
        Map<Long, Map<String, Long>> counts = new HashMap<>();
        h.createQuery(MET_BY).bindArray("ids", Long.class, ids).bind("from", from).bind("to", to)
                .map((rs, ctx) -> counts.computeIfAbsent(rs.getLong("customer_id"), k -> new LinkedHashMap<>())
                        .merge(UnicodeText.nfc(rs.getString("detected_by")), rs.getLong("n"), Long::sum))
                .list();
        Map<Long, List<String>> result = new HashMap<>();
        counts.forEach((id, who) -> result.put(id, who.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry::getKey))
                .map(Map.Entry::getKey).toList()));
        return result;
    }

    private static void perDay(Handle h, String sql, ZoneId zone, OffsetDateTime from, OffsetDateTime to,
            Map<LocalDate, long[]> counts, int column) {
        h.createQuery(sql).bind("zone", SqlZone.of(zone)).bind("from", from).bind("to", to).map((rs, ctx) -> {
            long[] day = counts.get(rs.getObject("day", LocalDate.class));
            if (day != null) {
                day[column] += rs.getLong("n");
            }
            return null;
        }).list();
    }

    private static Map<Long, Long> idCounts(org.jdbi.v3.core.statement.Query query) {
        Map<Long, Long> result = new LinkedHashMap<>();
        query.map((rs, ctx) -> result.put(rs.getLong("customer_id"), rs.getLong("n"))).list();
        return result;
    }
}
