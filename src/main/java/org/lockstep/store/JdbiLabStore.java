package org.lockstep.store;

import java.sql.SQLException;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.function.IntFunction;
import java.util.function.Supplier;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.lockstep.lab.RetryableFailure;
import org.lockstep.lab.StockStore;

/**
 * The contention lab's rows, {@code lab_stock} and {@code lab_lease} (V5__lab.sql). Each strategy's write is one
 * statement. Contention failures (SQLSTATE 40001, 40P01, 55P03) become {@link RetryableFailure}; any other failure a
 * {@link org.lockstep.domain.StoreUnavailableException} with a readable message.
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
    // the new token and writes nothing. The expiry is compared once that lock is held, as in LeaseSql.FENCED: a
    // write that waited while the lease lapsed is fenced out.
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

    @Override
    public long reset(String name, int stock) {
        return call(() -> jdbi.inTransaction(h -> {
            long id = h.createQuery(RESET).bind("name", name).bind("stock", stock).mapTo(Long.class).one();
            h.createUpdate("DELETE FROM lab_lease WHERE stock_id = :id").bind("id", id).execute();
            return id;
        }));
    }

    @Override
    public int stock(long rowId) {
        return call(() -> jdbi.withHandle(h -> h.createQuery("SELECT stock FROM lab_stock WHERE id = :id")
                .bind("id", rowId).mapTo(Integer.class).one()));
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
            String state = sqlState(e);
            if (RetryableFailure.isRetryable(state)) {
                throw new RetryableFailure(state, e.getMessage(), e);
            }
            throw StoreErrors.translate(e);
        }
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
            return call(() -> h.createUpdate("UPDATE lab_stock SET stock = :stock, version = version + 1"
                    + " WHERE id = :id").bind("id", rowId).bind("stock", newStock).execute() == 1);
        }

        @Override
        public boolean writeIfVersion(long rowId, long baseVersion, int newStock) {
            return call(() -> h.createUpdate("UPDATE lab_stock SET stock = :stock, version = version + 1"
                            + " WHERE id = :id AND version = :version").bind("id", rowId).bind("version", baseVersion)
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
                decision.ifPresent(newStock -> tx.createUpdate("UPDATE lab_stock SET stock = :stock,"
                        + " version = version + 1 WHERE id = :id").bind("id", rowId).bind("stock", newStock)
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
            return call(() -> h.createQuery("UPDATE lab_stock SET stock = stock - 1, version = version + 1"
                            + " WHERE id = :id AND stock > 0 RETURNING stock").bind("id", rowId)
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
