package org.lockstep.server;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;
import org.lockstep.store.SessionSettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks, once per client, that statements through a transaction-pooling PgBouncer are bounded as a direct connection's
 * are. Such a pool can send no session settings of its own ({@link ServerUrls}), so the bounds must come from the
 * server's settings for the database or the role ({@code ALTER DATABASE lockstep SET statement_timeout = '10s'},
 * docs/admin/team-roles.sql);
 * without them a save on a row held in psql would wait as long as psql holds it. The client still works: this warns in
 * the log, naming the settings and the statement that fixes them.
 */
final class PoolerSessionCheck {

    private static final Logger LOG = LoggerFactory.getLogger(PoolerSessionCheck.class);

    private PoolerSessionCheck() {
    }

    /** Logs a warning when the pool's statements run without a statement or lock timeout. */
    static void warnIfUnbounded(DataSource pool) {
        try (Connection c = pool.getConnection(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT current_user, current_setting('statement_timeout'),"
                        + " current_setting('lock_timeout'), current_setting('idle_in_transaction_session_timeout'),"
                        + " current_database()")) {
            rs.next();
            if ("0".equals(rs.getString(2)) || "0".equals(rs.getString(3)) || "0".equals(rs.getString(4))) {
                LOG.warn("Through the connection pooler, statements of role {} are not bounded (statement_timeout {},"
                        + " lock_timeout {}, idle_in_transaction_session_timeout {}); an administrator should run"
                        + " ALTER DATABASE {} SET statement_timeout = '{}ms'; ALTER DATABASE … SET lock_timeout ="
                        + " '{}ms'; ALTER DATABASE … SET idle_in_transaction_session_timeout = '{}ms'"
                        + " (docs/admin/team-roles.sql)",
                        rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5),
                        SessionSettings.STATEMENT_TIMEOUT_MS, SessionSettings.LOCK_TIMEOUT_MS,
                        SessionSettings.IDLE_IN_TRANSACTION_TIMEOUT_MS);
            }
        } catch (SQLException e) {
            LOG.warn("Could not check the statement bounds through the connection pooler: {}", e.getMessage());
        }
    }
}
