package org.lockstep.testing.db;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import org.lockstep.server.Database;

/**
 * Makes a test database unreachable and brings it back, for real: the server refuses new connections to it
 * ({@code ALTER DATABASE … ALLOW_CONNECTIONS false}, which binds superusers too) and every open connection is
 * terminated. The pool then fails exactly as it does when the server is down.
 */
public final class DatabaseOutage {

    private final Database db;
    private final String name;

    private DatabaseOutage(Database db, String name) {
        this.db = db;
        this.name = name;
    }

    /** An outage switch for the database behind {@code db}. */
    public static DatabaseOutage of(Database db) {
        return new DatabaseOutage(db, db.jdbi().withHandle(h -> h.createQuery("SELECT current_database()")
                .mapTo(String.class).one()));
    }

    /** Refuses new connections and terminates the open ones. */
    public void cut() {
        admin("ALTER DATABASE " + name + " ALLOW_CONNECTIONS false", true);
    }

    /**
     * Refuses new connections and terminates only the open ones of one application, as
     * {@code pg_stat_activity.application_name} shows it (e.g. "Lockstep live updates"): the other clients' open
     * connections keep working, so a test can write while that application is cut off.
     */
    public void cut(String applicationName) {
        admin("ALTER DATABASE " + name + " ALLOW_CONNECTIONS false", false);
        TestDatabases.Server s = TestDatabases.server();
        try (Connection c = DriverManager.getConnection(s.url("postgres"), s.user(), s.password());
                PreparedStatement kill = c.prepareStatement("SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                        + " WHERE datname = ? AND application_name = ?")) {
            kill.setString(1, name);
            kill.setString(2, applicationName);
            kill.execute();
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot cut " + applicationName + " off " + name + ": " + e.getMessage(),
                    e);
        }
    }

    /**
     * Accepts connections again. The pool's idle connections died in the outage; HikariCP would find that out by
     * validating any connection idle for more than 500 ms before lending it, as an operator's retry would be. A test
     * retries at once, so the pool is told now.
     */
    public void restore() {
        admin("ALTER DATABASE " + name + " ALLOW_CONNECTIONS true", false);
        ((HikariDataSource) db.dataSource()).getHikariPoolMXBean().softEvictConnections();
    }

    private void admin(String sql, boolean terminate) {
        TestDatabases.Server s = TestDatabases.server();
        try (Connection c = DriverManager.getConnection(s.url("postgres"), s.adminUser(), s.adminPassword());
                Statement st = c.createStatement()) {
            st.execute(sql);
            if (terminate) {
                try (PreparedStatement kill = c.prepareStatement(
                        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = ?")) {
                    kill.setString(1, name);
                    kill.execute();
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot switch database " + name + ": " + e.getMessage(), e);
        }
    }
}
