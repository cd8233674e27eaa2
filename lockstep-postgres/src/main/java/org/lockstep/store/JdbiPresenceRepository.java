package org.lockstep.store;

import static org.lockstep.text.Texts.tr;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jdbi.v3.core.Jdbi;
import org.lockstep.domain.Presence;
import org.lockstep.domain.PresenceRepository;

/**
 * Presence rows in {@code presence} (V6__presence.sql, V15__clock_after_wait.sql). Expiry is set and compared with
 * {@code clock_timestamp()}, the database clock at that moment, never a client's: not {@code now()}, the start of the
 * transaction, which is earlier by any lock wait. A heartbeat is one statement: the expired rows of other sessions are deleted in a
 * data-modifying CTE (their trigger tells listeners that a crashed client left) while this session's rows are
 * upserted from two parallel arrays.
 */
public final class JdbiPresenceRepository implements PresenceRepository {

    /** How long a row lives without a heartbeat: three heartbeats of 10 s. */
    public static final Duration DEFAULT_TTL = Duration.ofSeconds(30);

    // DO UPDATE reads the clock itself, after it holds the existing row's lock; excluded.expires_at was computed
    // before any wait for that lock, and would shorten the row's life by the wait.
    private static final String HEARTBEAT = """
            INSERT INTO presence AS p (session_id, user_name, customer_id, state, expires_at)
            SELECT :session, :user, t.customer_id, t.state,
                   clock_timestamp() + make_interval(secs => :ttlMs / 1000.0)
            FROM unnest(:ids, :states) AS t(customer_id, state)
            ON CONFLICT (customer_id, login, session_id) DO UPDATE
                SET state = excluded.state, user_name = excluded.user_name,
                    expires_at = clock_timestamp() + make_interval(secs => :ttlMs / 1000.0)
            """;

    // Other sessions' expired rows, in a transaction of their own that never waits (SKIP LOCKED: a row another
    // heartbeat is clearing or reviving is left to it). In the heartbeat's transaction, clearing held its locks while
    // the upsert waited for a row another heartbeat was clearing, which waited in turn: with 100 clients whose rows had
    // expired at once, "deadlock detected" (bench operators; PresenceHeartbeatContentionTest).
    private static final String CLEAR_EXPIRED = """
            DELETE FROM presence WHERE (customer_id, session_id) IN (
                SELECT customer_id, session_id FROM presence
                WHERE expires_at <= clock_timestamp() AND session_id <> :session
                FOR UPDATE SKIP LOCKED)
            """;

    private final Jdbi jdbi;
    private final String user;
    private final String session;
    private final Duration ttl;

    /**
     * @param jdbi    the database
     * @param user    the operator's name, shown to others
     * @param session this client's session id (the same as its customer and lease repositories')
     * @param ttl     how long a row lives without a heartbeat
     */
    public JdbiPresenceRepository(Jdbi jdbi, String user, String session, Duration ttl) {
        this.jdbi = jdbi;
        this.user = user;
        this.session = session;
        this.ttl = ttl;
    }

    @Override
    public String sessionId() {
        return session;
    }

    @Override
    public void heartbeat(Map<Long, Presence.State> open) {
        List<Long> ids = new ArrayList<>(open.keySet());
        String[] states = ids.stream().map(id -> open.get(id).column()).toArray(String[]::new);
        // Both safe to repeat: a delete of rows nobody revives, an upsert of this session's rows.
        DatabaseCalls.repeatable(() -> jdbi.withHandle(h -> h.createUpdate(CLEAR_EXPIRED).bind("session", session)
                .execute()), tr("whether expired presence was cleared is unknown"));
        DatabaseCalls.repeatable(() -> jdbi.withHandle(h -> h.createUpdate(HEARTBEAT)
                .bind("session", session).bind("user", user).bind("ttlMs", ttl.toMillis())
                .bind("ids", ids.stream().mapToLong(Long::longValue).toArray())
                .bind("states", states)
                .execute()), tr("whether presence was recorded is unknown"));
    }

    @Override
    public void leave(long customerId) {
        DatabaseCalls.repeatable(() -> jdbi.withHandle(h -> h.createUpdate(
                "DELETE FROM presence WHERE customer_id = :id AND session_id = :session")
                .bind("id", customerId).bind("session", session).execute()),
                tr("whether presence was cleared is unknown"));
    }

    @Override
    public void leaveAll() {
        DatabaseCalls.repeatable(() -> jdbi.withHandle(h -> h.createUpdate(
                "DELETE FROM presence WHERE session_id = :session")
                .bind("session", session).execute()), tr("whether presence was cleared is unknown"));
    }

    @Override
    public List<Presence> present() {
        return DatabaseCalls.read(() -> jdbi.withHandle(h -> h.createQuery("""
                        SELECT customer_id, session_id, user_name, state FROM presence
                        WHERE expires_at > clock_timestamp() ORDER BY customer_id, user_name, session_id
                        """)
                .map((rs, ctx) -> new Presence(rs.getLong("customer_id"), rs.getString("session_id"),
                        rs.getString("user_name"), Presence.State.byColumn(rs.getString("state"))))
                .list()));
    }
}
