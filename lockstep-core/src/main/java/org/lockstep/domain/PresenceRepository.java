package org.lockstep.domain;

import java.util.List;
import java.util.Map;

/**
 * Who has which customer open. A client heartbeats its open customers every few seconds; each row lives
 * for a TTL by the database clock unless heartbeated again, and readers ignore expired rows, so a crashed client is
 * gone within the TTL. Acts as one client session.
 */
public interface PresenceRepository {

    /** The client session these rows belong to. */
    String sessionId();

    /**
     * Marks every customer in {@code open} as open by this session, in the given state, until the TTL from now by the
     * database clock — one statement for the whole batch. Also deletes any session's expired rows, so that listeners
     * hear a crashed client leave.
     *
     * @param open customer id → state; empty does nothing but the clean-up
     * @throws StoreUnavailableException when the database cannot be reached
     */
    void heartbeat(Map<Long, Presence.State> open);

    /** This session closed the customer: its row goes at once. */
    void leave(long customerId);

    /** This session closes: all its rows go. */
    void leaveAll();

    /** Every unexpired presence, on any customer, by any session (including this one). */
    List<Presence> present();
}
