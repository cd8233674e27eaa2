package org.lockstep.store;

import static org.assertj.core.api.Assertions.assertThat;

import org.postgresql.util.PSQLException;

/** What the server said when it refused a statement, as the tests of the database's rules compare it. */
final class ServerRefusals {

    private ServerRefusals() {
    }

    /**
     * The SQLSTATE of the server's refusal in {@code e}'s causes, and the constraint it names, if any: e.g.
     * "23514 customer_company_or_contact_required".
     */
    static String describe(RuntimeException e) {
        Throwable c = e;
        while (c != null && !(c instanceof PSQLException)) {
            c = c.getCause();
        }
        assertThat(c).as("a refusal by the server, not %s", e).isNotNull();
        PSQLException p = (PSQLException) c;
        String constraint = p.getServerErrorMessage().getConstraint();
        return p.getSQLState() + (constraint == null ? "" : " " + constraint);
    }
}
