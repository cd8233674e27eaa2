package org.lockstep.store;

import java.sql.SQLNonTransientConnectionException;

/**
 * No connection could be made because the server's disk is full and the server cannot run: the embedded server's
 * clients raise it instead of the refused connection ({@code server.EmbeddedConnections}). Its SQLSTATE is
 * PostgreSQL's {@code disk_full} (53100), which HikariCP passes on to the "Connection is not available" it reports,
 * and its message is the one sentence the operator reads ({@link StoreErrors} gives it unchanged).
 */
public final class DiskFullConnectionException extends SQLNonTransientConnectionException {

    private static final long serialVersionUID = 1L;

    /**
     * @param sentence which disk is full, how much is free, that the edits are kept and what to do
     * @param cause    the refused connection
     */
    public DiskFullConnectionException(String sentence, Throwable cause) {
        super(sentence, StoreErrors.DISK_FULL, cause);
    }

    /** The first {@link DiskFullConnectionException} among {@code failure} and its causes, if any. */
    public static java.util.Optional<DiskFullConnectionException> in(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof DiskFullConnectionException full) {
                return java.util.Optional.of(full);
            }
        }
        return java.util.Optional.empty();
    }
}
