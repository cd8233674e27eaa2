package org.lockstep.domain;

/**
 * The connection was lost after a write was sent and before its reply came back, and the write cannot safely be
 * repeated to find out: it may have been committed or not. The caller must say so ("the outcome is unknown — check
 * the record") and re-read, never report success or failure. Writes that carry a request id (versioned saves and
 * deletes, creates) are repeated instead and do not end here unless the database stays out of reach.
 * See docs/decisions/0009-retries-and-idempotency.md.
 */
public class OutcomeUnknownException extends StoreUnavailableException {

    /**
     * @param message what was being done and what to check, in the operator's words
     * @param cause   the driver's exception
     */
    public OutcomeUnknownException(String message, Throwable cause) {
        super(message, cause);
    }
}
