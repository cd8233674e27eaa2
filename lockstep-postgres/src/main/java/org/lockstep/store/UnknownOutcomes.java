package org.lockstep.store;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.OutcomeUnknownException;

/**
 * The writes of one session whose outcome is unknown (the connection was lost after they reached the database, and
 * stayed lost), each with the request id it was sent with. When the same write is asked for again — the operator
 * presses Save again once the database is back — it is sent with that same request id, so it recognises itself if
 * the first attempt did commit instead of meeting itself as a conflict. Any known outcome forgets it.
 */
final class UnknownOutcomes {

    /**
     * A write, by what it asks for.
     *
     * @param op   "create", "save" or "delete"
     * @param id   the customer, 0 for a create
     * @param base the version it is based on, 0 for a create
     * @param data the values (normalized), null for a delete
     */
    record Write(String op, long id, long base, CustomerData data) {
    }

    private final Map<Write, String> pending = new ConcurrentHashMap<>();

    /** The request id to send {@code write} with: the one of its earlier unknown attempt, else a new one. */
    String requestFor(Write write) {
        String earlier = pending.get(write);
        return earlier != null ? earlier : RequestIds.next();
    }

    /** Runs the write; remembers its request id when the outcome is unknown, forgets it otherwise. */
    <T> T settle(Write write, String request, Supplier<T> body) {
        try {
            T outcome = body.get();
            pending.remove(write);
            return outcome;
        } catch (OutcomeUnknownException e) {
            pending.put(write, request);
            throw e;
        } catch (RuntimeException e) {
            pending.remove(write);
            throw e;
        }
    }
}
