package org.lockstep.store;

import static org.lockstep.text.Texts.tr;

import java.util.function.Supplier;
import org.jdbi.v3.core.ConnectionException;
import org.lockstep.domain.ImportConflictException;
import org.lockstep.domain.InvalidCustomerException;
import org.lockstep.domain.OutcomeUnknownException;
import org.lockstep.domain.StoreUnavailableException;

/**
 * How the store runs a database call, and when it runs it again. Retry only what is idempotent
 * (docs/decisions/0009-retries-and-idempotency.md):
 * <ul>
 *   <li>{@link #read}: a read, repeated once on a fresh connection when the first attempt lost its connection (a
 *       pooled connection the server closed since it was last used) or was rolled back by the server to break a
 *       deadlock (40P01) or a serialization failure (40001).</li>
 *   <li>{@link #repeatable}: a write that is safe to send twice because it carries what tells its second attempt
 *       that the first one committed (a request id checked by the statement, or a fencing token re-granted to the same
 *       session). Repeated like a read. When the database stays out of reach after an attempt reached it, the outcome
 *       is unknown ({@link OutcomeUnknownException}).</li>
 *   <li>{@link #once}: a write that must not be sent twice (a bulk import streaming a file, breaking a lease). Never
 *       repeated. A connection lost after it reached the database means the outcome is unknown.</li>
 * </ul>
 * A failure while opening the connection (refused, pool exhausted) never reached the database: nothing was written,
 * whatever the call. So did a statement the server cancelled ({@code statement_timeout}, 57014) or that gave up
 * waiting for a lock ({@code lock_timeout}, 55P03): the server rolled its transaction back. But these say nothing
 * about an earlier attempt that reached the database and lost its connection: after one, only a finished retry
 * settles the outcome, and any other end is {@link OutcomeUnknownException}. SQLSTATEs: PostgreSQL docs, Appendix A.
 */
final class DatabaseCalls {

    private DatabaseCalls() {
    }

    /**
     * Runs a read.
     *
     * @throws StoreUnavailableException when it fails twice, or fails in a way repeating cannot help
     */
    static <T> T read(Supplier<T> body) {
        return run(body, true, null);
    }

    /**
     * Runs a read whose rows go to the caller as they arrive: not repeated, since the rows read before a lost
     * connection were already passed on.
     *
     * @throws StoreUnavailableException when it fails
     */
    static <T> T streamed(Supplier<T> body) {
        return run(body, false, null);
    }

    /**
     * Runs a write that is safe to repeat.
     *
     * @param unknown what to tell the operator if the outcome cannot be known, e.g. "whether customer 7 was saved is
     *                unknown — check it"
     * @throws OutcomeUnknownException when an attempt reached the database and lost its connection, and the retry
     *         did not finish (lost as well, or failed in any other way)
     * @throws StoreUnavailableException when nothing was written
     */
    static <T> T repeatable(Supplier<T> body, String unknown) {
        return run(body, true, unknown);
    }

    /**
     * Runs a write that must not be repeated.
     *
     * @param unknown what to tell the operator if the connection is lost after the write reached the database
     * @throws OutcomeUnknownException when the connection was lost after the write reached the database
     * @throws StoreUnavailableException when nothing was written
     */
    static <T> T once(Supplier<T> body, String unknown) {
        return run(body, false, unknown);
    }

    private static <T> T run(Supplier<T> body, boolean repeat, String unknown) {
        boolean reached = false;
        for (int attempt = 1;; attempt++) {
            try {
                return body.get();
            } catch (InvalidCustomerException | ImportConflictException e) {
                throw e; // a rule broken: the earlier attempt broke it too, so nothing of it was written either
            } catch (StoreUnavailableException e) {
                if (unknown != null && reached) {
                    throw new OutcomeUnknownException(afterLoss(unknown), e);
                }
                throw e; // already an outcome the caller handles
            } catch (RuntimeException e) {
                boolean lost = StoreErrors.isConnectionLost(e);
                boolean reachedNow = lost && !neverReachedDatabase(e);
                reached |= reachedNow;
                boolean again = repeat && attempt == 1 && (lost || StoreErrors.isRolledBackToRetry(e));
                if (again) {
                    continue;
                }
                // Once an attempt reached the database and lost its connection, only a finished retry tells what it
                // did. A retry that failed in any other way — no connection to be had, a statement timeout, a row
                // lock it gave up on (perhaps held by that very attempt, stalled before its commit) — tells nothing.
                if (unknown != null && reached) {
                    throw new OutcomeUnknownException(afterLoss(unknown), e);
                }
                throw StoreErrors.translate(e);
            }
        }
    }

    private static String afterLoss(String unknown) {
        return tr("The connection to the database was lost: {0}", unknown);
    }

    /** Whether the failure happened while opening the connection, before anything was sent. */
    private static boolean neverReachedDatabase(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof ConnectionException) {
                return true;
            }
        }
        return false;
    }
}
