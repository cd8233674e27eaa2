package org.lockstep.store;

import static org.lockstep.text.Texts.tr;

import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.JdbiException;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.FieldError;
import org.lockstep.domain.InvalidCustomerException;
import org.lockstep.domain.NotPermittedException;
import org.lockstep.domain.RecordBusyException;
import org.lockstep.domain.StoreUnavailableException;
import org.lockstep.domain.UnicodeText;

/**
 * Turns driver exceptions into the outcomes callers handle: a broken rule becomes an
 * {@link InvalidCustomerException} naming the field, anything else a {@link StoreUnavailableException} with a
 * sentence an operator can read. SQLSTATE codes: PostgreSQL docs, Appendix A "PostgreSQL Error Codes".
 */
final class StoreErrors {

    /** A write of a customer locked for editing by another, that did not name a guard (R__20_customer_triggers.sql). */
    static final String LOCKED_BY_ANOTHER = "LS423";
    /** A lock broken by someone who is not a supervisor (R__30_leases.sql, lockstep_lease_break). */
    static final String NOT_A_SUPERVISOR = "LS403";
    /** PostgreSQL's insufficient_privilege: the login's role may not do this. */
    static final String INSUFFICIENT_PRIVILEGE = "42501";

    /** PostgreSQL's disk_full: the server could not write a table, an index or its log. */
    static final String DISK_FULL = "53100";

    private StoreErrors() {
    }

    static RuntimeException translate(RuntimeException e) {
        Optional<DiskFullConnectionException> cannotRun = DiskFullConnectionException.in(e);
        if (cannotRun.isPresent()) {
            // The server is not running for want of space: the sentence names the disk, not the pool's timeout.
            return new StoreUnavailableException(cannotRun.get().getMessage(), e);
        }
        SQLException sql = findSql(e);
        String state = sql == null ? null : sql.getSQLState();
        if (state != null) {
            String msg = sql.getMessage() == null ? "" : sql.getMessage();
            if (state.equals("23505") && msg.contains("external_ref")) {
                return new InvalidCustomerException(List.of(new FieldError(CustomerField.EXTERNAL_REF,
                        tr("External ref is already used by another customer"))));
            }
            Optional<String> rule = state.equals("23514") || (state.equals("23P01") || state.equals("23505"))
                    && "customer".equals(tableOf(sql)) ? constraintOf(sql) : Optional.empty();
            if (rule.isPresent()) {
                // The rule by its name, not the server's English sentence: a DBA's own CHECK or domain (23514), or an
                // exclusion (23P01) or unique (23505, but the external ref's, above) constraint of the customer table,
                // which Lockstep's validator does not know, or one of Lockstep's that a value passed in the client.
                // On one line: a name may hold a line break, which would split the message (an attack on 6199e1d).
                return new InvalidCustomerException(List.of(new FieldError(fieldIn(rule.get()),
                        tr("Refused by the database''s rule {0}; nothing was saved",
                                UnicodeText.oneLine(rule.get())))));
            }
            Optional<CustomerField> required = state.equals("23502") ? customerColumnOf(sql) : Optional.empty();
            if (required.isPresent()) {
                // A NOT NULL a DBA added to a column Lockstep lets be empty: the field, in the operator's language.
                return new InvalidCustomerException(List.of(new FieldError(required.get(),
                        tr("The database requires a value here; nothing was saved"))));
            }
            if (state.equals("23514") || state.equals("23502") || state.equals("22001") || state.equals("22003")) {
                return new InvalidCustomerException(
                        List.of(new FieldError(fieldIn(msg), tr("Rejected by the database: {0}",
                                firstLine(msg)))));
            }
            if (state.equals(NOT_A_SUPERVISOR)) {
                return new NotPermittedException(tr("Only a supervisor can break a lock; nothing was broken. Ask a "
                        + "supervisor to break it, or wait for the lock to end."), e);
            }
            if (state.equals(INSUFFICIENT_PRIVILEGE)) {
                return new NotPermittedException(tr("Your database login may not do this ({0}); nothing was "
                        + "changed. An administrator makes your login a member of lockstep_operators "
                        + "(docs/admin-guide.md).", firstLine(msg)), e);
            }
            if (state.equals(LOCKED_BY_ANOTHER)) {
                // The database's own sentence names the customer, the holder and the lock's end.
                return new StoreUnavailableException(tr("Nothing was written: {0}", firstLine(msg)), e);
            }
            if (state.equals(DISK_FULL)) {
                // The server's words name the file it could not extend, under its data directory.
                return new StoreUnavailableException(tr("The database server''s disk is full ({0}): nothing was "
                        + "written and your changes are kept. Free some space on that disk (or ask the server''s "
                        + "administrator to), then save again", firstLine(msg)), e);
            }
            Optional<String> full = ConnectionRefusals.explain(e);
            if (full.isPresent()) {
                return new StoreUnavailableException(full.get(), e);
            }
            if (state.startsWith("08") || state.equals("57P01") || state.equals("57P03")) {
                return new StoreUnavailableException(tr("Cannot reach the database ({0})", firstLine(msg)), e);
            }
            if (state.equals("57014")) {
                return new StoreUnavailableException(tr("The database took too long to answer (nothing was written)"),
                        e);
            }
            if (state.equals("55P03")) {
                return new RecordBusyException(tr("Another session is writing this data right now (nothing was "
                        + "written) — try again in a moment"), Optional.empty(), e);
            }
            return new StoreUnavailableException(tr("The database refused the request: {0}", firstLine(msg)), e);
        }
        if (e instanceof JdbiException) {
            Throwable root = e;
            while (root.getCause() != null) {
                root = root.getCause();
            }
            return new StoreUnavailableException(tr("Cannot reach the database ({0})", root.getMessage()), e);
        }
        return e;
    }

    /**
     * Whether the connection was lost (SQLSTATE class 08, or the server shut the session down: 57P01–57P03), so
     * that the same call on a fresh connection may succeed.
     */
    static boolean isConnectionLost(RuntimeException e) {
        SQLException sql = findSql(e);
        String state = sql == null ? null : sql.getSQLState();
        return state != null && (state.startsWith("08") || state.startsWith("57P"));
    }

    /**
     * Whether the server rolled the transaction back so that the client may run it again: a deadlock (40P01) or a
     * serialization failure (40001). Nothing of it was committed.
     */
    static boolean isRolledBackToRetry(RuntimeException e) {
        SQLException sql = findSql(e);
        String state = sql == null ? null : sql.getSQLState();
        return "40P01".equals(state) || "40001".equals(state);
    }

    /** Whether the failure, or one of its causes, carries the SQLSTATE {@code state}. */
    static boolean hasSqlState(Throwable e, String state) {
        SQLException sql = findSql(e);
        return sql != null && state.equals(sql.getSQLState());
    }

    /** Whether the failure is a unique violation (23505), of any constraint. */
    static boolean isUniqueViolation(RuntimeException e) {
        SQLException sql = findSql(e);
        return sql != null && "23505".equals(sql.getSQLState());
    }

    /** Whether the failure is a unique violation (23505) of the named constraint or index. */
    static boolean isUniqueViolation(RuntimeException e, String constraint) {
        SQLException sql = findSql(e);
        if (sql == null || !"23505".equals(sql.getSQLState())) {
            return false;
        }
        if (sql instanceof org.postgresql.util.PSQLException p && p.getServerErrorMessage() != null) {
            return constraint.equals(p.getServerErrorMessage().getConstraint());
        }
        return sql.getMessage() != null && sql.getMessage().contains("\"" + constraint + "\"");
    }

    /** Whether the statement gave up waiting for a row or table lock ({@code lock_timeout}, 55P03). */
    static boolean isLockTimeout(RuntimeException e) {
        SQLException sql = findSql(e);
        return sql != null && "55P03".equals(sql.getSQLState());
    }

    /** Whether the server cancelled the statement ({@code statement_timeout} or a cancel request, 57014). */
    static boolean isCancelled(RuntimeException e) {
        SQLException sql = findSql(e);
        return sql != null && "57014".equals(sql.getSQLState());
    }

    private static SQLException findSql(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException s && s.getSQLState() != null) {
                // A batch's own exception (an import's) says only "Batch entry 1 <unknown> was aborted"; the
                // server's error, with the rule, table and column it names, is the next one (pgjdbc).
                SQLException next = s instanceof java.sql.BatchUpdateException ? s.getNextException() : null;
                return next != null && next.getSQLState() != null ? next : s;
            }
        }
        return null;
    }

    private static CustomerField fieldIn(String message) {
        for (CustomerField f : CustomerField.values()) {
            if (message.contains("\"" + f.column() + "\"") || message.contains("customer_" + f.column())) {
                return f;
            }
        }
        return null;
    }

    /** The customer's field whose column the server says must not be empty, when it says one of the customer's. */
    private static Optional<CustomerField> customerColumnOf(SQLException sql) {
        if (sql instanceof org.postgresql.util.PSQLException p && "customer".equals(tableOf(sql))) {
            String column = p.getServerErrorMessage().getColumn();
            return CustomerField.byColumn(column).filter(f -> f.column().equals(column));
        }
        return Optional.empty();
    }

    /** The table the server says the statement broke a rule of, or {@code null}. */
    private static String tableOf(SQLException sql) {
        return sql instanceof org.postgresql.util.PSQLException p && p.getServerErrorMessage() != null
                ? p.getServerErrorMessage().getTable() : null;
    }

    /** The name of the constraint the server says the statement broke, when it says one. */
    private static Optional<String> constraintOf(SQLException sql) {
        if (sql instanceof org.postgresql.util.PSQLException p && p.getServerErrorMessage() != null) {
            return Optional.ofNullable(p.getServerErrorMessage().getConstraint()).filter(c -> !c.isBlank());
        }
        return Optional.empty();
    }

    /** The first line of a driver's message (the server's sentence, without its detail and hint lines). */
    static String firstLine(String message) {
        int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }
}
