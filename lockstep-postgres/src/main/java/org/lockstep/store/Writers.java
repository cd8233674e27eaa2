package org.lockstep.store;

import java.math.BigDecimal;
import java.sql.Types;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.argument.Argument;
import org.jdbi.v3.core.statement.SqlStatement;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerField;

/** How a write of customers names its writer for the triggers, and binds a customer's values. */
final class Writers {

    private Writers() {
    }

    /**
     * Names the writer for the triggers ({@link WriteProtocol#NAMES_WRITER}), as a condition that always holds, for a
     * WHERE clause: binds {@code :user}, {@code :session} and {@code :request}.
     */
    static final String NAMES_THE_WRITER = WriteProtocol.NAMES_WRITER;

    /**
     * Names the Lockstep user for the rest of the handle's transaction ({@code SET LOCAL lockstep.user}), which the
     * history and stamp triggers record where the login may name its operators (else the login is recorded). Call it inside
     * a transaction.
     */
    static void actAs(Handle h, String user) {
        actAs(h, user, "");
    }

    /**
     * As {@link #actAs(Handle, String)}, also naming the client session ({@code lockstep.session}), which change
     * notifications carry so that a client recognizes its own writes.
     */
    static void actAs(Handle h, String user, String sessionId) {
        h.createQuery("SELECT " + WriteProtocol.NAMES_USER_AND_SESSION).bind("user", user).bind("session", sessionId)
                .mapTo(Boolean.class).one();
    }

    /**
     * Binds each field by column name. The values are bound as ready {@link Argument}s of their SQL type rather than
     * by Java type: the type of every field is known here, and skipping Jdbi's per-value argument-factory look-up
     * takes a measurable part of a save's client-side cost (see docs/benchmarks.md).
     */
    static <S extends SqlStatement<S>> S bindValues(S statement, CustomerData data) {
        for (CustomerField f : CustomerField.values()) {
            Object v = data.get(f);
            Argument argument;
            if (v == null) {
                int type = f.numeric() ? Types.NUMERIC : Types.VARCHAR;
                argument = (position, ps, ctx) -> ps.setNull(position, type);
            } else if (f.numeric()) {
                BigDecimal d = (BigDecimal) v;
                argument = (position, ps, ctx) -> ps.setBigDecimal(position, d);
            } else {
                String text = (String) v;
                argument = (position, ps, ctx) -> ps.setString(position, text);
            }
            statement.bind(f.column(), argument);
        }
        return statement;
    }
}
