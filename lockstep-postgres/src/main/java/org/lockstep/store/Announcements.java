package org.lockstep.store;

import org.jdbi.v3.core.Handle;

/**
 * Change notifications that Lockstep's writers send themselves instead of the notify trigger (V16): a versioned save
 * announces its change right after its commit, and a bulk writer announces one {@code MANY} for its whole transaction.
 * The payload is the trigger's (V4__notify.sql): identifiers only, never the row.
 *
 * <p>Why a save does not let the trigger notify: a transaction that notified holds one database-wide lock from its
 * commit until its commit record is on disk (PostgreSQL source, async.c, {@code PreCommit_Notify}), so saves that
 * notify inside their transaction cannot share a disk flush and run one after another. The announcement after the
 * commit is a transaction of its own that writes nothing, so it need not wait for the disk ({@code
 * synchronous_commit = off} for it alone; PostgreSQL docs, 30.4 "Asynchronous Commit"): nothing durable is at stake.
 * The price: a client that dies between its commit and its announcement leaves other clients unaware of that one
 * change until they read the row again or resync; a save that then meets it is a conflict, as ever, never a lost
 * update.
 */
final class Announcements {

    private static final String PAYLOAD = "json_build_object('table', 'customer', 'id', :id, 'version', :version, "
            + "'op', :op, 'session', :session)::text";
    private static final String BULK = "SELECT " + WriteProtocol.ANNOUNCES_BULK;
    private static final String MANY = "SELECT pg_notify('" + PgChangeFeed.CHANNEL + "', " + PAYLOAD + ")";

    private Announcements() {
    }

    /**
     * Announces a committed change of one customer: queued for {@code h}'s {@link Announcer}, which sends it from a
     * thread of its own, so the caller does not wait for it. A failure to send is logged and swallowed: the change is
     * committed whatever happens to its announcement.
     *
     * @param op {@code INSERT}, {@code UPDATE} or {@code DELETE}
     */
    static void afterCommit(Handle h, long id, long version, String op, String session) {
        Announcer.of(h.getJdbi()).announce(id, version, op, session);
    }

    /** Stops the notify trigger for the rest of {@code h}'s transaction: the writer will announce {@link #many}. */
    static void bulk(Handle h) {
        h.createQuery(BULK).mapTo(Boolean.class).one();
    }

    /**
     * Announces, inside the writer's transaction (delivered at its commit), that {@code rows} customers changed:
     * one {@code MANY} event (id 0, version: the number of rows) instead of one per row.
     */
    static void many(Handle h, long rows, String session) {
        h.createQuery(MANY).bind("id", 0L).bind("version", rows).bind("op", "MANY").bind("session", session)
                .mapTo(String.class).one();
    }
}
