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
 * {@code V1__customer.sql} (the Name order's in {@code V22__name_sort.sql}); the Updated order is the table
 * {@code customer_updated} (V24__hot_saves_and_short_searches.sql), so that no index of the customer table covers the
 * column every save changes. A search finds the term anywhere in the stored column {@code search_text}, through its
 * trigram index (V19__stored_search_text.sql) from three characters and through the index of its characters and pairs
 * (V24) below: the row's text and the typed term are folded alike in SQL ({@code lockstep_fold}: accents, case and
 * Unicode form do not matter, V13__search_fold.sql).
 *
 * <p>A search's page is computed by the plan that reads fewer rows given the planner's estimate of its matches
 * ({@link Estimate#cheaper}), and guarded by time limits, because where the matches lie along the order is something
 * no estimate knows; the measurements behind each guard are in {@code docs/benchmarks.md}.
 */
record CustomerListQuery(String sql, CustomerPageRequest request) {

    /** The stored, folded search text of a row (V19__stored_search_text.sql), searched by the trigram index. */
    private static final String SEARCH_EXPR = "search_text";

    /**
     * How long a page may walk the order's index before it is computed matches-first instead, in ms: past that, the
     * matches lie further along the order than the planner's estimate let expect (".co.jp" by company: the Japanese
     * names sort last).
     */
    static final long WALK_MS = 60;

    /**
     * How long the matches-first page may run before the walk is run to its end after all, in ms: on a loaded server,
     * a term with 100,000 matches took over 10 s to collect and sort, where a walk finds a page of them at once.
     */
    static final long MATCHES_FIRST_MS = 2_000;

    /**
     * Matches counted at most for a search; beyond that the count is the planner's estimate ("about 12,300"), never
     * below this many: counting every match of a broad search costs a scan of them all, and nobody reads 12,347.
     */
    static final long COUNT_CAP = 1_000;

    /**
     * From how many estimated matches a short search is counted by scanning the table with its LIKE rather than through
     * the grams' index: at 2 % of a million customers or more, a scan meets its 1,001st match within 50,000 rows.
     */
    static final long SCAN_COUNT_FROM = 20 * COUNT_CAP;

    /** Every search: the folded term anywhere in the row's search text, served by the trigram index from 3 characters. */
    private static final String LIKE = SEARCH_EXPR + " LIKE lockstep_search_pattern(:term) ESCAPE '!'";

    /**
     * What the index of characters and pairs (V24__hot_saves_and_short_searches.sql, {@code customer_search_grams})
     * knows of a short term: a row holds a substring of one or two characters exactly when its grams hold it, so this
     * condition finds the matches of a short search by the index, and the LIKE beside it ({@link #SHORT}) only
     * confirms them (or completes it, where folding made the term longer: "ß" is "ss").
     */
    private static final String GRAMS = "lockstep_search_grams(" + SEARCH_EXPR + ") @> lockstep_term_grams(:term)";

    /** A short search, collected through the grams' index ({@link #isShort}). */
    private static final String SHORT = "(" + GRAMS + " AND " + LIKE + ")";

    /**
     * The Updated order's table (V24): each customer's (updated_at, id), indexed, so that the customer table needs no
     * index on the column every write changes and a save of unindexed fields is a heap-only update. A walk in this
     * order reads it joined to the customer by id; an entry older than the customer's time (left by a write made with
     * the triggers disabled) is skipped. "Not newer" rather than "equal": with two equalities the planner multiplies
     * their selectivities, expects one row and hashes both tables whole (1.9 s for the first page on a million
     * customers, where walking the index takes 1 ms).
     */
    private static final String UPDATED_ORDER = "customer_updated u JOIN customer c ON c.id = u.id"
            + " AND c.updated_at <= u.updated_at";

    /** The two ways of computing a page of a search. */
    enum Plan {
        /**
         * Walk the sort order's index and keep the rows that match, until a page is full: reads about {@code limit ×
         * customers / matches} rows when the matches are spread along the order, however many match.
         */
        WALK,
        /** Collect every match through the trigram index, then sort them: reads each match once. */
        MATCHES_FIRST
    }

    static CustomerListQuery of(CustomerPageRequest r) {
        return of(r, false);
    }

    /**
     * The page as a walk along the order's index: the rows in order, each kept when it matches. In the Updated order
     * the walk goes along {@code customer_updated} ({@link #UPDATED_ORDER}).
     *
     * @param walking whether the query will only walk (no bitmap scan allowed): then a search is only its LIKE, which a
     *                walked row answers from its own text, where the grams' condition would compute each row's grams
     */
    private static CustomerListQuery of(CustomerPageRequest r, boolean walking) {
        if (r.sort() == CustomerSort.UPDATED_AT) {
            return new CustomerListQuery("SELECT " + prefixed("c.", CustomerRowMapper.COLUMNS) + " FROM "
                    + UPDATED_ORDER + " WHERE " + conditions(r, "u.updated_at", "u.id", walking)
                    + orderAndLimit(r, "u.updated_at", "u.id"), r);
        }
        return new CustomerListQuery("SELECT " + CustomerRowMapper.COLUMNS + " FROM customer WHERE "
                + conditions(r, keyExpression(r.sort()), "id", walking) + orderAndLimit(r, keyExpression(r.sort()),
                        "id"),
                r);
    }

    /**
     * The same page computed matches-first: the id and sort key of every match are collected through the trigram
     * index, the page's ids are sorted out of them, and only then are the page's rows read, by id. The
     * {@code MATERIALIZED} fences keep the planner from walking the sort order's index instead, the plan it picks
     * when it expects many matches. Collecting ids and keys rather than whole rows keeps 50,000 matches in memory
     * (whole rows spilled to disk: 181 against 140 ms for ".co.j" by company on a million customers); letting the
     * planner choose a parallel bitmap scan was slower on two cores (340 ms).
     */
    static CustomerListQuery matchesFirst(CustomerPageRequest r) {
        String key = r.sort() == CustomerSort.ID ? "id" : keyExpression(r.sort());
        String dir = r.descending() ? "DESC" : "ASC";
        return new CustomerListQuery("WITH matches AS MATERIALIZED (SELECT id, " + key + " AS k FROM customer WHERE "
                + conditions(r, key, "id", false) + "), page AS MATERIALIZED (SELECT id, k FROM matches ORDER BY k "
                + dir + ", id "
                + dir + " LIMIT :limit) SELECT " + prefixed("c.", CustomerRowMapper.COLUMNS)
                + " FROM page JOIN customer c USING (id) ORDER BY page.k " + dir + ", page.id " + dir, r);
    }

    private static String prefixed(String prefix, String columns) {
        return String.join(", ", java.util.Arrays.stream(columns.split(", ")).map(c -> prefix + c).toList());
    }

    /**
     * Whether a search is collected through the index of characters and pairs rather than the trigram index: one or
     * two characters, which hold no trigram, or no letter or digit at all ("@.", "..."), of which pg_trgm keeps none.
     * Either way every search finds its term anywhere in the search text.
     */
    static boolean isShort(String search) {
        int n = search.codePointCount(0, search.length());
        return n >= 1 && (n <= 2 || search.codePoints().noneMatch(Character::isLetterOrDigit));
    }

    private static String matching(String search) {
        return isShort(search) ? SHORT : LIKE;
    }

    /**
     * The page's conditions: the search, and the keyset's "after this row".
     *
     * @param key the sort key's expression, {@code id} the id's (qualified where the order is a join)
     */
    private static String conditions(CustomerPageRequest r, String key, String id, boolean walking) {
        StringBuilder sql = new StringBuilder("true");
        if (!r.search().isEmpty()) {
            sql.append(" AND ").append(walking ? LIKE : matching(r.search()));
        }
        if (r.after() != null) {
            String cmp = r.descending() ? "<" : ">";
            if (r.sort() == CustomerSort.ID) {
                sql.append(" AND ").append(id).append(' ').append(cmp).append(" :afterId");
            } else {
                // The key of the row after which the page starts is lowered by the database, like the rows' keys:
                // lowering it in Java could disagree (Java and PostgreSQL lower "İ" and "Σ" differently).
                String afterKey = textSort(r.sort()) ? "lower(:afterKey)" : ":afterKey";
                sql.append(" AND (").append(key).append(", ").append(id).append(") ").append(cmp)
                        .append(" (").append(afterKey).append(", :afterId)");
            }
        }
        return sql.toString();
    }

    private static String orderAndLimit(CustomerPageRequest r, String key, String id) {
        String dir = r.descending() ? "DESC" : "ASC";
        StringBuilder sql = new StringBuilder(" ORDER BY ");
        if (r.sort() != CustomerSort.ID) {
            sql.append(key).append(' ').append(dir).append(", ");
        }
        return sql.append(id).append(' ').append(dir).append(" LIMIT :limit").toString();
    }

    /**
     * The planner's estimates for a search: how many customers match it, and how many there are.
     *
     * @param matches   customers the planner expects to match, from its statistics (a plan, not a scan)
     * @param customers customers the planner expects in the table
     */
    record Estimate(long matches, long customers) {

        /**
         * The cheaper plan for a page of {@code limit} in {@code sort}: a walk reads about {@code limit × customers
         * / matches} rows, matches-first reads {@code matches}, so matches-first wins while {@code matches² < w ×
         * limit × customers}, {@code w} being what a row walked costs against a match collected ({@link #walkCost}).
         * For pages of 200 of a million customers that is up to about 14,000 matches in a text order and 5,500 by id.
         */
        Plan cheaper(CustomerSort sort, int limit) {
            return (double) matches * matches < walkCost(sort) * limit * customers ? Plan.MATCHES_FIRST : Plan.WALK;
        }

        /**
         * What a row walked in {@code sort} costs against a match collected, measured on a million customers
         * (docs/benchmarks.md): by id the walk reads the table in the order it was written, 0.4 µs a row, against
         * 2.5 µs a match; in a text order it jumps from page to page, 1.7 to 5 µs a row.
         */
        static double walkCost(CustomerSort sort) {
            return sort == CustomerSort.ID ? 0.15 : 1.0;
        }
    }

    /**
     * The planner's estimate of the customers matching {@code search} (all of them when it is empty) and of all
     * customers, in one round trip: {@code lockstep_plan_rows} (V19) reads EXPLAIN's row estimate of a query that
     * holds the term as a literal ({@code format('%L')} quotes it), so the estimate is for this very term.
     */
    static Estimate estimate(Handle h, String search) {
        // A short term's estimate is its grams' alone: the planner would multiply the two conditions' selectivities
        // as if they were independent, where the LIKE only confirms what the grams found.
        String matching = search.isEmpty() ? "SELECT 1 FROM customer"
                : "SELECT 1 FROM customer WHERE " + (isShort(search) ? GRAMS : LIKE).replace(":term", "%1$L");
        return withCustomPlan(h, 0, tx -> tx.createQuery("SELECT lockstep_plan_rows(format(:matching, :term)), "
                + "lockstep_plan_rows('SELECT 1 FROM customer')").bind("matching", matching).bind("term", search)
                .map((rs, ctx) -> new Estimate(rs.getLong(1), rs.getLong(2))).one());
    }

    /**
     * Reads one page. Without a search, the order's index gives it at once. A search is planned from the planner's
     * estimate of its matches ({@link Estimate#cheaper}), not left to the planner, whose costs favour the walk even
     * where it reads six times the rows (e.g. "müller" by company: 60,000 rows walked, 170 ms, against 5,500 matches
     * collected, 25 ms). Each plan runs under a time limit, and a plan that runs out of it hands over to the other:
     * the estimate guesses how many match, not where they lie along the order. The walk has the last word: it ends
     * once a page of matches is found, and at the latest at the end of the index.
     */
    static List<Customer> page(Handle h, CustomerPageRequest r, RowMapper<Customer> mapper) {
        CustomerListQuery planned = of(r);
        if (r.search().isEmpty()) {
            return planned.bind(h.createQuery(planned.sql())).map(mapper).list();
        }
        if (r.sort() == CustomerSort.VERSION) {
            // No index in this order to walk: the planner's plan, which collects the matches either way.
            return withCustomPlan(h, 0, tx -> planned.bind(tx.createQuery(planned.sql())).map(mapper).list());
        }
        List<Customer> page = estimate(h, r.search()).cheaper(r.sort(), r.limit()) == Plan.WALK
                ? tryPlan(h, r, Plan.WALK, WALK_MS, mapper) : null;
        if (page == null) {
            page = tryPlan(h, r, Plan.MATCHES_FIRST, MATCHES_FIRST_MS, mapper);
        }
        // Matches too many to collect and sort in time: walking the order was the right plan after all, only slower
        // than its first try allowed (a loaded server). It finishes once a page of matches is found.
        return page != null ? page : tryPlan(h, r, Plan.WALK, 0, mapper);
    }

    /**
     * Runs {@code plan} for the page, under a time limit of {@code timeoutMs} (none when 0).
     *
     * @return the page, or null when the time ran out
     */
    private static List<Customer> tryPlan(Handle h, CustomerPageRequest r, Plan plan, long timeoutMs,
            RowMapper<Customer> mapper) {
        CustomerListQuery q = plan == Plan.WALK ? of(r, true) : matchesFirst(r);
        try {
            return withCustomPlan(h, timeoutMs, tx -> {
                if (plan == Plan.WALK) {
                    // The trigram index serves only bitmap scans; without them and without a sequential scan, the
                    // planner walks the order's index.
                    tx.execute("SET LOCAL enable_bitmapscan = off; SET LOCAL enable_seqscan = off");
                }
                return q.bind(tx.createQuery(q.sql())).map(mapper).list();
            });
        } catch (RuntimeException e) {
            if (!isTimeout(e) || timeoutMs == 0) {
                throw e;
            }
            return null;
        }
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
            // The company, else the contact's name: indexed as customer_name_key (V22__name_sort.sql), which the
            // expression must match character for character for the planner to walk it.
            case NAME -> "lower(coalesce(nullif(company, ''), contact_name, ''))";
            default -> "lower(coalesce(" + sort.column() + ", ''))";
        };
    }

    private static boolean textSort(CustomerSort sort) {
        return sort != CustomerSort.ID && sort != CustomerSort.VERSION && sort != CustomerSort.UPDATED_AT;
    }

    private static String textKey(Customer c, CustomerSort sort) {
        String v = switch (sort) {
            case NAME -> CustomerSort.name(c.data());
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
     * budget runs out first, the answer is the planner's estimate for the search ("about 12,300"), which costs a plan,
     * not a scan (PostgreSQL docs, 14.1 "Using EXPLAIN") — or, when the estimate is no more than was counted, the
     * count as a lower bound ("at least 1,000").
     */
    static CustomerCount count(Handle h, String search, long budgetMs) {
        String s = search == null ? "" : search.strip();
        long started = System.nanoTime();
        long timeout = Math.max(1, budgetMs);
        if (s.isEmpty()) {
            try {
                // Every customer has exactly one entry in the Updated order's table (V24: its triggers add and
                // remove them in the customer's own statements), which holds a million customers in an eighth of the
                // customer table's pages (5,536 against 44,377). The customer table's pages, with room left on each
                // for HOT saves, made the full count miss its 300 ms on a busy machine (420,000 customers, a burst).
                return withCustomPlan(h, timeout, tx -> new CustomerCount(
                        tx.createQuery("SELECT count(*) FROM customer_updated").mapTo(Long.class).one(), true));
            } catch (RuntimeException e) {
                if (!isTimeout(e)) {
                    throw e;
                }
            }
        }
        // A short term that many rows hold is counted by its LIKE alone: the planner scans the table for it either
        // way, and with the grams' condition beside it computed each match's grams too (30 to 190 ms for 1,001 matches
        // of "." on a busy machine, where the LIKE alone takes a few). A rarer one needs the grams' index.
        Estimate estimate = isShort(s) ? estimate(h, s) : null;
        String where = s.isEmpty() ? ""
                : " WHERE " + (estimate != null && estimate.matches() < SCAN_COUNT_FROM ? SHORT : LIKE);
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
        long estimated = (estimate != null ? estimate : estimate(h, s)).matches();
        // An estimate no higher than what was counted says nothing more than the count did: "at least 1,000", not
        // "about 1,001" where 11,340 match (the planner misjudges some short terms, digits among them).
        if (counted > COUNT_CAP && estimated <= counted) {
            return new CustomerCount(COUNT_CAP, false);
        }
        return CustomerCount.about(Math.max(estimated, counted));
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
