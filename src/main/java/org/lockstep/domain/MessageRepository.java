package org.lockstep.domain;

import java.util.List;

/** Messages between client sessions about a customer (issue 5); acts as one client session and operator. */
public interface MessageRepository {

    /**
     * Sends {@code text} to the session {@code toSession} (e.g. a lease holder's), about {@code customerId}.
     *
     * @return the message as stored, with its database-clock time
     * @throws IllegalArgumentException when the text is empty or too long ({@link Message#checkedText})
     * @throws StoreUnavailableException when the database cannot be reached
     */
    Message send(String toSession, long customerId, String text);

    /** Messages to this session about {@code customerId} with an id above {@code afterId}, oldest first. */
    List<Message> received(long customerId, long afterId);
}
