package org.lockstep.domain;

import java.time.Instant;
import java.util.List;

/**
 * Messages between client sessions about a customer; acts as one client session (or one editor's writer id)
 * and operator.
 */
public interface MessageRepository {

    /**
     * Sends {@code text} to the session {@code toSession} (e.g. a lease holder's: the writer id of the editor holding
     * it), about {@code customerId}.
     *
     * @return the message as stored, with its database-clock time
     * @throws IllegalArgumentException when the text is empty or too long ({@link Message#checkedText})
     * @throws StoreUnavailableException when the database cannot be reached
     */
    Message send(String toSession, long customerId, String text);

    /**
     * Sends {@code text} to every supervisor ("Ask a supervisor…"): an operator who may not break a lock asks one to,
     * about {@code customerId}.
     *
     * @return the message as stored, with its database-clock time
     * @throws IllegalArgumentException when the text is empty or too long ({@link Message#checkedText})
     * @throws StoreUnavailableException when the database cannot be reached
     */
    Message askSupervisors(long customerId, String text);

    /**
     * The messages to supervisors with an id above {@code afterId}, about any customer, oldest first: empty unless this
     * operator is a supervisor.
     */
    List<Message> supervisorRequests(long afterId);

    /**
     * The messages to supervisors sent at or after {@code since} (by the store's clock), about any customer, oldest
     * first — at most the newest {@link #MAX_REQUESTS}: empty unless this operator is a supervisor. What a supervisor's
     * window shows at start; later ones arrive by {@link #supervisorRequests(long)}.
     */
    List<Message> supervisorRequestsSince(Instant since);

    /** The most requests one read of {@link #supervisorRequests} or {@link #supervisorRequestsSince} returns. */
    int MAX_REQUESTS = 200;

    /** Messages to this session about {@code customerId} with an id above {@code afterId}, oldest first. */
    List<Message> received(long customerId, long afterId);

    /**
     * The same store acting as {@code writerId}: it sends from that id and receives what was sent to it — to the
     * editor holding a lease, whose writer id the lease names (docs/decisions/0012-one-writer-per-editor.md).
     */
    MessageRepository asWriter(String writerId);
}
