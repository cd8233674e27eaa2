package org.lockstep.store;

import java.sql.PreparedStatement;
import java.util.Optional;
import org.jdbi.v3.core.mapper.RowMapper;
import org.jdbi.v3.core.result.ResultIterable;
import org.jdbi.v3.core.statement.Query;

/** Helpers for statements Jdbi has no shorthand for. */
final class Statements {

    private Statements() {
    }

    /**
     * Runs a query of two statements separated by {@code ;} — sent together in one round trip and run in one
     * implicit transaction (PostgreSQL docs, 55.2.4: the messages up to a Sync form one transaction) — where the first
     * takes a row lock and the second does the work, and maps the second one's result, at most one row.
     *
     * @return the second statement's row, or empty when it returned none
     */
    static <T> Optional<T> afterLock(Query query, RowMapper<T> mapper) {
        return query.execute((statement, ctx) -> {
            PreparedStatement ps = statement.get();
            if (!ps.getMoreResults()) {
                throw new IllegalStateException("expected a second statement after the lock");
            }
            java.sql.ResultSet rs = ps.getResultSet();
            return ResultIterable.of(() -> rs, mapper, ctx).findOne();
        });
    }
}
