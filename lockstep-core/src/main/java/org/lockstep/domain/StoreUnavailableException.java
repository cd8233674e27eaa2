package org.lockstep.domain;

/**
 * The database could not be reached or failed (server down, network lost, timeout). Unless the subclass
 * {@link OutcomeUnknownException} is thrown, nothing was written and the same call may succeed once the database
 * is back. The message is a sentence an operator can read.
 */
public class StoreUnavailableException extends RuntimeException {

    /**
     * @param message what went wrong, in the operator's words
     * @param cause   the driver's exception
     */
    public StoreUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
