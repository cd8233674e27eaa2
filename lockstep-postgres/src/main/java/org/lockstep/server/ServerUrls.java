package org.lockstep.server;

/**
 * Where a client's connections go: the pool's URL and the URL of the one connection that LISTENs for changes. They are
 * the same unless the pool goes through a connection pooler in transaction pooling mode (PgBouncer
 * {@code pool_mode = transaction}), where a client's "connection" is a server connection only for one transaction at
 * a time, so that a session — LISTEN, a session-level setting, a prepared statement, a session advisory lock — does
 * not survive the transaction. Then (PgBouncer docs, "Feature matrix for pooling modes"):
 * <ul>
 *   <li>the listener connects to the server itself ({@code --listen-url});</li>
 *   <li>Flyway migrates over the listen URL too: it needs a session, and no statement timeout while it builds
 *       indexes;</li>
 *   <li>the pool sends no {@code options} at startup (PgBouncer 1.18 refuses the connection: "unsupported startup
 *       parameter: options") and runs no session-level init SQL: the server's settings for the database bound its
 *       statements instead ({@code ALTER DATABASE … SET statement_timeout}, docs/admin/team-roles.sql);</li>
 *   <li>statements are not prepared on the server ({@code prepareThreshold=0}): before PgBouncer 1.21 a prepared
 *       statement lives in one server connection and the next transaction may run on another ("prepared statement
 *       S_1 does not exist"). A URL that sets {@code prepareThreshold} itself keeps its value (PgBouncer ≥ 1.21 with
 *       {@code max_prepared_statements}).</li>
 * </ul>
 *
 * @param pool   the JDBC URL the pool connects to: the server, or PgBouncer in front of it
 * @param listen the JDBC URL of the server itself, for the change feed and migrations
 */
public record ServerUrls(String pool, String listen) {

    /** Both connections to one URL: no pooler in between. */
    public static ServerUrls direct(String url) {
        return new ServerUrls(url, url);
    }

    /** Whether the pool goes through a transaction-pooling PgBouncer: a listen URL other than the pool's. */
    public boolean throughPooler() {
        return !pool.equals(listen);
    }

    /**
     * The URL the pool uses: {@link #pool()}, with {@code prepareThreshold=0} added when it goes through a pooler and
     * does not set {@code prepareThreshold} itself.
     */
    public String poolJdbcUrl() {
        if (!throughPooler() || pool.contains("prepareThreshold=")) {
            return pool;
        }
        return pool + (pool.contains("?") ? "&" : "?") + "prepareThreshold=0";
    }
}
