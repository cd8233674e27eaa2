package org.lockstep.store;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
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
 * <p>A search's page is computed in bounded steps ({@link #page}): a walk along the order that looks at a few thousand
 * rows, or a collection of at most a few thousand matches through the search's index, each step larger than the one
 * of its kind before, until one of them finds the page. Where the matches lie along the order is something no
 * estimate knows, so neither kind of step may run long; the planner's estimate only chooses which goes first
 * ({@link Estimate#cheaper}). The measurements behind the bounds are in {@code docs/benchmarks.md}.
 */
record CustomerListQuery(String sql, CustomerPageRequest request) {

    /** The stored, folded search text of a row (V19__stored_search_text.sql), searched by the trigram index. */
    private static final String SEARCH_EXPR = "search_text";

    /**
     * The bounds of the steps in which a search's page is computed ({@link #page}): the first walk looks at
     * {@code walkRows} rows of a text order ({@link Estimate#walkCost} scales it for the others); the first collection
     * takes at most {@code collectRows} matches, or {@code margin} times the planner's estimate of the matches where
     * that is more, since fewer would surely be too few; and each step may look at {@code growth} times as much as
     * the same kind of step before it.
     */
    record Steps(long walkRows, long collectRows, int growth, double margin) {
        /**
         * The bounds the list uses: 2,000 rows walked, 4,000 matches or 1.25 times the estimate collected, four times
         * as much each time. Without the estimate's margin, a broad term whose first walk fell short ("q" or "z" by
         * company, on a million customers) paid for a collection of 4,001 of its 63,000 to 346,000 matches before
         * walking on: 60 to 100 ms where the walk alone took 8 to 27 (docs/benchmarks.md, issue 29, round 2).
         */
        static final Steps DEFAULT = new Steps(2_000, 4_000, 4, 1.25);
    }

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
     * condition finds the matches of a short search by the index, and the test beside it ({@link #SHORT}) only
     * confirms them (or completes it, where folding made the term longer: "ß" is "ss").
     */
    private static final String GRAMS = "lockstep_search_grams(" + SEARCH_EXPR + ") @> lockstep_term_grams(:term)";

    /**
     * The LIKE's meaning (the folded term anywhere in the search text) in a form no index serves: beside
     * {@link #GRAMS}, a LIKE let the planner combine the trigram index's candidates with the grams' (a trigram index
     * finds 231,172 candidates for ".j" on a million customers), and a row from such a combined bitmap is checked
     * against both conditions again, which computes its grams: 2.1 s to collect the 61,000 matches of ".j", against
     * 0.25 s through the grams' index alone (issue 29).
     */
    private static final String HOLDS = "strpos(" + SEARCH_EXPR + ", lockstep_fold(:term)) > 0";

    /** A short search, collected through the grams' index ({@link #isShort}). */
    private static final String SHORT = "(" + GRAMS + " AND " + HOLDS + ")";

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
     * Reads one page. Without a search, the order's index gives it at once. With one, see {@link #page(Handle,
     * CustomerPageRequest, RowMapper, Steps)}.
     */
    static List<Customer> page(Handle h, CustomerPageRequest r, RowMapper<Customer> mapper) {
        return page(h, r, mapper, Steps.DEFAULT).rows();
    }

    /**
     * A page and the steps that computed it.
     *
     * @param steps each step in the order run: a walk ({@link Plan#WALK}, its bound in rows) or a collection ({@link
     *              Plan#MATCHES_FIRST}, its bound in matches), and how many of the page's rows it found
     */
    record Paged(List<Customer> rows, List<Step> steps) {
    }

    /** One step of {@link #page(Handle, CustomerPageRequest, RowMapper, Steps)}. */
    record Step(Plan plan, long bound, int found) {
    }

    /**
     * Reads one page of a search in bounded steps, in one snapshot (REPEATABLE READ), so that the steps see the same
     * rows. The two kinds of step:
     * <ul>
     * <li>a <b>walk</b> looks at the next {@code n} rows along the order's index after where the page stands (the
     *     request's last row, or the last row an earlier walk looked at) and keeps those that match, in order. When they
     *     fill the page it is done; when the order ends within them, every match is seen and the page is done too.
     *     Otherwise the page's next rows lie beyond the {@code n}-th row, which becomes where the page stands.</li>
     * <li>a <b>collection</b> takes, through the search's index, the matches beyond where the page stands, at most
     *     {@code m + 1} of them. When there are no more than {@code m}, they are every match left: sorted, the first of
     *     them complete the page. When there are more, the matches are many, and a walk will meet them sooner.</li>
     * </ul>
     * The planner's estimate chooses the first; after it, the kind whose next step may cost less runs (a collection
     * starts at the estimate's margin above the estimated matches), each kind looking at {@code growth} times more
     * than it did before, until one finishes: at the latest the walk at the end of the order. So however far along
     * the order the matches lie, and however many there are, a page costs a few times the cheaper way of finding it,
     * and never the dearer (before: matches that all sort last, as the Japanese companies' ".j" does, walked the
     * whole order for 60 ms and then collected and sorted 60,000 matches, 2.2 s).
     */
    static Paged page(Handle h, CustomerPageRequest r, RowMapper<Customer> mapper, Steps steps) {
        CustomerListQuery planned = of(r);
        if (r.search().isEmpty()) {
            return new Paged(planned.bind(h.createQuery(planned.sql())).map(mapper).list(), List.of());
        }
        if (r.sort() == CustomerSort.VERSION) {
            // No index in this order to walk: the planner's plan, which collects the matches either way.
            return new Paged(withCustomPlan(h, 0, tx -> planned.bind(tx.createQuery(planned.sql())).map(mapper)
                    .list()), List.of());
        }
        return h.inTransaction(tx -> {
            // The snapshot is taken by the transaction's first query, so its isolation is set before any.
            tx.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY");
            Estimate estimate = estimate(tx, r.search());
            boolean walking = estimate.cheaper(r.sort(), r.limit()) == Plan.WALK;
            tx.execute("SET LOCAL plan_cache_mode = force_custom_plan");
            List<Customer> found = new ArrayList<>();
            List<Step> done = new ArrayList<>();
            Mark mark = Mark.after(r);
            double walkCost = Estimate.walkCost(r.sort());
            long walk = Math.max(1, Math.round(steps.walkRows() / walkCost));
            long collect = Math.max(steps.collectRows(), (long) Math.ceil(estimate.matches() * steps.margin()));
            while (true) {
                int need = r.limit() - found.size();
                if (walking) {
                    List<Customer> hits = walk(tx, r, mark, walk, need, mapper);
                    done.add(new Step(Plan.WALK, walk, hits.size()));
                    found.addAll(hits);
                    if (hits.size() == need) {
                        return new Paged(found, done);
                    }
                    Optional<Mark> edge = edge(tx, r, mark, walk);
                    if (edge.isEmpty()) {
                        return new Paged(found, done); // the order ended within the walk: every match is seen
                    }
                    mark = edge.get();
                    walk = grown(walk, steps.growth());
                } else {
                    Optional<List<Customer>> rest = collect(tx, r, mark, collect, need, mapper);
                    done.add(new Step(Plan.MATCHES_FIRST, collect, rest.map(List::size).orElse(0)));
                    if (rest.isPresent()) {
                        found.addAll(rest.get());
                        return new Paged(found, done);
                    }
                    collect = grown(collect, steps.growth());
                }
                // The next step is the one of the two kinds that may cost less (a row walked against a match
                // collected, as Estimate weighs them): so a page costs a few times the cheaper way of finding it.
                walking = walk * walkCost <= collect;
            }
        });
    }

    private static long grown(long bound, int growth) {
        return bound > Long.MAX_VALUE / growth ? Long.MAX_VALUE / 2 : bound * growth;
    }

    /**
     * Where a page stands along its order: the sort key and id of the row after which its next rows come. From the
     * request, the key is the row's own value, lowered by the database like the rows' keys ({@code lowered}); from an
     * earlier walk, it is the key as the database computed it.
     */
    private record Mark(Object key, long id, boolean lower) {

        /** Where the request's page starts: after its last row, or null for the first page. */
        static Mark after(CustomerPageRequest r) {
            Customer after = r.after();
            if (after == null) {
                return null;
            }
            return switch (r.sort()) {
                case ID -> new Mark(after.id(), after.id(), false);
                case UPDATED_AT -> new Mark(java.time.OffsetDateTime.ofInstant(after.updatedAt(),
                        java.time.ZoneOffset.UTC), after.id(), false);
                case VERSION -> new Mark(after.version(), after.id(), false);
                default -> new Mark(textKey(after, r.sort()), after.id(), true);
            };
        }

        /** "After this mark" on {@code key} and {@code id} in the request's direction, or nothing for none. */
        static String condition(Mark m, CustomerPageRequest r, String key, String id) {
            if (m == null) {
                return "";
            }
            String cmp = r.descending() ? "<" : ">";
            if (r.sort() == CustomerSort.ID) {
                return " AND " + id + " " + cmp + " :markId";
            }
            return " AND (" + key + ", " + id + ") " + cmp + " (" + (m.lower() ? "lower(:markKey)" : ":markKey")
                    + ", :markId)";
        }

        static Query bind(Mark m, Query q) {
            if (m != null) {
                q.bind("markId", m.id());
                if (m.key() instanceof String text) {
                    q.bind("markKey", text);
                } else if (m.key() instanceof java.time.OffsetDateTime time) {
                    q.bind("markKey", time);
                } else if (m.key() instanceof Long number) {
                    q.bind("markKey", number);
                }
            }
            return q;
        }
    }

    /** The settings of a walk: along the order's index, and nothing else (the trigram index serves only bitmaps). */
    private static final String WALKING = "SET LOCAL enable_bitmapscan = off; SET LOCAL enable_seqscan = off; "
            + "SET LOCAL enable_indexscan = on; SET LOCAL enable_hashjoin = off; SET LOCAL enable_mergejoin = off";

    /**
     * The settings of a collection: through the search's index (a bitmap), never along another index or the table,
     * which a LIMIT without an order would make the planner prefer for a term it expects many rows to hold.
     */
    private static final String COLLECTING = "SET LOCAL enable_bitmapscan = on; SET LOCAL enable_seqscan = off; "
            + "SET LOCAL enable_indexscan = off; SET LOCAL enable_indexonlyscan = off; "
            + "SET LOCAL enable_hashjoin = on; SET LOCAL enable_mergejoin = on";

    /**
     * The walk's step: the matches among the next {@code rows} rows after {@code mark}, in order, at most
     * {@code need}. The rows are counted along the order's own index, so that {@link #edge} finds the last of them;
     * in the Updated order they are entries of {@code customer_updated}, each read with its customer by id.
     */
    private static List<Customer> walk(Handle tx, CustomerPageRequest r, Mark mark, long rows, int need,
            RowMapper<Customer> mapper) {
        String dir = r.descending() ? " DESC" : " ASC";
        String sql;
        if (r.sort() == CustomerSort.UPDATED_AT) {
            sql = "SELECT " + prefixed("c.", CustomerRowMapper.COLUMNS) + " FROM (SELECT updated_at, id FROM "
                    + "customer_updated WHERE true" + Mark.condition(mark, r, "updated_at", "id")
                    + " ORDER BY updated_at" + dir + ", id" + dir + " LIMIT :rows) u JOIN customer c ON c.id = u.id"
                    + " AND c.updated_at <= u.updated_at WHERE " + LIKE + " ORDER BY u.updated_at" + dir + ", u.id"
                    + dir + " LIMIT :need";
        } else {
            String key = r.sort() == CustomerSort.ID ? "id" : keyExpression(r.sort());
            sql = "SELECT " + CustomerRowMapper.COLUMNS + " FROM (SELECT " + CustomerRowMapper.COLUMNS + ", " + key
                    + " AS k, " + LIKE + " AS hit FROM customer WHERE true" + Mark.condition(mark, r, key, "id")
                    + " ORDER BY " + key + dir + ", id" + dir + " LIMIT :rows) w WHERE w.hit ORDER BY w.k" + dir
                    + ", w.id" + dir + " LIMIT :need";
        }
        tx.execute(WALKING);
        return Mark.bind(mark, tx.createQuery(sql)).bind("term", r.search()).bind("rows", rows).bind("need", need)
                .map(mapper).list();
    }

    /** The {@code rows}-th row after {@code mark} along the order's index, or none when fewer rows follow it. */
    private static Optional<Mark> edge(Handle tx, CustomerPageRequest r, Mark mark, long rows) {
        String dir = r.descending() ? " DESC" : " ASC";
        boolean updated = r.sort() == CustomerSort.UPDATED_AT;
        String key = updated ? "updated_at" : r.sort() == CustomerSort.ID ? "id" : keyExpression(r.sort());
        String sql = "SELECT " + key + " AS k, id FROM " + (updated ? "customer_updated" : "customer") + " WHERE true"
                + Mark.condition(mark, r, key, "id") + " ORDER BY " + key + dir + ", id" + dir
                + " OFFSET :skip LIMIT 1";
        tx.execute(WALKING);
        return Mark.bind(mark, tx.createQuery(sql)).bind("skip", rows - 1).map((rs, ctx) -> new Mark(switch (r.sort()) {
            case ID -> rs.getLong(1);
            case UPDATED_AT -> rs.getObject(1, java.time.OffsetDateTime.class);
            default -> rs.getString(1);
        }, rs.getLong(2), false)).findOne();
    }

    /**
     * The collection's step: every match after {@code mark}, when there are at most {@code most}; sorted, the first
     * {@code need} of them. Empty when there are more: the matches are many, and a walk finds them sooner. Only the
     * ids and keys of the matches are sorted, and only the page's rows are read whole ({@link #matchesFirst}).
     */
    private static Optional<List<Customer>> collect(Handle tx, CustomerPageRequest r, Mark mark, long most,
            int need, RowMapper<Customer> mapper) {
        String key = r.sort() == CustomerSort.ID ? "id" : keyExpression(r.sort());
        String dir = r.descending() ? " DESC" : " ASC";
        String sql = "WITH matches AS MATERIALIZED (SELECT id, " + key + " AS k FROM customer WHERE "
                + matching(r.search()) + Mark.condition(mark, r, key, "id") + " LIMIT :most + 1),"
                + " page AS MATERIALIZED (SELECT id, k FROM matches WHERE (SELECT count(*) FROM matches) <= :most"
                + " ORDER BY k" + dir + ", id" + dir + " LIMIT :need)"
                + " SELECT " + prefixed("c.", CustomerRowMapper.COLUMNS) + ", (SELECT count(*) FROM matches)"
                + " FROM (SELECT 1) one LEFT JOIN (page JOIN customer c USING (id)) ON true"
                + " ORDER BY page.k" + dir + ", page.id" + dir;
        int collectedColumn = CustomerRowMapper.COLUMNS.split(", ").length + 1;
        tx.execute(COLLECTING);
        List<Collected> rows = Mark.bind(mark, tx.createQuery(sql)).bind("term", r.search()).bind("most", most)
                .bind("need", need).map((rs, ctx) -> new Collected(rs.getLong(collectedColumn),
                        rs.getObject(1) == null ? Optional.empty() : Optional.of(mapper.map(rs, ctx))))
                .list();
        if (rows.isEmpty() || rows.get(0).matches() > most) {
            return Optional.empty();
        }
        return Optional.of(rows.stream().flatMap(c -> c.row().stream()).toList());
    }

    /** A row of {@link #collect}'s result: how many matches it collected, and a row of the page (none: no page). */
    private record Collected(long matches, Optional<Customer> row) {
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
