package org.lockstep.lab;

import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.function.IntFunction;

/**
 * The lab's stock rows as the engine needs them; the SQL lives in the store layer. A store owns enough database
 * connections for one {@link Session} per buyer. The statements that can fail from contention throw
 * {@link RetryableFailure}; any other database failure throws the store's usual unchecked exception.
 */
public interface StockStore extends AutoCloseable {

    /**
     * Puts the row named {@code name} into its starting state: {@code stock} units, version 0, no lease.
     *
     * @return the row's id
     */
    long reset(String name, int stock);

    /** The units the row holds now. */
    int stock(long rowId);

    /**
     * Records for the conflict report that {@code buyers} purchases of a run under {@code strategy} were given up
     * after their last allowed retry. Best effort: a failure is logged, never thrown (the run's results stand).
     */
    void recordRetriesExhausted(String strategy, long buyers);

    /** Opens a session on a connection of its own, held until {@link Session#close()}. */
    Session openSession();

    /** Closes the store's connections. */
    @Override
    void close();

    /**
     * What the database holds for a row at one moment.
     *
     * @param stock   units left
     * @param version the row's version, raised by every write
     */
    record Reading(int stock, long version) {
    }

    /**
     * The result of a locked write.
     *
     * @param waited  whether another transaction held the row lock when this one asked for it
     * @param written whether the decision was to write (and so the row was written)
     */
    record LockedWrite(boolean waited, boolean written) {
    }

    /** One buyer's connection. Not thread-safe: one thread uses it. */
    interface Session extends AutoCloseable {

        /** Reads the row (no lock). */
        Reading read(long rowId);

        /** {@code UPDATE … SET stock = newStock}, whatever the row holds now: the blind write. */
        boolean writeBlind(long rowId, int newStock);

        /**
         * {@code UPDATE … SET stock = newStock WHERE id = ? AND version = baseVersion}.
         *
         * @return false when the version moved on: a conflict
         */
        boolean writeIfVersion(long rowId, long baseVersion, int newStock);

        /**
         * In one transaction: sets {@code lock_timeout} for it ({@code SET LOCAL}), reads the row
         * {@code FOR UPDATE}, hands the stock read to {@code decide} while holding the row lock, writes the new stock
         * {@code decide} returns (nothing when empty) and commits.
         *
         * @throws RetryableFailure with SQLSTATE 55P03 when the lock was not granted within the timeout
         */
        LockedWrite writeLocked(long rowId, long lockTimeoutMs, IntFunction<OptionalInt> decide);

        /**
         * {@code UPDATE … SET stock = stock - 1 WHERE id = ? AND stock > 0 RETURNING stock}.
         *
         * @return the stock left after the sale, or empty when there was none to sell
         */
        OptionalInt decrementIfInStock(long rowId);

        /**
         * Takes the row's lease for {@code ttlMs} when nobody holds it (one statement; database clock).
         *
         * @return the grant's fencing token, or empty when another holds the lease
         */
        OptionalLong acquireLease(long rowId, String holder, long ttlMs);

        /**
         * Writes the stock only while {@code token} is the row's unexpired lease.
         *
         * @return false when the lease has expired or passed on: fenced out
         */
        boolean writeFenced(long rowId, long token, int newStock);

        /** Ends the lease {@code token}; false when it had already ended. */
        boolean releaseLease(long rowId, long token);

        /** Returns the connection. */
        @Override
        void close();
    }
}
