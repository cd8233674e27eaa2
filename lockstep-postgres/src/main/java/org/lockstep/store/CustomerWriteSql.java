package org.lockstep.store;

import org.lockstep.domain.CustomerField;

/**
 * The statements that write one customer ({@link JdbiCustomerRepository}): each a single versioned statement (PoEAA,
 * Optimistic Offline Lock), whose lease guard the row's BEFORE trigger checks (V19__stored_search_text.sql). Public
 * so that the benchmarks' raw-JDBC baseline runs the very statement of the store's save ({@link #SAVE_SQL}).
 */
public final class CustomerWriteSql {

    /** The customer's field columns, in {@link CustomerField#all()}'s order. */
    static final String COLUMNS = String.join(", ", CustomerField.all().stream().map(CustomerField::column).toList());
    /** A named parameter per field, in {@link #COLUMNS}' order: {@code :external_ref, :company, …}. */
    static final String VALUES = String.join(", ", CustomerField.all().stream().map(f -> ":" + f.column()).toList());
    /** Every field set from its named parameter: {@code external_ref = :external_ref, …}. */
    static final String ASSIGNMENTS = String.join(", ",
            CustomerField.all().stream().map(f -> f.column() + " = :" + f.column()).toList());

    /**
     * Optimistic: one statement, the version check, and no other session's unexpired lease on the row (the guard,
     * {@link #names}). The version, {@code updated_at} and {@code updated_by} are the trigger's to write, whoever the
     * writer.
     */
    public static final String SAVE_SQL =
            "UPDATE customer SET " + ASSIGNMENTS + " WHERE id = :id AND version = :base AND "
                    + names(WriteProtocol.Guard.UNLEASED, true, true) + " RETURNING " + CustomerRowMapper.COLUMNS;
    /** Under a lease: the version check, and the token is this session's unexpired lease on the row (fencing). */
    static final String SAVE_UNDER_LEASE_SQL = "UPDATE customer SET " + ASSIGNMENTS
            + " WHERE id = :id AND version = :base AND " + names(WriteProtocol.Guard.FENCED, true, true) + " RETURNING "
            + CustomerRowMapper.COLUMNS;
    /**
     * Last write wins (unsafe), the lost-update bug kept for teaching: no version check at all, only no other
     * session's unexpired lease on the row.
     */
    static final String OVERWRITE_SQL = "UPDATE customer SET " + ASSIGNMENTS + " WHERE id = :id AND "
            + names(WriteProtocol.Guard.UNLEASED, true, true) + " RETURNING " + CustomerRowMapper.COLUMNS;
    /** A versioned delete, guarded like a save; announced by the notify trigger. */
    static final String DELETE_SQL = "DELETE FROM customer WHERE id = :id AND version = :base AND "
            + names(WriteProtocol.Guard.UNLEASED, false, false) + " RETURNING id";
    static final String DELETE_UNDER_LEASE_SQL = "DELETE FROM customer WHERE id = :id AND version = :base AND "
            + names(WriteProtocol.Guard.FENCED, false, false) + " RETURNING id";
    /**
     * A create records its request id in {@code client_request} in the same statement (through the owner's
     * {@code lockstep_claim_request}: operators cannot write that table): sent again after a lost reply, it collides
     * with its first attempt on the primary key instead of inserting a second customer.
     */
    static final String INSERT_SQL = "WITH writer AS (SELECT " + WriteProtocol.NAMES_WRITER + " AS named),"
            + " created AS (INSERT INTO customer (" + COLUMNS + ") SELECT " + VALUES + " FROM writer WHERE named"
            + " RETURNING *),"
            + " fenced AS (SELECT lockstep_claim_request(CAST(:request AS uuid), 'create', id, NULL) AS claimed"
            + " FROM created)"
            + " SELECT created.* FROM created CROSS JOIN fenced";

    private CustomerWriteSql() {
    }

    /**
     * What a write of one customer names for the database, as a condition that always holds ({@link WriteProtocol}):
     * the writer, and its guard, which the row's BEFORE trigger checks once this session holds the row's lock
     * (R__20_customer_triggers.sql): {@code unleased} — no other writer holds an unexpired lease on the row — or
     * {@code fenced} — this writer holds the row's unexpired lease under {@code :token}, proven by {@code :secret}. A
     * row whose guard fails is skipped, so the statement matches zero rows and the write then reads why. Under Read
     * Committed the trigger's queries see everything committed before the lock was granted (PostgreSQL docs, 13.2.1),
     * and a lease grant locks the same row ({@code lockstep_lease_acquire}), so a save that waited on a row lock can
     * never commit inside a lease granted while it waited. The wait is bounded by {@code lock_timeout} (which {@code
     * org.lockstep.server.Database} sets on every connection).
     *
     * @param announcedByClient whether the writer announces its change itself after commit ({@link Announcements}):
     *                          a save does, so it tells the notify trigger to stay silent
     * @param save              a save, which names the version it restores ({@code :restored}, NULL for none)
     */
    private static String names(WriteProtocol.Guard guard, boolean announcedByClient, boolean save) {
        return WriteProtocol.guarded(guard, announcedByClient, save);
    }
}
