package org.lockstep.store;

import java.util.List;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.mapper.RowMapper;
import org.jdbi.v3.core.statement.Query;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerCount;
import org.lockstep.domain.CustomerPageRequest;
import org.lockstep.domain.CustomerSort;

/**
 * The customer list's queries: keyset pages ("the next N rows after (key, id)") in any sortable order, and counts
 * with a time budget. Keyset paging reads only the rows it returns, however deep the operator has scrolled, where
 * {@code OFFSET} would read and discard every row before them. Each text sort key has a matching expression index in
 * {@code V1__customer.sql}, and the search uses the trigram index over {@code customer_search_text(...)}: the row's
 * text and the typed term are folded alike in SQL ({@code lockstep_fold}: accents, case and Unicode form do not
 * matter, V13__search_fold.sql).
 *
 * <p>Searches are planned for their actual pattern and guarded by time limits, because on a large table the
 * planner's estimate for a substring search is often off by an order of magnitude; the measurements behind each
 * guard are in {@code docs/benchmarks.md}.
 */
record CustomerListQuery(String sql, CustomerPageRequest request) {

    private static final String SEARCH_EXPR = "customer_search_text(company, contact_name, email, city, country)";

    /** How long a search page may run on the planner's plan before it is computed matches-first, in ms. */
    static final long PLANNED_PAGE_MS = 60;

    /**
     * How long the matches-first page may run before the planner's plan is run to its end after all, in ms: on a
     * loaded server, a term with 100,000 matches missed the first try and took over 10 s to collect and sort.
     */
    static final long MATCHES_FIRST_MS = 2_000;

    /**
     * Matches counted at most for a search; beyond that the count is the planner's estimate ("about 12,300"), never
     * below this many: counting every match of a broad search costs a scan of them all, and nobody reads 12,347.
     */
    static final long COUNT_CAP = 1_000;

    private static final String LIKE = SEARCH_EXPR + " LIKE lockstep_search_pattern(:term) ESCAPE '!'";
    /**
     * A search of one or two letters or digits: a word that starts with it (V16__lean_customer_triggers.sql). Both
     * patterns are served by the trigram index, which a substring that short cannot use.
     */
    private static final String SHORT = "(" + SEARCH_EXPR + " LIKE lockstep_word_start_pattern(:term) ESCAPE '!' OR "
            + SEARCH_EXPR + " ~ lockstep_word_start_regex(:term))";
    private static final java.util.regex.Pattern PLAN_ROWS = java.util.regex.Pattern.compile("rows=(\\d+)");

    static CustomerListQuery of(CustomerPageRequest r) {
        return new CustomerListQuery("SELECT * FROM customer WHERE " + conditions(r) + orderAndLimit(r), r);
    }

    /**
     * The same page computed matches-first: the matching rows are collected through the trigram index, then sorted.
     * The {@code MATERIALIZED} fence keeps the planner from walking the sort order's index instead, the plan it
     * picks when it expects many matches, which reads most of the table when the matches are few or sit at the far
     * end of the order (e.g. ".co.jp" sorted by company: the Japanese names sort last).
     */
    static CustomerListQuery matchesFirst(CustomerPageRequest r) {
        return new CustomerListQuery("WITH matches AS MATERIALIZED (SELECT * FROM customer WHERE " + conditions(r)
                + ") SELECT * FROM matches" + orderAndLimit(r), r);
    }

    /**
     * Whether a search is one or two letters or digits, which finds the start of words; any other character (a dot,
     * a percent sign) keeps the substring search.
     */
    static boolean isShort(String search) {
        int n = search.codePointCount(0, search.length());
        return n >= 1 && n <= 2 && search.codePoints().allMatch(Character::isLetterOrDigit);
    }

    private static String matching(String search) {
        return isShort(search) ? SHORT : LIKE;
    }

    private static String conditions(CustomerPageRequest r) {
        StringBuilder sql = new StringBuilder("true");
        if (!r.search().isEmpty()) {
            sql.append(" AND ").append(matching(r.search()));
        }
        if (r.after() != null) {
            String cmp = r.descending() ? "<" : ">";
            if (r.sort() == CustomerSort.ID) {
                sql.append(" AND id ").append(cmp).append(" :afterId");
            } else {
                // The key of the row after which the page starts is lowered by the database, like the rows' keys:
                // lowering it in Java could disagree (Java and PostgreSQL lower "İ" and "Σ" differently).
                String afterKey = textSort(r.sort()) ? "lower(:afterKey)" : ":afterKey";
                sql.append(" AND (").append(keyExpression(r.sort())).append(", id) ").append(cmp)
                        .append(" (").append(afterKey).append(", :afterId)");
            }
        }
        return sql.toString();
    }

    private static String orderAndLimit(CustomerPageRequest r) {
        String dir = r.descending() ? "DESC" : "ASC";
        StringBuilder sql = new StringBuilder(" ORDER BY ");
        if (r.sort() != CustomerSort.ID) {
            sql.append(keyExpression(r.sort())).append(' ').append(dir).append(", ");
        }
        return sql.append("id ").append(dir).append(" LIMIT :limit").toString();
    }

    /**
     * Reads one page. A search of three characters or more first runs as the planner likes, for at most
     * {@link #PLANNED_PAGE_MS}; past that the plan is taken to be a walk along the sort order past rows that do not
     * match, and the page is computed {@link #matchesFirst matches-first} instead. The planner's choice wins when
     * matches are many (the walk stops after a page); the fallback caps its misjudgements when they are few.
     */
    static List<Customer> page(Handle h, CustomerPageRequest r, RowMapper<Customer> mapper) {
        CustomerListQuery planned = of(r);
        if (r.search().isEmpty()) {
            return planned.bind(h.createQuery(planned.sql())).map(mapper).list();
        }
        if (isShort(r.search())) {
            // The start of words. A rare pair is found at once through the trigram index; a pair that starts
            // words in tens of thousands of rows ("cl") is found sooner by walking the order than by fetching all
            // of them, and the planner cannot tell the two apart well: past its first try, the walk (a GIN index
            // only serves bitmap scans, so without them the order's index is walked). Never matches-first: a
            // letter starts words in most rows.
            try {
                return withCustomPlan(h, PLANNED_PAGE_MS,
                        tx -> planned.bind(tx.createQuery(planned.sql())).map(mapper).list());
            } catch (RuntimeException e) {
                if (!isTimeout(e)) {
                    throw e;
                }
            }
            return h.inTransaction(tx -> {
                tx.execute("SET LOCAL plan_cache_mode = force_custom_plan; SET LOCAL enable_bitmapscan = off");
                return planned.bind(tx.createQuery(planned.sql())).map(mapper).list();
            });
        }
        try {
            return withCustomPlan(h, PLANNED_PAGE_MS,
                    tx -> planned.bind(tx.createQuery(planned.sql())).map(mapper).list());
        } catch (RuntimeException e) {
            if (!isTimeout(e)) {
                throw e;
            }
        }
        CustomerListQuery fenced = matchesFirst(r);
        try {
            return withCustomPlan(h, MATCHES_FIRST_MS,
                    tx -> fenced.bind(tx.createQuery(fenced.sql())).map(mapper).list());
        } catch (RuntimeException e) {
            if (!isTimeout(e)) {
                throw e;
            }
        }
        // Matches too many to collect and sort in time: the walk along the order was the right plan after all, only
        // slower than its first try allowed (a loaded server). It finishes once a page of matches is found.
        return withCustomPlan(h, 0, tx -> planned.bind(tx.createQuery(planned.sql())).map(mapper).list());
    }

    Query bind(Query q) {
        if (!request.search().isEmpty()) {
            q.bind("term", request.search());
        }
        Customer after = request.after();
        if (after != null) {
            q.bind("afterId", after.id());
            switch (request.sort()) {
                case ID -> {}
                case VERSION -> q.bind("afterKey", after.version());
                case UPDATED_AT -> q.bind("afterKey", java.time.OffsetDateTime.ofInstant(after.updatedAt(),
                        java.time.ZoneOffset.UTC));
                default -> q.bind("afterKey", textKey(after, request.sort()));
            }
        }
        return q.bind("limit", request.limit());
    }

    /** The SQL expression a sort orders by; text keys are case-insensitive with absent values first. */
    static String keyExpression(CustomerSort sort) {
        return switch (sort) {
            case ID -> "id";
            case VERSION -> "version";
            case UPDATED_AT -> "updated_at";
            default -> "lower(coalesce(" + sort.column() + ", ''))";
        };
    }

    private static boolean textSort(CustomerSort sort) {
        return sort != CustomerSort.ID && sort != CustomerSort.VERSION && sort != CustomerSort.UPDATED_AT;
    }

    private static String textKey(Customer c, CustomerSort sort) {
        String v = switch (sort) {
            case COMPANY -> c.data().company();
            case CONTACT_NAME -> c.data().contactName();
            case EMAIL -> c.data().email();
            case CITY -> c.data().city();
            case COUNTRY -> c.data().country();
            default -> throw new IllegalArgumentException("not a text sort: " + sort);
        };
        return v == null ? "" : v; // lowered by the database (see conditions)
    }

    /**
     * Counts matching rows within about {@code budgetMs}. All customers are counted exactly when the budget allows.
     * A search is counted up to {@link #COUNT_CAP} matches: below that the count is exact; above it, or when the
     * budget runs out first, the answer is the planner's estimate for the search ("about 12,300", never below what
     * was counted), which costs a plan, not a scan (PostgreSQL docs, 14.1 "Using EXPLAIN").
     */
    static CustomerCount count(Handle h, String search, long budgetMs) {
        String s = search == null ? "" : search.strip();
        long started = System.nanoTime();
        long timeout = Math.max(1, budgetMs);
        if (s.isEmpty()) {
            try {
                return withCustomPlan(h, timeout, tx -> new CustomerCount(
                        tx.createQuery("SELECT count(*) FROM customer").mapTo(Long.class).one(), true));
            } catch (RuntimeException e) {
                if (!isTimeout(e)) {
                    throw e;
                }
            }
        }
        String where = s.isEmpty() ? "" : " WHERE " + matching(s);
        // What the exact count left of the budget; at least a little, so that a capped count still gets an answer.
        long left = Math.max(Math.min(timeout, 50), timeout - (System.nanoTime() - started) / 1_000_000);
        long counted;
        try {
            counted = withCustomPlan(h, left, tx -> bindTerm(tx.createQuery("SELECT count(*) FROM (SELECT 1 FROM "
                    + "customer" + where + " LIMIT :cap) capped").bind("cap", COUNT_CAP + 1), s)
                    .mapTo(Long.class).one());
            if (counted <= COUNT_CAP) {
                return new CustomerCount(counted, true);
            }
        } catch (RuntimeException e) {
            if (!isTimeout(e)) {
                throw e;
            }
            counted = 0;
        }
        long floor = counted;
        String plan = withCustomPlan(h, 0, tx -> bindTerm(tx.createQuery("EXPLAIN SELECT 1 FROM customer" + where),
                s).mapTo(String.class).first());
        java.util.regex.Matcher rows = PLAN_ROWS.matcher(plan);
        long estimate = rows.find() ? Long.parseLong(rows.group(1)) : 0;
        return CustomerCount.about(Math.max(estimate, floor));
    }

    private static Query bindTerm(Query q, String search) {
        return search.isEmpty() ? q : q.bind("term", search);
    }

    /**
     * Runs a search query planned for its actual pattern, optionally under a time limit ({@code timeoutMs} &gt; 0),
     * in a transaction of its own so that both settings end with it ({@code SET LOCAL}).
     *
     * <p>Why a custom plan: pgjdbc turns a statement run five times into a server-side prepared statement, and
     * PostgreSQL may then reuse one generic plan for every pattern. A generic plan cannot tell {@code '%m%'} (most
     * rows; a scan that stops after a page is best) from {@code '%schmidt%'} (few rows; the trigram index is
     * best), and on a million rows the wrong one costs seconds (PostgreSQL docs, PREPARE, "plan_cache_mode").
     */
    private static <T> T withCustomPlan(Handle h, long timeoutMs,
            org.jdbi.v3.core.HandleCallback<T, RuntimeException> body) {
        return h.inTransaction(tx -> {
            tx.execute("SET LOCAL plan_cache_mode = force_custom_plan"
                    + (timeoutMs > 0 ? "; SET LOCAL statement_timeout = " + timeoutMs : ""));
            return body.withHandle(tx);
        });
    }

    private static boolean isTimeout(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof java.sql.SQLException sql && "57014".equals(sql.getSQLState())) {
                return true;
            }
        }
        return false;
    }
}
