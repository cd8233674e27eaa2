package org.lockstep.store;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.HandleCallback;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.StatementContext;
import org.jdbi.v3.core.statement.StatementCustomizer;
import org.lockstep.domain.CancelSignal;
import org.lockstep.domain.ReadCancelledException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads that a {@link CancelSignal} can stop on the server: while a statement of the read runs, cancelling the
 * signal calls its {@link java.sql.Statement#cancel()}, which pgjdbc sends as a cancel request on a connection of its
 * own, so the server abandons the statement (SQLSTATE 57014, "canceling statement due to user request") and its
 * transaction rolls back (PostgreSQL docs, 55.2.8 "Canceling Requests in Progress"). A statement that has not begun
 * when the signal is cancelled is never sent. pgjdbc sends the request only while the statement is executing, and
 * waits for a pending one before the connection runs anything else, so a late cancel never hits the next statement
 * on a pooled connection.
 */
final class CancellableReads {

    private static final Logger LOG = LoggerFactory.getLogger(CancellableReads.class);

    private CancellableReads() {
    }

    /**
     * Runs {@code body} as a {@link DatabaseCalls#read read} whose statements {@code cancel} stops.
     *
     * @throws ReadCancelledException when {@code cancel} was cancelled, whatever the read then failed with
     */
    static <T> T read(Jdbi jdbi, CancelSignal cancel, HandleCallback<T, RuntimeException> body) {
        if (cancel == CancelSignal.NONE) {
            return DatabaseCalls.read(() -> jdbi.withHandle(body));
        }
        try {
            return DatabaseCalls.read(() -> jdbi.withHandle(h -> body.withHandle(cancelledBy(h, cancel))));
        } catch (RuntimeException e) {
            if (cancel.isCancelled()) {
                throw e instanceof ReadCancelledException rc ? rc : new ReadCancelledException(e);
            }
            throw e;
        }
    }

    private static Handle cancelledBy(Handle h, CancelSignal cancel) {
        return h.addCustomizer(new StatementCustomizer() {
            @Override
            public void beforeExecution(PreparedStatement stmt, StatementContext ctx) throws SQLException {
                Runnable remove = cancel.onCancel(() -> cancelOnServer(stmt));
                ctx.addCleanable(remove::run);
                if (cancel.isCancelled()) {
                    throw new ReadCancelledException(null); // before it was sent: not sent at all
                }
            }
        });
    }

    private static void cancelOnServer(PreparedStatement stmt) {
        try {
            stmt.cancel();
        } catch (SQLException e) {
            // The server stays busy with a read nobody waits for until it ends or hits statement_timeout.
            LOG.debug("could not send the cancel request of a superseded read", e);
        }
    }
}
