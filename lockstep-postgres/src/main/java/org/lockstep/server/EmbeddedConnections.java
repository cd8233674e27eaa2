package org.lockstep.server;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Optional;
import java.util.Properties;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.lockstep.store.DiskFullConnectionException;

/**
 * New connections to the embedded server that bring the server back when it died under its clients: a connection
 * refused ({@code 08001}, pgjdbc's "Connection to 127.0.0.1:PORT refused") makes this client call
 * {@link EmbeddedServer#restartAfterCrash()} and try once more. The pool ({@link #dataSource(Properties)}) and the
 * change feed ({@link #connect(Properties)}) of one {@link Database} share it, so whichever notices first restarts the
 * server and the other finds it running. The port stays the same when it is still free; when it is not, the new one
 * is used from then on.
 *
 * <p>On a disk too full for the server, no restart is tried until there is room
 * ({@link EmbeddedServer#restartAfterCrash()}), and the connection fails with a {@link DiskFullConnectionException}
 * that names the disk, as does a server that keeps recovering from a crash on a full disk ({@code 57P03}).
 */
final class EmbeddedConnections {

    /** pgjdbc's SQLState for a connection that could not be made at all (PSQLState.CONNECTION_UNABLE_TO_CONNECT). */
    private static final String UNABLE_TO_CONNECT = "08001";

    /**
     * PostgreSQL's {@code cannot_connect_now}: the server is starting, shutting down or recovering from a crash — on a
     * full disk, over and over ({@link DataDisk}).
     */
    private static final String CANNOT_CONNECT_NOW = "57P03";

    private final EmbeddedServer server;
    private final String database;
    private volatile String url;

    /**
     * @param server   the embedded server
     * @param database the database on it the connections are to ({@link EmbeddedServer#DATABASE}, or the demo's)
     * @param endpoint where the server was when the client connected
     */
    EmbeddedConnections(EmbeddedServer server, String database, EmbeddedServer.Endpoint endpoint) {
        this.server = server;
        this.database = database;
        this.url = endpoint.jdbcUrl(database);
    }

    /** The database these connections are to. */
    String database() {
        return database;
    }

    /**
     * A new connection with these pgjdbc properties (user, password, ApplicationName, timeouts).
     *
     * @throws SQLException when the server cannot be reached, or was stopped on purpose, or cannot be restarted
     */
    Connection connect(Properties properties) throws SQLException {
        try {
            return DriverManager.getConnection(url, properties);
        } catch (SQLException refused) {
            if (CANNOT_CONNECT_NOW.equals(refused.getSQLState())) {
                throw server.fullDisk().<SQLException>map(sentence -> new DiskFullConnectionException(sentence,
                        refused)).orElse(refused);
            }
            if (!UNABLE_TO_CONNECT.equals(refused.getSQLState())) {
                throw refused;
            }
            Optional<EmbeddedServer.Endpoint> restarted;
            try {
                restarted = server.restartAfterCrash();
            } catch (ServerDiskFullException full) {
                throw new DiskFullConnectionException(full.getMessage(), refused);
            } catch (RuntimeException e) {
                refused.addSuppressed(e);
                throw refused;
            }
            if (restarted.isEmpty()) {
                throw refused; // stopped on purpose: it stays stopped until a Lockstep command starts it
            }
            url = restarted.get().jdbcUrl(database);
            return DriverManager.getConnection(url, properties);
        }
    }

    /**
     * The same as a {@link DataSource} for HikariCP, connecting with {@code properties} plus the user and password
     * the pool asks for.
     */
    DataSource dataSource(Properties properties) {
        return new RestartingDataSource(properties);
    }

    private final class RestartingDataSource implements DataSource {
        private final Properties properties;
        private volatile PrintWriter logWriter;
        private volatile int loginTimeout;

        RestartingDataSource(Properties properties) {
            this.properties = properties;
        }

        @Override
        public Connection getConnection() throws SQLException {
            return connect(properties);
        }

        @Override
        public Connection getConnection(String user, String password) throws SQLException {
            Properties withUser = new Properties();
            withUser.putAll(properties);
            if (user != null) {
                withUser.setProperty("user", user);
            }
            if (password != null) {
                withUser.setProperty("password", password);
            }
            return connect(withUser);
        }

        @Override
        public PrintWriter getLogWriter() {
            return logWriter;
        }

        @Override
        public void setLogWriter(PrintWriter out) {
            logWriter = out;
        }

        @Override
        public void setLoginTimeout(int seconds) {
            loginTimeout = seconds;
        }

        @Override
        public int getLoginTimeout() {
            return loginTimeout;
        }

        @Override
        public Logger getParentLogger() throws SQLFeatureNotSupportedException {
            throw new SQLFeatureNotSupportedException("no java.util.logging parent logger");
        }

        @Override
        public <T> T unwrap(Class<T> type) throws SQLException {
            if (type.isInstance(this)) {
                return type.cast(this);
            }
            throw new SQLException("Not a wrapper of " + type.getName());
        }

        @Override
        public boolean isWrapperFor(Class<?> type) {
            return type.isInstance(this);
        }
    }
}
