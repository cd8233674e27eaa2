package org.lockstep.store;

import static org.lockstep.text.Texts.tr;

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

    static final String COPY_SQL = "COPY customer (" + CustomerWriteSql.COLUMNS
            + ", updated_by) FROM STDIN (FORMAT text)";

    /**
     * The bound on one bulk statement (a batch's {@code COPY}, {@code ANALYZE}), ms: longer than the interactive
     * {@code statement_timeout} because the work is long by nature, still bounded so that a stuck load ends.
     */
    public static final int BULK_STATEMENT_TIMEOUT_MS = 120_000;

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
            // A batch of thousands of rows with its triggers may outlast the interactive 10 s bound on a busy server
            // (measured: the last batch of a 1,000,000-row load under load). SET LOCAL lifts it for this transaction
            // only, so through a transaction-pooling PgBouncer no other client's session inherits it.
            h.execute("SET LOCAL statement_timeout = " + BULK_STATEMENT_TIMEOUT_MS);
            try {
                return h.getConnection().unwrap(PGConnection.class).getCopyAPI()
                        .copyIn(COPY_SQL, new ByteArrayInputStream(rows));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (SQLException e) {
                // StoreErrors reads the SQLSTATE from the cause: a broken CHECK becomes the field's error.
                throw new IllegalStateException("COPY into customer failed: " + e.getMessage(), e);
            }
        }), tr("whether the last batch of {0, plural, one {# customer was} other {# customers were}} written is "
                + "unknown", batch.size()));
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
     * Refreshes the planner's statistics after a large load ({@code ANALYZE}), so that the list's queries are planned
     * for the table's real size straight away instead of after autovacuum's next round (PostgreSQL docs, 24.1.3
     * "Updating Planner Statistics"), then vacuums the table so that counts can use index-only scans (24.1.4 "Updating
     * the Visibility Map").
     *
     * <p>{@code ANALYZE} runs in a transaction whose {@code SET LOCAL} lifts the statement bound to
     * {@link #BULK_STATEMENT_TIMEOUT_MS}. {@code VACUUM} cannot run in a transaction, and a session-level {@code SET}
     * would, through a transaction-pooling PgBouncer, stay on a server connection other clients then use; so it runs
     * under the session's usual bound, and when that cancels it autovacuum finishes the job (PostgreSQL 13 and later
     * vacuum after inserts too).
     *
     * @return whether the vacuum finished; {@code false} when the statement bound cancelled it (the statistics are
     *         fresh either way)
     * @throws org.lockstep.domain.StoreUnavailableException when the database refuses, e.g. the role does not own
     *         the table on a shared server
     */
    public boolean vacuumAnalyze() {
        DatabaseCalls.read(() -> jdbi.inTransaction(h -> {
            h.execute("SET LOCAL statement_timeout = " + BULK_STATEMENT_TIMEOUT_MS);
            return h.execute("ANALYZE customer");
        }));
        try {
            DatabaseCalls.read(() -> jdbi.withHandle(h -> h.execute("VACUUM customer")));
            return true;
        } catch (org.lockstep.domain.StoreUnavailableException e) {
            if (StoreErrors.isCancelled(e)) {
                return false;
            }
            throw e;
        }
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
