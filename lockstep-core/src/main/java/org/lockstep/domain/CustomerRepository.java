package org.lockstep.domain;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * Where customers are kept. Every method talks to the database and may block: call it off the JavaFX thread.
 * Each method runs in its own short transaction. Implementations write the acting user's name into
 * {@code updated_by} and take every timestamp from the database clock.
 *
 * <p>Methods throw {@link StoreUnavailableException} when the database cannot be reached or fails; nothing
 * was written then.
 */
public interface CustomerRepository {

    /** The customer as stored now, or empty when no such id exists. */
    Optional<Customer> find(long id);

    /**
     * Inserts a customer at version 1.
     *
     * @throws InvalidCustomerException when the values break a rule (see {@link CustomerValidator})
     */
    Customer create(CustomerData data);

    /**
     * Inserts a customer at version 1 as {@link #create(CustomerData)} does, under a request id the caller chose and
     * may send again, even from another process: a client that ended with a new customer's draft whose create may
     * have committed (issue 28). A create whose request id already made a customer makes none and returns that one
     * as it stands now, so such a create happens once however often it is sent.
     *
     * @param request the create's id: the same for the same create, never shared by two different ones
     * @throws InvalidCustomerException when the values break a rule (see {@link CustomerValidator})
     * @throws OutcomeUnknownException  when {@code request} made a customer that was deleted since
     */
    Customer create(CustomerData data, UUID request);

    /**
     * The customer a create under {@code request} made ({@link #create(CustomerData, UUID)}), as it stands now; empty
     * when no create under it committed, or the customer it made was deleted since.
     */
    Optional<Customer> createdBy(UUID request);

    /**
     * A versioned save: one {@code UPDATE … WHERE id = :id AND version = :baseVersion RETURNING *}, which also
     * refuses to write while another session holds an unexpired lease on the record.
     *
     * @param baseVersion the version the edits are based on
     * @return {@link SaveOutcome.Saved} with the new row (version = base + 1); {@link SaveOutcome.Conflict} with what
     *         the database holds now when the version moved on or the row is gone; {@link SaveOutcome.Locked} when
     *         another session holds the record's lease
     * @throws InvalidCustomerException when the values break a rule
     */
    SaveOutcome save(long id, long baseVersion, CustomerData data);

    /**
     * A versioned save under a lease: the same statement also checks, in SQL against the database clock once it holds
     * the lease's row ({@code clock_timestamp()}), that {@code leaseToken} is the record's unexpired lease (fencing,
     * DDIA ch. 8).
     *
     * @return as {@link #save(long, long, CustomerData)}, or {@link SaveOutcome.LeaseLost} when the token is stale
     */
    SaveOutcome saveUnderLease(long id, long baseVersion, CustomerData data, long leaseToken);

    /**
     * Last write wins (unsafe): the lost-update bug, on purpose, for teaching only — the trainer's "Last write wins
     * (unsafe)" mode (ADR 0008) uses it to show what the version check prevents. It is the "last write wins" of PoEAA
     * (ch. 5, Concurrency: the lost update) and DDIA (ch. 7, Preventing Lost Updates): a blind write, one auto-commit
     * {@code UPDATE customer SET <every editable field> … WHERE id = :id RETURNING *} with NO version check, so
     * whatever another operator saved after this one read the record is overwritten field by field, without any
     * error. The database still raises the version and records the change in the history, so the loss shows
     * afterwards. Like {@link #save}, it refuses to write while another session holds an unexpired lease on the
     * record: the unsafe mode never breaks a lock for editing. Never use it for real work.
     *
     * @return {@link SaveOutcome.Saved} with the new row (version = the stored version + 1, whatever the caller read);
     *         {@link SaveOutcome.Locked} when another session holds the record's lease (nothing written);
     *         {@link SaveOutcome.Conflict} with empty theirs when the row is gone (nothing written)
     * @throws InvalidCustomerException when the values break a rule
     */
    SaveOutcome overwrite(long id, CustomerData data);

    /**
     * A versioned delete: {@code DELETE … WHERE id = :id AND version = :baseVersion}, refused while another session
     * holds the record's lease.
     */
    DeleteOutcome delete(long id, long baseVersion);

    /** A versioned delete under a lease, fenced like {@link #saveUnderLease}. */
    DeleteOutcome deleteUnderLease(long id, long baseVersion, long leaseToken);

    /** The client session (or one editor's writer id) this repository writes as; leases it holds name it. */
    String sessionId();

    /**
     * The same store writing as {@code writerId}: its writes carry that id ({@code lockstep.session}, which change
     * notifications tell), only a lease held by that id lets them past, and a lease held by any other id — another
     * window of the same operator included — refuses them. Each editor writes as a writer id of its own
     * (docs/decisions/0012-one-writer-per-editor.md). Wrappers wrap the derived store the same way.
     */
    CustomerRepository asWriter(String writerId);

    /**
     * The same store whose saves — {@link #save}, {@link #saveUnderLease} and {@link #overwrite} — are recorded in the
     * history as restoring {@code version} of the customer they save ({@link HistoryEntry#restoredFrom()}): "Restore
     * this version" and {@code lockstep restore} save an earlier version's values through it. The store refuses a save
     * naming a version the customer's history does not hold with values (never one, or only its deletion) and writes
     * nothing ({@link StoreUnavailableException}). Creates and deletes are as this store's. Use it for the restore's
     * save only; a save whose outcome was unknown may be repeated through either store with the same request id.
     *
     * @param version the version restored, at least 1
     * @throws IllegalArgumentException when {@code version} is below 1
     */
    CustomerRepository restoring(long version);

    /** One page of the list, in the requested order. */
    default List<Customer> page(CustomerPageRequest request) {
        return page(request, CancelSignal.NONE);
    }

    /**
     * One page of the list, in the requested order; {@code cancel} stops the database working on it.
     *
     * @throws ReadCancelledException when {@code cancel} was cancelled before the page was read
     */
    List<Customer> page(CustomerPageRequest request, CancelSignal cancel);

    /**
     * How many customers match a search, counting for at most about {@code budgetMs} milliseconds.
     *
     * @param search as in {@link CustomerPageRequest#search()}
     */
    default CustomerCount count(String search, long budgetMs) {
        return count(search, budgetMs, CancelSignal.NONE);
    }

    /**
     * As {@link #count(String, long)}; {@code cancel} stops the database working on it.
     *
     * @throws ReadCancelledException when {@code cancel} was cancelled before the count was read
     */
    CustomerCount count(String search, long budgetMs, CancelSignal cancel);

    /**
     * How many conflicts the customer met within the last {@code window}, by the database clock: every
     * {@link SaveOutcome.Conflict} and {@link DeleteOutcome.Conflict} the versioned saves and deletes of any session
     * returned for it (read for {@link HotRecordAdvice}). Records of a deleted customer still count.
     *
     * @param window how far back from the database's {@code now()}; positive
     * @return the count, 0 when none (or no such customer)
     */
    int recentConflicts(long id, Duration window);

    /**
     * Records for the conflict report that a merge after a conflict was saved as {@code version} of customer
     * {@code id}, by this writer (its name and {@link #sessionId()}). Best effort: the save it is about is already
     * committed, so a failure to record is logged and never thrown.
     */
    void recordMergeSaved(long id, long version);

    /**
     * Records for the conflict report that the operator abandoned a merge of customer {@code id} (discarded their
     * changes in the merge dialog). Best effort, as {@link #recordMergeSaved}: logged, never thrown.
     */
    void recordMergeAbandoned(long id);
}
