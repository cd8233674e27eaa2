package org.lockstep.domain;

import java.util.List;
import java.util.Optional;

/**
 * Leases on customers: one editor's exclusive right to save a record for a while (PoEAA, Pessimistic Offline Lock),
 * with fencing tokens (DDIA ch. 8). Every expiry is set and judged by the database clock at the moment the
 * operation takes effect ({@code clock_timestamp()}, read once the lease's row is held: an operation that waited for
 * a lock is judged by when it got it); a client whose clock is wrong by an hour changes nothing. Methods block: call them off the JavaFX thread. They throw
 * {@link StoreUnavailableException} when the database fails.
 */
public interface LeaseRepository {

    /** This client session's id (or one editor's writer id), recorded in the leases it holds. */
    String sessionId();

    /**
     * The same store acting as {@code writerId}: the leases it takes are held by that id, and only it renews,
     * releases or saves under them; for every other id — another editor of the same operator included — they are
     * someone else's (docs/decisions/0012-one-writer-per-editor.md).
     */
    LeaseRepository asWriter(String writerId);

    /**
     * Takes the lease in ONE statement: granted when nobody holds it, when its lease expired, or when this session
     * holds it already (then with a new token); otherwise tells who holds it.
     *
     * @param ttlMs how long the lease lasts unless renewed, in ms
     */
    AcquireOutcome acquire(long recordId, long ttlMs);

    /**
     * Extends the lease by {@code ttlMs} from the database's now, if the token is still the record's unexpired lease;
     * "now" is the moment the renewal holds the lease's row, so a wait for that row neither shortens the renewed lease
     * nor revives one that lapsed meanwhile.
     *
     * @return the renewed lease, or empty when it was lost (expired and taken, broken, or released)
     */
    Optional<Lease> renew(long recordId, long token, long ttlMs);

    /** Gives the lease up, if the token is still the record's lease. @return whether it was released */
    boolean release(long recordId, long token);

    /**
     * Breaks whatever lease the record has, recording who broke it. A supervisor's: the database refuses anyone else.
     *
     * @return the broken lease, or empty when none was held
     * @throws NotPermittedException when this operator is not a supervisor; nothing was broken
     */
    Optional<LeaseInfo> breakLease(long recordId);

    /** Records that this session noticed it lost the lease with this token (the editor turned read-only). */
    void recordLost(long recordId, long token);

    /** The record's unexpired lease, if any. */
    Optional<LeaseInfo> holder(long recordId);

    /** Every unexpired lease. */
    List<LeaseInfo> active();

    /** The audit trail of a record, oldest first. */
    List<LeaseEvent> events(long recordId);
}
