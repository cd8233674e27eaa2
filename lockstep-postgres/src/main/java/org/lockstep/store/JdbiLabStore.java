package org.lockstep.store;

import static org.lockstep.text.Texts.tr;

import java.sql.SQLException;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.function.IntFunction;
import java.util.function.Supplier;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.lockstep.domain.RecordBusyException;
import org.lockstep.lab.ConnectionRoom;
import org.lockstep.lab.RetryableFailure;
import org.lockstep.lab.StockStore;

/**
 * The contention lab's rows, {@code lab_stock} and {@code lab_lease} (V5__lab.sql). Each strategy's write is one
 * statement. Contention failures (SQLSTATE 40001, 40P01, 55P03) become {@link RetryableFailure}; any other failure a
 * {@link org.lockstep.domain.StoreUnavailableException} with a readable message — except in the setup
 * ({@link #reset}), where a lock timeout means someone else holds the lab's row and is a {@link RecordBusyException}
 * naming them. {@link #connectionRoom} says how many connections a run may open.
 */
public final class JdbiLabStore implements StockStore {

    private static final String RESET = """
            INSERT INTO lab_stock (name, stock, version) VALUES (:name, :stock, 0)
            ON CONFLICT (name) DO UPDATE SET stock = excluded.stock, version = 0
            RETURNING id
            """;

    // The same one-statement grant as record_lease (JdbiLeaseRepository): ON CONFLICT DO UPDATE locks the existing
    // row and re-checks the WHERE clause on its newest version, so two buyers can never both be granted. The token
    // of a takeover is drawn after that lock is held, so it is larger than every earlier grant's.
    private static final String ACQUIRE = """
            INSERT INTO lab_lease AS l (stock_id, holder, token, expires_at)
            VALUES (:id, :holder, nextval('lab_lease_token_seq'),
                    clock_timestamp() + make_interval(secs => :ttlMs / 1000.0))
            ON CONFLICT (stock_id) DO UPDATE
                SET holder = excluded.holder, token = nextval('lab_lease_token_seq'),
                    expires_at = clock_timestamp() + make_interval(secs => :ttlMs / 1000.0)
                WHERE l.expires_at <= clock_timestamp()
            RETURNING token
            """;

    // FOR SHARE serializes the write with a takeover of the lease row: either the write commits first, or it sees
    // the new token and writes nothing. The expiry is compared once that lock is held, as customer_before_write does
    // (V19): a write that waited while the lease lapsed is fenced out.
    private static final String WRITE_FENCED = """
            UPDATE lab_stock SET stock = :stock, version = version + 1
            WHERE id = :id AND EXISTS (WITH l AS MATERIALIZED (SELECT expires_at FROM lab_lease
                                                                WHERE stock_id = :id AND token = :token FOR SHARE)
                                         SELECT 1 FROM l WHERE l.expires_at > clock_timestamp())
            """;

    // As JdbiLeaseRepository.END: the clock is read once the lease's row is locked.
    private static final String RELEASE = """
            WITH locked AS MATERIALIZED (
                SELECT stock_id FROM lab_lease WHERE stock_id = :id AND token = :token FOR NO KEY UPDATE
            ), clock AS MATERIALIZED (
                SELECT clock_timestamp() AS now FROM locked
            )
            UPDATE lab_lease l SET expires_at = c.now FROM clock c
            WHERE l.stock_id = :id AND l.token = :token AND l.expires_at > c.now
            """;

    // Client connections only: background workers, autovacuum and WAL senders have slots of their own.
    private static final String CONNECTION_ROOM = """
            SELECT current_setting('max_connections')::int AS max_connections,
                   current_setting('superuser_reserved_connections')::int AS superuser_reserved,
                   coalesce(current_setting('reserved_connections', true), '0')::int AS reserved,
                   r.rolsuper AS superuser,
                   EXISTS (SELECT 1 FROM pg_roles g WHERE g.rolname = 'pg_use_reserved_connections'
                           AND pg_has_role(current_user, g.oid, 'member')) AS may_use_reserved,
                   r.rolconnlimit AS role_limit, d.datconnlimit AS database_limit,
                   current_user AS role_name, current_database() AS database_name,
                   (SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend') AS in_use,
                   (SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend'
                      AND usename = current_user) AS role_in_use,
                   (SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend'
                      AND datname = current_database()) AS database_in_use
            FROM pg_roles r, pg_database d
            WHERE r.rolname = current_user AND d.datname = current_database()
            """;

    private final Jdbi jdbi;
    private final Runnable onClose;

    /**
     * @param jdbi    over a pool with a connection for every session the lab will open at once
     * @param onClose closes that pool
     */
    public JdbiLabStore(Jdbi jdbi, Runnable onClose) {
        this.jdbi = jdbi;
        this.onClose = onClose;
    }

    /**
     * {@inheritDoc}
     *
     * <p>Waits for the row no longer than for any lock ({@code lock_timeout} of the lab's connections).
     *
     * @throws RecordBusyException when another session (psql, another lab run) holds the row or its lease's row
     *         longer than that, naming the session; nothing was reset
     */
    @Override
    public long reset(String name, int stock) {
        try {
            return jdbi.inTransaction(h -> {
                long id = h.createQuery(RESET).bind("name", name).bind("stock", stock).mapTo(Long.class).one();
                h.createUpdate("DELETE FROM lab_lease WHERE stock_id = :id").bind("id", id).execute();
                return id;
            });
        } catch (RuntimeException e) {
            throw StoreErrors.isLockTimeout(e) ? busy(name, e) : translated(e);
        }
    }

    /** The lab's setup gave up waiting for the row {@code name}: who holds it, and what to do. */
    private RecordBusyException busy(String name, RuntimeException e) {
        Optional<String> blocker = Optional.empty();
        String waited = null;
        try {
            blocker = jdbi.withHandle(h -> RowLockHolder.describeLabRow(h, name));
            waited = jdbi.withHandle(h -> h.createQuery("SELECT current_setting('lock_timeout')").mapTo(String.class)
                    .one());
        } catch (RuntimeException ignored) {
            // The description is a courtesy; that the row is held is what matters.
        }
        // The blocker, when known, is the database's own description of a session: data, put in as it is.
        String session = blocker.map(b -> " (" + b + ")").orElse("");
        String message = waited == null
                ? tr("The lab''s stock row \"{0}\" is held by another session{1}; the lab gave up after waiting its "
                        + "lock timeout for it and ran nothing — end that session''s transaction, then run the lab "
                        + "again", name, session)
                : tr("The lab''s stock row \"{0}\" is held by another session{1}; the lab gave up after waiting {2} "
                        + "for it and ran nothing — end that session''s transaction, then run the lab again", name,
                        session, waited);
        return new RecordBusyException(message, blocker, e);
    }

    /**
     * How many more connections the current role may open on the database now, and the setting that limits them:
     * the server's {@code max_connections} less the connections reserved for superusers
     * ({@code superuser_reserved_connections}) and, from PostgreSQL 16, for {@code pg_use_reserved_connections}
     * ({@code reserved_connections}), less the client connections open; or the role's or the database's
     * {@code CONNECTION LIMIT} less their open connections, when that is fewer (PostgreSQL docs, 20.3.1 "Connection
     * Settings"; CREATE ROLE; CREATE DATABASE). Superusers are bound by {@code max_connections} alone. A snapshot:
     * other clients may connect a moment later.
     *
     * @throws org.lockstep.domain.StoreUnavailableException when the database cannot be reached
     */
    public static ConnectionRoom connectionRoom(Jdbi jdbi) {
        return call(() -> jdbi.withHandle(h -> h.createQuery(CONNECTION_ROOM).map((rs, ctx) -> {
            boolean superuser = rs.getBoolean("superuser");
            int max = rs.getInt("max_connections");
            int superReserved = superuser ? 0 : rs.getInt("superuser_reserved");
            int reserved = superuser || rs.getBoolean("may_use_reserved") ? 0 : rs.getInt("reserved");
            int inUse = rs.getInt("in_use");
            int free = max - superReserved - reserved - inUse;
            String why = "max_connections is " + max + ": " + (superReserved > 0 ? superReserved
                    + " reserved for superusers, " : "") + (reserved > 0
                            ? reserved
                                    + " reserved for pg_use_reserved_connections (reserved_connections), "
                            : "")
                    + inUse + " in use";
            int roleLimit = rs.getInt("role_limit");
            if (!superuser && roleLimit >= 0 && roleLimit - rs.getInt("role_in_use") < free) {
                free = roleLimit - rs.getInt("role_in_use");
                why = "role " + rs.getString("role_name") + " has CONNECTION LIMIT " + roleLimit + ", "
                        + rs.getInt("role_in_use") + " of them in use";
            }
            int databaseLimit = rs.getInt("database_limit");
            if (!superuser && databaseLimit >= 0 && databaseLimit - rs.getInt("database_in_use") < free) {
                free = databaseLimit - rs.getInt("database_in_use");
                why = "database " + rs.getString("database_name") + " has CONNECTION LIMIT " + databaseLimit + ", "
                        + rs.getInt("database_in_use") + " of them in use";
            }
            return new ConnectionRoom(Math.max(0, free), why);
        }).one()));
    }

    @Override
    public int stock(long rowId) {
        return call(() -> jdbi.withHandle(h -> h.createQuery("SELECT stock FROM lab_stock WHERE id = :id")
                .bind("id", rowId).mapTo(Integer.class).one()));
    }

    /** The most purchases one lab event counts (R__40_audit.sql's lockstep_record_event refuses more). */
    static final long MOST_PER_EVENT = 10_000;

    /**
     * {@inheritDoc} The operator is the database role: the lab runs as no Lockstep operator. A run that gave up more
     * than {@value #MOST_PER_EVENT} purchases is recorded as several events that sum to it.
     */
    @Override
    public void recordRetriesExhausted(String strategy, long buyers) {
        for (long left = buyers; left > 0; left -= MOST_PER_EVENT) {
            ConflictEvents.recordQuietly(jdbi, ConflictEvents.LAB_RETRIES_EXHAUSTED, null, "", null, null, strategy,
                    Math.min(left, MOST_PER_EVENT));
        }
    }

    @Override
    public Session openSession() {
        return new JdbiSession(call(jdbi::open));
    }

    @Override
    public void close() {
        onClose.run();
    }

    private static <T> T call(Supplier<T> body) {
        try {
            return body.get();
        } catch (RuntimeException e) {
            throw translated(e);
        }
    }

    private static RuntimeException translated(RuntimeException e) {
        String state = sqlState(e);
        if (RetryableFailure.isRetryable(state)) {
            return new RetryableFailure(state, e.getMessage(), e);
        }
        return StoreErrors.translate(e);
    }

    private static String sqlState(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException s && s.getSQLState() != null) {
                return s.getSQLState();
            }
        }
        return null;
    }

    /** A buyer's session: one handle, held until closed, so that every buyer really races on its own connection. */
    private static final class JdbiSession implements Session {

        private final Handle h;

        JdbiSession(Handle h) {
            this.h = h;
        }

        @Override
        public Reading read(long rowId) {
            return call(() -> h.createQuery("SELECT stock, version FROM lab_stock WHERE id = :id").bind("id", rowId)
                    .map((rs, ctx) -> new Reading(rs.getInt("stock"), rs.getLong("version"))).one());
        }

        @Override
        public boolean writeBlind(long rowId, int newStock) {
            return call(() -> h.createUpdate("""
                            UPDATE lab_stock SET stock = :stock, version = version + 1
                            WHERE id = :id""").bind("id", rowId).bind("stock", newStock).execute() == 1);
        }

        @Override
        public boolean writeIfVersion(long rowId, long baseVersion, int newStock) {
            return call(() -> h.createUpdate("""
                            UPDATE lab_stock SET stock = :stock, version = version + 1
                            WHERE id = :id AND version = :version""").bind("id", rowId).bind("version", baseVersion)
                    .bind("stock", newStock).execute() == 1);
        }

        @Override
        public LockedWrite writeLocked(long rowId, long lockTimeoutMs, IntFunction<OptionalInt> decide) {
            return call(() -> h.inTransaction(tx -> {
                // SET LOCAL: the timeout ends with this transaction and never leaks into the pooled connection.
                tx.createQuery("SELECT set_config('lock_timeout', :ms, true)")
                        .bind("ms", lockTimeoutMs + "ms").mapTo(String.class).one();
                // Ask without waiting first, only to count the waits; then wait in line for the lock.
                OptionalInt stock = lockRow(tx, rowId, " SKIP LOCKED");
                boolean waited = stock.isEmpty();
                if (waited) {
                    stock = lockRow(tx, rowId, "");
                }
                OptionalInt decision = decide.apply(stock.orElseThrow(
                        () -> new IllegalStateException("The lab's stock row " + rowId + " is missing")));
                decision.ifPresent(newStock -> tx.createUpdate("""
                                UPDATE lab_stock SET stock = :stock, version = version + 1
                                WHERE id = :id""").bind("id", rowId).bind("stock", newStock)
                        .execute());
                return new LockedWrite(waited, decision.isPresent());
            }));
        }

        private static OptionalInt lockRow(Handle tx, long rowId, String skipLocked) {
            return tx.createQuery("SELECT stock FROM lab_stock WHERE id = :id FOR UPDATE" + skipLocked)
                    .bind("id", rowId).mapTo(Integer.class).findOne().map(OptionalInt::of)
                    .orElse(OptionalInt.empty());
        }

        @Override
        public OptionalInt decrementIfInStock(long rowId) {
            return call(() -> h.createQuery("""
                            UPDATE lab_stock SET stock = stock - 1, version = version + 1
                            WHERE id = :id AND stock > 0 RETURNING stock""").bind("id", rowId)
                    .mapTo(Integer.class).findOne().map(OptionalInt::of).orElse(OptionalInt.empty()));
        }

        @Override
        public OptionalLong acquireLease(long rowId, String holder, long ttlMs) {
            return call(() -> h.createQuery(ACQUIRE).bind("id", rowId).bind("holder", holder).bind("ttlMs", ttlMs)
                    .mapTo(Long.class).findOne().map(OptionalLong::of).orElse(OptionalLong.empty()));
        }

        @Override
        public boolean writeFenced(long rowId, long token, int newStock) {
            return call(() -> h.createUpdate(WRITE_FENCED).bind("id", rowId).bind("token", token)
                    .bind("stock", newStock).execute() == 1);
        }

        @Override
        public boolean releaseLease(long rowId, long token) {
            return call(() -> h.createUpdate(RELEASE).bind("id", rowId).bind("token", token).execute() == 1);
        }

        @Override
        public void close() {
            h.close();
        }
    }
}
