package org.lockstep.store;

import org.jdbi.v3.core.Jdbi;
import org.lockstep.domain.Operator;

/**
 * Who a client is to the database (R__10_write_protocol.sql, {@code lockstep_whoami}): the name its writes are
 * recorded under — its login on a team server, whatever name it was given, or the given name on a login that may
 * name its operators (the embedded server's) — and whether it may break locks.
 */
public final class Operators {

    private Operators() {
    }

    /**
     * Asks the database.
     *
     * @param claimed the name the client was given ({@code --user}, the machine's user)
     * @throws org.lockstep.domain.StoreUnavailableException when the database cannot be reached
     */
    public static Operator whoami(Jdbi jdbi, String claimed) {
        return DatabaseCalls.read(() -> jdbi.withHandle(h -> h.createQuery(
                "SELECT operator, supervisor, named_by_client FROM lockstep_whoami(:claimed)")
                .bind("claimed", claimed)
                .map((rs, ctx) -> new Operator(rs.getString("operator"), rs.getBoolean("supervisor"),
                        rs.getBoolean("named_by_client")))
                .one()));
    }
}
