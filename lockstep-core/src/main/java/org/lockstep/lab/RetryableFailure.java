package org.lockstep.lab;

/**
 * A statement failed because of contention, and the same attempt may succeed later: SQLSTATE 40001
 * (serialization_failure), 40P01 (deadlock_detected) or 55P03 (lock_not_available). Source: PostgreSQL docs,
 * Appendix A "PostgreSQL Error Codes" and 13.4 "Data Consistency Checks at the Application Level".
 */
public final class RetryableFailure extends RuntimeException {

    /** SQLSTATE of a serialization failure. */
    public static final String SERIALIZATION_FAILURE = "40001";
    /** SQLSTATE of a detected deadlock. */
    public static final String DEADLOCK_DETECTED = "40P01";
    /** SQLSTATE of a lock that was not granted, e.g. after {@code lock_timeout}. */
    public static final String LOCK_NOT_AVAILABLE = "55P03";

    private final String sqlState;

    /**
     * @param sqlState one of the three codes above
     * @param message  the database's message
     * @param cause    the driver's exception
     */
    public RetryableFailure(String sqlState, String message, Throwable cause) {
        super(message, cause);
        this.sqlState = sqlState;
    }

    /** Whether {@code sqlState} is one of the three retryable codes. */
    public static boolean isRetryable(String sqlState) {
        return SERIALIZATION_FAILURE.equals(sqlState) || DEADLOCK_DETECTED.equals(sqlState)
                || LOCK_NOT_AVAILABLE.equals(sqlState);
    }

    /** The SQLSTATE. */
    public String sqlState() {
        return sqlState;
    }

    /** Whether a lock was not granted in time (55P03), as opposed to a conflict (40001, 40P01). */
    public boolean lockTimeout() {
        return LOCK_NOT_AVAILABLE.equals(sqlState);
    }
}
