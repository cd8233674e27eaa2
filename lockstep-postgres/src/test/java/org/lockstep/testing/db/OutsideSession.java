package org.lockstep.testing.db;

import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Properties;
import org.jdbi.v3.core.Jdbi;

/**
 * A session outside Lockstep — psql, here a plain JDBC connection named "psql (test blocker)" — that holds a row lock
 * in an open transaction, and a wait for the sessions queued behind it.
 */
public final class OutsideSession {

    private OutsideSession() {
    }

    /**
     * Opens a connection to {@code database} on the test server and runs {@code lockSql} (one {@code ?}: {@code id})
     * in a transaction left open; the caller commits or closes it.
     */
    public static Connection holding(String database, String lockSql, long id) throws SQLException {
        Connection psql = open(database);
        try (PreparedStatement ps = psql.prepareStatement(lockSql)) {
            ps.setLong(1, id);
            ps.executeQuery().close();
        }
        return psql;
    }

    /**
     * Opens a session on {@code database} that holds the customer table, as psql's
     * {@code BEGIN; LOCK TABLE customer IN ACCESS EXCLUSIVE MODE;}: every read of it waits. The caller ends it.
     */
    public static Connection holdingCustomerTable(String database) throws SQLException {
        Connection psql = open(database);
        psql.createStatement().execute("LOCK TABLE customer IN ACCESS EXCLUSIVE MODE");
        return psql;
    }

    /** Waits until {@code n} sessions of the database behind {@code jdbi} wait for a lock (wait_event_type). */
    public static void awaitLockWaiters(Jdbi jdbi, int n) {
        await().atMost(Duration.ofSeconds(3)).until(() -> lockWaiters(jdbi) == n);
    }

    /** How many sessions of the database behind {@code jdbi} wait for a lock now. */
    public static int lockWaiters(Jdbi jdbi) {
        return jdbi.withHandle(h -> h.createQuery("SELECT count(*) FROM pg_stat_activity"
                + " WHERE datname = current_database() AND wait_event_type = 'Lock'").mapTo(Integer.class).one());
    }

    /**
     * How many sessions of {@code database} wait for a lock now, asked on a connection of its own: for a test whose
     * pool may be all taken by the waiting reads it counts.
     */
    public static int lockWaiters(String database) throws SQLException {
        try (Connection c = open(database); var st = c.createStatement(); var rs = st.executeQuery(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                        + " AND wait_event_type = 'Lock'")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    private static Connection open(String database) throws SQLException {
        TestDatabases.Server s = TestDatabases.server();
        Properties props = new Properties();
        props.setProperty("user", s.user());
        if (s.password() != null) {
            props.setProperty("password", s.password());
        }
        props.setProperty("ApplicationName", "psql (test blocker)");
        Connection psql = DriverManager.getConnection(s.url(database), props);
        psql.setAutoCommit(false);
        return psql;
    }
}
