package org.lockstep.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;
import org.lockstep.domain.ChangeEvent;
import org.lockstep.domain.ChangeFeed;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Change notifications through PostgreSQL LISTEN/NOTIFY (channel {@code lockstep}, see V4__notify.sql) on one
 * dedicated connection, outside the pool, in autocommit, doing nothing else. It waits with a finite timeout
 * ({@link PGConnection#getNotifications(int)}), drains everything pending each time, checks that its connection is
 * alive when quiet, and on a loss reconnects with exponential backoff and jitter, LISTENs again and asks its listener
 * to resync — notifications sent while it was away are gone (PostgreSQL docs, LISTEN: "a session that is not
 * listening … will not receive it").
 */
public final class PgChangeFeed implements ChangeFeed {

    /** The channel Lockstep's triggers notify. */
    public static final String CHANNEL = "lockstep";

    private static final Logger LOG = LoggerFactory.getLogger(PgChangeFeed.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int WAIT_MS = 500;
    private static final long CHECK_AFTER_QUIET_MS = 5_000;
    private static final long MAX_BACKOFF_MS = 5_000;

    private final Connector connector;
    private final Properties connectionProperties;
    private final Listener listener;
    private volatile Status status = Status.CONNECTING;
    private volatile boolean running;
    private volatile Connection connection;
    private Thread thread;

    /**
     * Opens the feed's connection. The application's embedded server passes one that starts the server again when it
     * died (the store knows nothing of servers); a plain URL connects through {@link DriverManager}.
     */
    @FunctionalInterface
    public interface Connector {
        /**
         * A new connection with these pgjdbc properties (user, password, ApplicationName, timeouts).
         *
         * @throws SQLException when none can be made now; the feed tries again after its backoff
         */
        Connection connect(Properties properties) throws SQLException;
    }

    /**
     * @param url      the JDBC URL of the database
     * @param user     the role, or {@code null} for the URL's or the environment's
     * @param password the password, or {@code null}
     * @param listener hears changes, status and resync requests
     */
    public PgChangeFeed(String url, String user, String password, Listener listener) {
        this(properties -> DriverManager.getConnection(url, properties), user, password, listener);
    }

    /**
     * @param connector opens each connection, the first and every reconnection
     * @param user      the role, or {@code null} for the connector's default
     * @param password  the password, or {@code null}
     * @param listener  hears changes, status and resync requests
     */
    public PgChangeFeed(Connector connector, String user, String password, Listener listener) {
        this.connector = connector;
        this.listener = listener;
        this.connectionProperties = new Properties();
        if (user != null) {
            connectionProperties.setProperty("user", user);
        }
        if (password != null) {
            connectionProperties.setProperty("password", password);
        }
        connectionProperties.setProperty("ApplicationName", "Lockstep live updates");
        connectionProperties.setProperty("connectTimeout", "5");
        connectionProperties.setProperty("tcpKeepAlive", "true");
    }

    @Override
    public synchronized void start() {
        if (running) {
            return;
        }
        running = true;
        thread = new Thread(this::run, "lockstep-change-feed");
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public Status status() {
        return status;
    }

    @Override
    public void close() {
        running = false;
        Connection c = connection;
        if (c != null) {
            try {
                c.close();
            } catch (SQLException e) {
                // closing anyway
            }
        }
        if (thread != null) {
            thread.interrupt();
            try {
                thread.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        setStatus(Status.CLOSED);
    }

    private void run() {
        long backoff = 100;
        boolean everConnected = false;
        while (running) {
            try (Connection c = connector.connect(connectionProperties)) {
                connection = c;
                c.setAutoCommit(true);
                try (Statement s = c.createStatement()) {
                    s.execute("LISTEN " + CHANNEL);
                }
                setStatus(Status.LIVE);
                if (everConnected) {
                    listener.resync();
                }
                everConnected = true;
                backoff = 100;
                listen(c);
            } catch (SQLException | RuntimeException e) {
                if (!running) {
                    break;
                }
                LOG.info("Live updates lost their connection ({}); reconnecting", e.getMessage());
            } finally {
                connection = null;
            }
            if (!running) {
                break;
            }
            setStatus(Status.RECONNECTING);
            // Full jitter keeps a room full of clients from reconnecting in lockstep after a server restart.
            LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(backoff / 2, backoff + 1) * 1_000_000);
            backoff = Math.min(MAX_BACKOFF_MS, backoff * 2);
        }
    }

    private void listen(Connection c) throws SQLException {
        PGConnection pg = c.unwrap(PGConnection.class);
        long lastHeard = System.nanoTime();
        while (running) {
            PGNotification[] pending = pg.getNotifications(WAIT_MS);
            if (pending != null && pending.length > 0) {
                List<ChangeEvent> events = new ArrayList<>(pending.length);
                for (PGNotification n : pending) {
                    parse(n.getParameter()).ifPresent(events::add);
                }
                if (!events.isEmpty()) {
                    listener.changes(events);
                }
                lastHeard = System.nanoTime();
            } else if (System.nanoTime() - lastHeard > CHECK_AFTER_QUIET_MS * 1_000_000) {
                // getNotifications does not notice a dead server by itself; a round trip does.
                try (Statement s = c.createStatement()) {
                    s.execute("SELECT 1");
                }
                lastHeard = System.nanoTime();
            }
        }
    }

    /** Reads a notification payload; an unreadable one is logged and skipped. */
    static Optional<ChangeEvent> parse(String payload) {
        try {
            JsonNode n = JSON.readTree(payload);
            JsonNode session = n.get("session");
            return Optional.of(new ChangeEvent(n.get("table").asText(), n.get("id").asLong(),
                    n.get("version").asLong(), n.get("op").asText(),
                    session == null || session.isNull() ? Optional.empty() : Optional.of(session.asText())));
        } catch (Exception e) {
            LOG.warn("Ignoring an unreadable notification: {}", payload);
            return Optional.empty();
        }
    }

    private void setStatus(Status s) {
        if (status != s) {
            status = s;
            listener.status(s);
        }
    }
}
