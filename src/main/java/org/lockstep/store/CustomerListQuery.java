package org.lockstep.store;

import java.util.Locale;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.Query;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerCount;
import org.lockstep.domain.CustomerPageRequest;
import org.lockstep.domain.CustomerSort;

/**
 * The customer list's queries: keyset pages ("the next N rows after (key, id)") in any sortable order, and counts
 * with a time budget. Keyset paging reads only the rows it returns, however deep the operator has scrolled, where
 * {@code OFFSET} would read and discard every row before them. Each text sort key has a matching expression index in
 * {@code V1__customer.sql}, and the search uses the trigram index over {@code customer_search_text(...)}.
 */
record CustomerListQuery(String sql, CustomerPageRequest request) {

    private static final String SEARCH_EXPR = "customer_search_text(company, contact_name, email, city, country)";

    static CustomerListQuery of(CustomerPageRequest r) {
        StringBuilder sql = new StringBuilder("SELECT * FROM customer WHERE true");
        if (!r.search().isEmpty()) {
            sql.append(" AND ").append(SEARCH_EXPR).append(" LIKE :pattern ESCAPE '!'");
        }
        String key = keyExpression(r.sort());
        String dir = r.descending() ? "DESC" : "ASC";
        if (r.after() != null) {
            String cmp = r.descending() ? "<" : ">";
            if (r.sort() == CustomerSort.ID) {
                sql.append(" AND id ").append(cmp).append(" :afterId");
            } else {
                sql.append(" AND (").append(key).append(", id) ").append(cmp).append(" (:afterKey, :afterId)");
            }
        }
        sql.append(" ORDER BY ");
        if (r.sort() != CustomerSort.ID) {
            sql.append(key).append(' ').append(dir).append(", ");
        }
        sql.append("id ").append(dir).append(" LIMIT :limit");
        return new CustomerListQuery(sql.toString(), r);
    }

    Query bind(Query q) {
        if (!request.search().isEmpty()) {
            q.bind("pattern", pattern(request.search()));
        }
        Customer after = request.after();
        if (after != null) {
            q.bind("afterId", after.id());
            switch (request.sort()) {
                case ID -> { }
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

    private static String textKey(Customer c, CustomerSort sort) {
        String v = switch (sort) {
            case COMPANY -> c.data().company();
            case CONTACT_NAME -> c.data().contactName();
            case EMAIL -> c.data().email();
            case CITY -> c.data().city();
            case COUNTRY -> c.data().country();
            default -> throw new IllegalArgumentException("not a text sort: " + sort);
        };
        // The database lowers the key; lowering here the same way keeps the comparison on the same value. The
        // embedded server's builtin C.UTF-8 locale and Java's ROOT locale agree on lower case for letters.
        return v == null ? "" : v.toLowerCase(Locale.ROOT);
    }

    /** A LIKE pattern finding {@code search} anywhere, with LIKE's wildcards in it taken literally. */
    static String pattern(String search) {
        String escaped = search.toLowerCase(Locale.ROOT).replace("!", "!!").replace("%", "!%").replace("_", "!_");
        return "%" + escaped + "%";
    }

    /**
     * Counts matching rows, giving up after {@code budgetMs}: then the count is a lower bound from a capped scan.
     */
    static CustomerCount count(Handle h, String search, long budgetMs) {
        String s = search == null ? "" : search.strip();
        String where = s.isEmpty() ? "" : " WHERE " + SEARCH_EXPR + " LIKE :pattern ESCAPE '!'";
        try {
            return h.inTransaction(tx -> {
                tx.execute("SET LOCAL statement_timeout = " + Math.max(1, budgetMs));
                Query q = tx.createQuery("SELECT count(*) FROM customer" + where);
                if (!s.isEmpty()) {
                    q.bind("pattern", pattern(s));
                }
                return new CustomerCount(q.mapTo(Long.class).one(), true);
            });
        } catch (RuntimeException e) {
            if (!isTimeout(e)) {
                throw e;
            }
        }
        long cap = 10_000;
        Query q = h.createQuery("SELECT count(*) FROM (SELECT 1 FROM customer" + where + " LIMIT :cap) capped")
                .bind("cap", cap);
        if (!s.isEmpty()) {
            q.bind("pattern", pattern(s));
        }
        long n = q.mapTo(Long.class).one();
        return new CustomerCount(n, n < cap);
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
