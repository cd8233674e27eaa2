package org.lockstep.store;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Jdbi;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.CustomerValidator;
import org.lockstep.domain.FieldError;
import org.lockstep.domain.InvalidCustomerException;
import org.postgresql.PGConnection;

/**
 * Writes many new customers fast with PostgreSQL's {@code COPY … FROM STDIN} (pgjdbc's {@code CopyManager}): one
 * round trip and one statement per batch instead of one {@code INSERT} per row (PostgreSQL docs, 14.4.2 "Use
 * COPY"). Each batch is validated first and written in its own transaction, so a batch is stored whole or not at
 * all. New rows start at version 1, stamped with the database clock and the acting user, like
 * {@link JdbiCustomerRepository#create}.
 */
public final class CustomerBulkLoader {

    static final String COPY_SQL = "COPY customer (" + JdbiCustomerRepository.COLUMNS
            + ", updated_by) FROM STDIN (FORMAT text)";

    private final Jdbi jdbi;
    private final String user;

    /**
     * @param jdbi the database
     * @param user the operator's name, written to {@code updated_by} of every row
     */
    public CustomerBulkLoader(Jdbi jdbi, String user) {
        this.jdbi = jdbi;
        this.user = user;
    }

    /**
     * Inserts a batch of customers with one {@code COPY}, in one transaction.
     *
     * @param batch the values; each must pass {@link CustomerValidator}
     * @return the number of rows written (the batch's size)
     * @throws InvalidCustomerException when any row breaks a rule (the message names the row); nothing was written
     * @throws org.lockstep.domain.StoreUnavailableException when the database fails; nothing was written
     */
    public long copy(List<CustomerData> batch) {
        byte[] rows = encode(batch);
        // Sent again after a lost reply, a committed batch would be inserted twice: never repeated.
        return DatabaseCalls.once(() -> jdbi.inTransaction(h -> {
            // The stamp and history triggers (V2__history.sql) record the Lockstep user named for the transaction.
            Writers.actAs(h, user);
            try {
                return h.getConnection().unwrap(PGConnection.class).getCopyAPI()
                        .copyIn(COPY_SQL, new ByteArrayInputStream(rows));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (SQLException e) {
                // StoreErrors reads the SQLSTATE from the cause: a broken CHECK becomes the field's error.
                throw new IllegalStateException("COPY into customer failed: " + e.getMessage(), e);
            }
        }), "whether the last batch of " + batch.size() + " customers was written is unknown");
    }

    /**
     * The greatest external ref that starts with {@code prefix}, in the database's text order; with fixed-width
     * numbers after the prefix that is the highest number.
     */
    public Optional<String> lastExternalRef(String prefix) {
        String escaped = prefix.replace("!", "!!").replace("%", "!%").replace("_", "!_");
        return DatabaseCalls.read(() -> jdbi.withHandle(h -> h.createQuery(
                "SELECT max(external_ref) FROM customer WHERE external_ref LIKE :pattern ESCAPE '!'")
                .bind("pattern", escaped + "%").mapTo(String.class).findOne()));
    }

    /**
     * Refreshes the planner's statistics and the visibility map after a large load ({@code VACUUM (ANALYZE)}), so
     * that the list's queries are planned for the table's real size straight away instead of after autovacuum's
     * next round (PostgreSQL docs, 24.1.3 "Updating Planner Statistics").
     *
     * @throws org.lockstep.domain.StoreUnavailableException when the database refuses, e.g. the role does not own
     *         the table on a shared server
     */
    public void vacuumAnalyze() {
        // VACUUM cannot run in a transaction, so SET LOCAL cannot lift the statement timeout for it alone: the
        // session's setting is lifted and restored around it.
        DatabaseCalls.read(() -> jdbi.withHandle(h -> {
            h.execute("SET statement_timeout = 0");
            try {
                return h.execute("VACUUM (ANALYZE) customer");
            } finally {
                h.execute("RESET statement_timeout");
            }
        }));
    }

    /** The batch in COPY's text format, validated and normalized; UTF-8, as pgjdbc sets the client encoding. */
    byte[] encode(List<CustomerData> batch) {
        StringBuilder out = new StringBuilder(batch.size() * 320);
        for (int i = 0; i < batch.size(); i++) {
            CustomerData row = valid(batch.get(i), i);
            for (CustomerField f : CustomerField.values()) {
                Object v = row.get(f);
                if (v == null) {
                    out.append("\\N");
                } else if (v instanceof String s) {
                    appendEscaped(out, s);
                } else {
                    out.append(((java.math.BigDecimal) v).toPlainString());
                }
                out.append('\t');
            }
            appendEscaped(out, user);
            out.append('\n');
        }
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static CustomerData valid(CustomerData data, int index) {
        List<FieldError> errors = CustomerValidator.validate(data);
        if (errors.isEmpty()) {
            return data.normalized();
        }
        String row = "Row " + (index + 1) + (data.externalRef() == null ? "" : " (" + data.externalRef() + ")")
                + ": ";
        List<FieldError> named = new ArrayList<>();
        for (FieldError e : errors) {
            named.add(new FieldError(e.field(), row + e.message()));
        }
        throw new InvalidCustomerException(named);
    }

    /** COPY text format: backslash, tab, newline and carriage return are written as escapes (PostgreSQL docs, COPY). */
    private static void appendEscaped(StringBuilder out, String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '\\' -> out.append("\\\\");
                case '\t' -> out.append("\\t");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                default -> out.append(c);
            }
        }
    }
}
