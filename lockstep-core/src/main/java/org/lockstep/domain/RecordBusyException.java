package org.lockstep.domain;

import java.util.Optional;

/**
 * Nothing was written: another database session held the record's row (an open transaction, e.g. in psql, or a bulk
 * import in progress) for longer than Lockstep waits for a row lock ({@code lock_timeout}, PostgreSQL docs, 20.11
 * "Client Connection Defaults"; SQLSTATE 55P03 lock_not_available). Unlike {@link SaveOutcome.Locked}, this is not
 * a Lockstep lease: the other session is not an editor, and the wait may end any moment. Try again.
 */
public class RecordBusyException extends StoreUnavailableException {

    private final transient Optional<String> blocker;

    /**
     * @param message the sentence for the operator, naming the record and, when known, the blocking session
     * @param blocker who holds the row, when the database could tell (e.g. "psql, role lockstep, for 42 s")
     * @param cause   the driver's exception
     */
    public RecordBusyException(String message, Optional<String> blocker, Throwable cause) {
        super(message, cause);
        this.blocker = blocker;
    }

    /** Who holds the row, when the database could tell. */
    public Optional<String> blocker() {
        return blocker;
    }
}
