package org.lockstep.store;

import static org.lockstep.text.Texts.tr;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.PreparedBatch;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.LeaseInfo;
import org.lockstep.domain.OutcomeUnknownException;
import org.lockstep.domain.RecordBusyException;
import org.lockstep.domain.StoreUnavailableException;
import org.lockstep.transfer.CustomerBulkStore;

/**
 * Bulk reads and writes of customers on PostgreSQL: a CSV import written in one transaction, the first-run sample
 * load, and a streaming read of every customer for export (the CSV transfer's {@link CustomerBulkStore}). Values reach this class already validated and normalized (the
 * import validates every row before writing any), so the database's CHECK constraints are a last line of defence.
 *
 * <p>An import's update raises the version by one and stamps {@code updated_by} and {@code updated_at} like any
 * save, so an operator editing the same customer meanwhile gets a conflict on their next save instead of silently
 * overwriting the imported values (PoEAA, Optimistic Offline Lock).
 */
public final class JdbiCustomerBulkStore implements CustomerBulkStore {

    /** Rows per JDBC batch and per lookup query: large enough to amortise round trips, small enough for memory. */
    static final int BATCH_SIZE = 1_000;

    /** Rows per server round trip when streaming every customer. */
    static final int FETCH_SIZE = 1_000;

    // The version, updated_at and updated_by are the trigger's to write (V2__history.sql), for these rows as for any.
    private static final String UPDATE_SQL = "UPDATE customer SET " + CustomerWriteSql.ASSIGNMENTS + " WHERE id = :id";
    private static final String INSERT_SQL = "INSERT INTO customer (" + CustomerWriteSql.COLUMNS + ") VALUES ("
            + CustomerWriteSql.VALUES + ")";
    /** The import's request id, written last in its transaction: present exactly when the import committed. */
    private static final String RECORD_IMPORT =
            "SELECT lockstep_claim_request(CAST(:request AS uuid), 'import', NULL, CAST(:detail AS jsonb))";
    /**
     * After a lost connection: claims the import's request id. Inserted, it proves the import did not commit and now
     * never will (its own insert of the id would collide); refused, the import committed. An import still running
     * on the server is waited for (a unique index insert waits for the transaction that inserted the same key).
     */
    private static final String FENCE_IMPORT = "SELECT lockstep_fence_request(CAST(:request AS uuid), 'import')";

    private final Jdbi jdbi;
    private final String user;
    private final String sessionId;
    private final CustomerRowMapper mapper = new CustomerRowMapper();

    /**
     * A bulk store for a client session of its own: every lease on a customer it would update refuses the import.
     *
     * @param jdbi the database
     * @param user the operator's name, written to {@code updated_by} on every row written
     */
    public JdbiCustomerBulkStore(Jdbi jdbi, String user) {
        this(jdbi, user, RequestIds.next());
    }

    /**
     * @param jdbi      the database
     * @param user      the operator's name, written to {@code updated_by} on every row written
     * @param sessionId the client session: its own leases do not refuse the import, everyone else's do
     */
    public JdbiCustomerBulkStore(Jdbi jdbi, String user, String sessionId) {
        this.jdbi = jdbi;
        this.user = user;
        this.sessionId = sessionId;
    }

    /**
     * Writes all rows in one transaction: with a key, rows whose key names an existing customer replace its values
     * (version + 1), unless it already holds exactly those values; all other rows are inserted at version 1 with a
     * new id. Either every row is written or, when anything fails, none is.
     *
     * <p>Never repeated: the rows are streamed once. When the connection is lost, the import's request id tells
     * whether it committed before the loss (then its counts are returned) or not (then nothing was written, and
     * never will be).
     *
     * @throws org.lockstep.domain.InvalidCustomerException when the database rejects a value (e.g. an external ref
     *         another customer took meanwhile)
     * @throws StoreUnavailableException when the database cannot be reached or fails; nothing was written
     * @throws org.lockstep.domain.OutcomeUnknownException when the connection was lost and the database stayed out of
     *         reach, so whether the import committed cannot be told
     */
    @Override
    public ImportCounts write(ImportKey key, Iterator<ImportRow> rows) {
        String request = RequestIds.next();
        String unknown = tr("whether the import was written is unknown — check the customers before importing again");
        try {
            return DatabaseCalls.once(() -> jdbi.inTransaction(h -> {
                ImportCounts counts = writeAll(h, key, rows);
                h.createQuery(RECORD_IMPORT).bind("request", request).bind("detail", "{\"inserted\": "
                        + counts.inserted() + ", \"updated\": " + counts.updated() + ", \"unchanged\": "
                        + counts.unchanged() + "}").mapTo(Boolean.class).one();
                return counts;
            }), unknown);
        } catch (OutcomeUnknownException lost) {
            Optional<ImportCounts> committed = DatabaseCalls.repeatable(() -> jdbi.withHandle(h -> {
                boolean fenced = h.createQuery(FENCE_IMPORT).bind("request", request).mapTo(Boolean.class).one();
                if (fenced) {
                    return Optional.<ImportCounts>empty();
                }
                return Optional.of(h.createQuery("""
                                SELECT detail->>'inserted', detail->>'updated', detail->>'unchanged'
                                FROM client_request WHERE request_id = CAST(:request AS uuid)""")
                        .bind("request", request).map((rs, ctx) -> new ImportCounts(rs.getLong(1), rs.getLong(2),
                                rs.getLong(3)))
                        .one());
            }), unknown);
            return committed.orElseThrow(() -> new StoreUnavailableException(tr("The connection to the database "
                    + "was lost during the import; nothing was imported — run it again"), lost));
        }
    }

    private ImportCounts writeAll(Handle h, ImportKey key, Iterator<ImportRow> rows) {
        Writers.actAs(h, user, sessionId);
        Announcements.bulk(h); // one MANY for the whole import, not one notification per row
        long inserted = 0;
        long updated = 0;
        long unchanged = 0;
        List<ImportRow> batch = new ArrayList<>(BATCH_SIZE);
        while (rows.hasNext()) {
            batch.add(rows.next());
            if (batch.size() == BATCH_SIZE || !rows.hasNext()) {
                ImportCounts counts = writeBatch(h, key, batch);
                inserted += counts.inserted();
                updated += counts.updated();
                unchanged += counts.unchanged();
                batch.clear();
            }
        }
        if (inserted + updated > 0) {
            Announcements.many(h, inserted + updated, sessionId);
        }
        return new ImportCounts(inserted, updated, unchanged);
    }

    private ImportCounts writeBatch(Handle h, ImportKey key, List<ImportRow> batch) {
        Map<ImportRow, Customer> targets = targets(h, key, batch);
        refuseOverwrites(h, targets);
        List<CustomerData> inserts = new ArrayList<>();
        PreparedBatch update = h.prepareBatch(UPDATE_SQL);
        long unchanged = 0;
        for (ImportRow row : batch) {
            Customer target = targets.get(row);
            if (target == null) {
                inserts.add(row.data());
            } else if (target.data().sameValues(row.data())) {
                unchanged++; // a new version would only give its editors a conflict with nothing to merge
            } else {
                Writers.bindValues(update, row.data()).bind("id", target.id()).add();
            }
        }
        long updated = update.size();
        if (updated > 0) {
            update.execute();
        }
        insertAll(h, inserts);
        return new ImportCounts(inserts.size(), updated, unchanged);
    }

    /**
     * An import is a writer like any other: a keyed row must not replace a customer that changed since the file's
     * version of it (a lost update), nor one that another session holds locked for editing. Either refuses the whole
     * import, naming every row at fault.
     */
    private void refuseOverwrites(Handle h, Map<ImportRow, Customer> targets) {
        if (targets.isEmpty()) {
            return;
        }
        // The targets' rows are locked (targets()), so this read sees every lease granted before the import got its
        // locks, and none can be granted until it ends.
        Map<Long, LeaseInfo> locks = LeaseSql.liveOn(h, targets.values().stream().map(Customer::id).toList());
        List<String> problems = new ArrayList<>();
        boolean locked = false;
        for (Map.Entry<ImportRow, Customer> e : targets.entrySet().stream()
                .sorted(java.util.Comparator.comparingLong(t -> t.getKey().line())).toList()) {
            ImportRow row = e.getKey();
            Customer now = e.getValue();
            if (now.data().sameValues(row.data())) {
                continue; // nothing would be written, so nothing can be overwritten
            }
            LeaseInfo lock = locks.get(now.id());
            if (lock != null && !lock.sessionId().equals(sessionId)) {
                locked = true;
                problems.add("line " + row.line() + ": customer " + now.id() + " is locked for editing by "
                        + lock.holder() + " until " + lock.expiresAt());
            } else if (row.version() != null && row.version() != now.version()) {
                problems.add("line " + row.line() + ": customer " + now.id() + " changed since version "
                        + row.version() + " in the file: it is at version " + now.version() + " (saved by "
                        + now.updatedBy() + " at " + now.updatedAt() + ")");
            }
        }
        if (!problems.isEmpty()) {
            throw new org.lockstep.domain.ImportConflictException(problems, locked);
        }
    }

    /**
     * The existing customer each keyed row updates, locked until the transaction ends so that nobody deletes or
     * changes it between this read and the update; rows without one are absent.
     */
    private Map<ImportRow, Customer> targets(Handle h, ImportKey key, List<ImportRow> batch) {
        try {
            return lockTargets(h, key, batch);
        } catch (RuntimeException e) {
            if (!StoreErrors.isLockTimeout(e)) {
                throw e;
            }
            throw busy(key, batch, e);
        }
    }

    /** A keyed import gave up waiting for a customer's row (lock_timeout): which customer, line and holder. */
    private RecordBusyException busy(ImportKey key, List<ImportRow> batch, RuntimeException timeout) {
        return RowLockHolder.importBusy(jdbi, h -> linesById(h, key, batch), timeout);
    }

    /** The first line of {@code batch} that updates each existing customer, by the customer's id. */
    private static Map<Long, Long> linesById(Handle h, ImportKey key, List<ImportRow> batch) {
        Map<Long, Long> lineById = new HashMap<>();
        if (key == ImportKey.ID) {
            batch.stream().filter(r -> r.id() != null).forEach(r -> lineById.putIfAbsent(r.id(), r.line()));
        } else {
            Map<String, Long> ids = idsByExternalRef(h, batch.stream().map(r -> r.data().externalRef())
                    .filter(r -> r != null).toList());
            batch.stream().filter(r -> ids.containsKey(r.data().externalRef()))
                    .forEach(r -> lineById.putIfAbsent(ids.get(r.data().externalRef()), r.line()));
        }
        return lineById;
    }

    private Map<ImportRow, Customer> lockTargets(Handle h, ImportKey key, List<ImportRow> batch) {
        Map<ImportRow, Customer> targets = new HashMap<>();
        switch (key) {
            case NONE -> {}
            case EXTERNAL_REF -> {
                Map<String, Customer> byRef = new HashMap<>();
                h.createQuery("SELECT * FROM customer WHERE external_ref = ANY(:refs) FOR UPDATE")
                        .bindArray("refs", String.class, batch.stream().map(r -> r.data().externalRef())
                                .filter(r -> r != null).toList())
                        .map(mapper).forEach(c -> byRef.put(c.data().externalRef(), c));
                batch.stream().filter(r -> byRef.containsKey(r.data().externalRef()))
                        .forEach(r -> targets.put(r, byRef.get(r.data().externalRef())));
            }
            case ID -> {
                Map<Long, Customer> byId = new HashMap<>();
                h.createQuery("SELECT * FROM customer WHERE id = ANY(:ids) FOR UPDATE")
                        .bindArray("ids", Long.class, batch.stream().map(ImportRow::id).filter(id -> id != null)
                                .toList())
                        .map(mapper).forEach(c -> byId.put(c.id(), c));
                batch.stream().filter(r -> byId.containsKey(r.id())).forEach(r -> targets.put(r, byId.get(r.id())));
            }
        }
        return targets;
    }

    private void insertAll(Handle h, List<CustomerData> rows) {
        if (rows.isEmpty()) {
            return;
        }
        PreparedBatch insert = h.prepareBatch(INSERT_SQL);
        for (CustomerData data : rows) {
            Writers.bindValues(insert, data).add();
        }
        insert.execute();
    }

    /**
     * Which of the given external refs existing customers hold, and their ids.
     *
     * @return ref → customer id, for the refs in use
     */
    @Override
    public Map<String, Long> idsByExternalRef(Collection<String> refs) {
        return DatabaseCalls.read(() -> jdbi.withHandle(h -> idsByExternalRef(h, refs)));
    }

    private static Map<String, Long> idsByExternalRef(Handle h, Collection<String> refs) {
        Map<String, Long> ids = new HashMap<>();
        for (List<String> chunk : chunks(refs)) {
            h.createQuery("SELECT external_ref, id FROM customer WHERE external_ref = ANY(:refs)")
                    .bindArray("refs", String.class, chunk)
                    .map((rs, ctx) -> Map.entry(rs.getString(1), rs.getLong(2)))
                    .forEach(e -> ids.put(e.getKey(), e.getValue()));
        }
        return ids;
    }

    private static <T> List<List<T>> chunks(Collection<T> values) {
        List<T> all = new ArrayList<>(values);
        List<List<T>> chunks = new ArrayList<>();
        for (int i = 0; i < all.size(); i += BATCH_SIZE) {
            chunks.add(all.subList(i, Math.min(all.size(), i + BATCH_SIZE)));
        }
        return chunks;
    }

    /** Whether the {@code customer} table has no rows. */
    public boolean isEmpty() {
        return DatabaseCalls.read(() -> jdbi.withHandle(h -> isEmpty(h)));
    }

    private static boolean isEmpty(Handle h) {
        return !h.createQuery("SELECT EXISTS (SELECT 1 FROM customer)").mapTo(Boolean.class).one();
    }

    /**
     * Inserts the rows only when the {@code customer} table is empty, in one transaction that first takes the
     * transaction-level advisory lock {@code lockKey} (PostgreSQL docs, 13.3.5 Advisory Locks) and checks for
     * emptiness only then: of any number of clients starting at once on an empty database, exactly one inserts,
     * and the others wait for it, see its rows and insert nothing.
     *
     * @param lockKey an advisory lock key that every client loading these rows uses
     * @param rows    validated, normalized values
     * @return whether the rows were inserted
     * @throws org.lockstep.domain.StoreUnavailableException when the database cannot be reached or fails
     */
    public boolean insertIfEmpty(long lockKey, List<CustomerData> rows) {
        // Inserts only into an empty table, under a lock: repeated after a lost reply, it finds the rows and stops.
        return DatabaseCalls.repeatable(() -> jdbi.inTransaction(h -> {
            h.createQuery("SELECT pg_advisory_xact_lock(:key)").bind("key", lockKey).mapTo(String.class).one();
            if (!isEmpty(h)) {
                return false;
            }
            Writers.actAs(h, user);
            insertAll(h, rows);
            return true;
        }), tr("whether the sample customers were loaded is unknown"));
    }

    /**
     * Passes every customer, in id order, to {@code action}, reading {@value #FETCH_SIZE} rows per round trip
     * through a server-side cursor, so a table of any size streams in constant memory. The rows come from one
     * snapshot: a customer saved meanwhile appears once, as it was when the read began.
     *
     * @throws org.lockstep.domain.StoreUnavailableException when the database cannot be reached or fails;
     *         exceptions thrown by {@code action} pass through unchanged
     */
    @Override
    public void forEachCustomer(Consumer<Customer> action) {
        // Not repeated: the rows read before a lost connection were already passed on.
        DatabaseCalls.streamed(() -> {
            // pgjdbc fetches by cursor only inside a transaction (autocommit off); REPEATABLE READ holds one snapshot.
            jdbi.useTransaction(org.jdbi.v3.core.transaction.TransactionIsolationLevel.REPEATABLE_READ,
                    h -> h.createQuery("SELECT * FROM customer ORDER BY id").setFetchSize(FETCH_SIZE).map(mapper)
                            .useStream(s -> s.forEach(action)));
            return null;
        });
    }
}
