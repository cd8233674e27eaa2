package org.lockstep.store;

import com.zaxxer.hikari.HikariConfig;

/**
 * The settings every direct Lockstep session runs under, and how a pool's connections get them: server-side bounds
 * on every statement, lock wait and idle transaction, sent in the startup packet ({@link #serverTimeouts()}: no extra
 * round trip); the client's own bound on a silent server ({@link #SOCKET_TIMEOUT_S}); and a mark sent with them
 * ({@link #STARTUP_OPTIONS_MARK}) that each connection reads back at once, because a pooler may drop the startup
 * options without a word and leave a session with none of the bounds (issue 28; {@link ConnectionRefusals} then says
 * so in one sentence). Every statement and every wait is bounded: the pool of {@code Database} and other pools on
 * Lockstep's database (the contention lab's) are bounded alike ({@link #boundEveryStatement}).
 *
 * <p>Behind a transaction pooler reached with a listen URL of its own, a pool sends none of these (its server
 * connections are shared between clients): the server's role or database settings bound its statements instead
 * (docs/admin/team-roles.sql).
 */
public final class SessionSettings {

    /**
     * The longest any statement may run on the server before the server cancels it ({@code statement_timeout}, ms;
     * PostgreSQL docs, 20.11 "Client Connection Defaults"). A cancelled statement rolls its transaction back: it
     * never commits later. Work that is long by nature (VACUUM after a bulk load) lifts it for itself.
     */
    public static final int STATEMENT_TIMEOUT_MS = 10_000;

    /**
     * The longest a statement waits for a row or table lock ({@code lock_timeout}, ms): a save on a customer that an
     * open transaction holds (psql, a bulk import) gives up after this and says who holds it.
     */
    public static final int LOCK_TIMEOUT_MS = 4_000;

    /** An idle transaction left open (a crashed client mid-transaction) is ended after this, ms. */
    public static final int IDLE_IN_TRANSACTION_TIMEOUT_MS = 60_000;

    /**
     * The longest the client waits for any reply from the server (pgjdbc {@code socketTimeout}, s). Longer than
     * {@link #STATEMENT_TIMEOUT_MS}, so that a slow statement is ended by the server (a known outcome: nothing written)
     * before the client gives up on a silent one (a frozen server or network: the outcome of a write is then unknown).
     */
    public static final int SOCKET_TIMEOUT_S = 15;

    /**
     * How often a server of PostgreSQL 14 or later checks, while running a statement, that its client is still
     * there (ms): a statement whose client gave up stops instead of running — and perhaps committing — on.
     */
    public static final int CLIENT_CONNECTION_CHECK_MS = 2_000;

    /**
     * A setting of Lockstep's own that every direct connection sends among its startup options
     * ({@code -c lockstep.startup_options=on}, beside the statement and lock timeouts) and reads back at once with
     * {@link #STARTUP_OPTIONS_CHECK}. PostgreSQL takes a name with a dot as a custom setting of the session; a pooler
     * that drops the startup options (PgBouncer's {@code ignore_startup_parameters = …,options}) gives a server
     * session that does not have it, and reading it fails with SQLSTATE 42704 naming it.
     */
    public static final String STARTUP_OPTIONS_MARK = "lockstep.startup_options";

    /** The startup option that sets {@link #STARTUP_OPTIONS_MARK}, in pgjdbc's {@code options} syntax. */
    public static final String STARTUP_OPTIONS_MARK_OPTION = "-c " + STARTUP_OPTIONS_MARK + "=on";

    /**
     * An expression that fails (SQLSTATE 42704, "unrecognized configuration parameter "lockstep.startup_options"")
     * when the session did not get Lockstep's startup options (the name is quoted as the server's language quotes it:
     * «…» in Spanish).
     */
    public static final String STARTUP_OPTIONS_CHECK = "current_setting('" + STARTUP_OPTIONS_MARK + "')";

    private SessionSettings() {
    }

    /**
     * Bounds every statement and every wait of a pool's connections, as {@code Database}'s own pool is bounded: the
     * server settings of {@link #serverTimeouts()}, given in the startup packet's options (no extra round trip; a URL
     * that sets its own options keeps them), the client's {@link #SOCKET_TIMEOUT_S}, and the server's check that the
     * client is still there ({@link #CLIENT_CONNECTION_CHECK_MS}). A connection whose startup options a pooler
     * dropped fails its first statement ({@link #STARTUP_OPTIONS_CHECK}).
     */
    public static void boundEveryStatement(HikariConfig hc) {
        hc.addDataSourceProperty("options", serverTimeouts());
        hc.addDataSourceProperty("socketTimeout", Integer.toString(SOCKET_TIMEOUT_S));
        // Reading Lockstep's mark back fails when a pooler dropped the startup options (ConnectionRefusals says
        // so): then neither bound above holds. In the same round trip: a setting PostgreSQL 13 does not know would
        // refuse the connection if sent at startup, so it is set after.
        hc.setConnectionInitSql("SELECT " + STARTUP_OPTIONS_CHECK + ", CASE WHEN"
                + " current_setting('server_version_num')::int >= 140000 THEN set_config("
                + "'client_connection_check_interval', '" + CLIENT_CONNECTION_CHECK_MS + "', false) END");
    }

    /**
     * The server settings that bound every statement of a Lockstep session, as pgjdbc's {@code options} startup
     * parameter ({@code -c name=value …}), and Lockstep's mark ({@link #STARTUP_OPTIONS_MARK}) by which each
     * connection checks that they arrived: a pooler may drop them without a word (issue 28).
     */
    public static String serverTimeouts() {
        return "-c statement_timeout=" + STATEMENT_TIMEOUT_MS + " -c lock_timeout=" + LOCK_TIMEOUT_MS
                + " -c idle_in_transaction_session_timeout=" + IDLE_IN_TRANSACTION_TIMEOUT_MS + " "
                + STARTUP_OPTIONS_MARK_OPTION;
    }
}
