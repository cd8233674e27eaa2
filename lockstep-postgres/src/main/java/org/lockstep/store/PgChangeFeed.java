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
import java.util.SplittableRandom;
import java.util.concurrent.locks.LockSupport;
import org.lockstep.domain.ChangeEvent;
import org.lockstep.domain.ChangeFeed;
import org.lockstep.lab.RetryPolicy;
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
 *
 * <p>A session the server ends because it sat idle ({@code idle_session_timeout}, SQLSTATE 57P05) is replaced at
 * once without telling the listener of a loss — it is not one — though the listener is still asked to resync; the
 * round trip made when quiet comes at least twice per that timeout, so that the server seldom has cause to. A
 * failure whose reason the store can name (a full disk, a full server) is told in the operator's words
 * ({@link Listener#cannotConnect}), and so is a connection pooler in transaction mode that dropped the startup
 * options, found before LISTEN: the mark sent among them ({@link SessionSettings#STARTUP_OPTIONS_MARK}) is missing,
 * and LISTEN would end with the pooler's transaction, leaving the feed Live and deaf. Its URL must not carry
 * {@code options} of its own, which pgjdbc takes over the mark's (Database's feed puts the mark first in them).
 *
 * <p>A server that goes silent (frozen, or behind a network path that drops packets without a reset) is noticed
 * through the connection's socket timeout (6 s): the round trip made after 5 s of quiet then fails instead of
 * waiting forever, so the status turns {@link Status#RECONNECTING} at most about 12 s after the server's last word.
 */
public final class PgChangeFeed implements ChangeFeed {

    /** The channel Lockstep's triggers notify. */
    public static final String CHANNEL = "lockstep";

    private static final Logger LOG = LoggerFactory.getLogger(PgChangeFeed.class);
    private static final int WAIT_MS = 500;
    private static final long CHECK_AFTER_QUIET_MS = 5_000;
    /**
     * pgjdbc's {@code socketTimeout}, in seconds: how long any read from the server may block. It must be well above
     * {@link #WAIT_MS}, which {@link PGConnection#getNotifications(int)} applies as its own, shorter socket timeout
     * for the wait and then restores this one.
     */
    static final int SOCKET_TIMEOUT_S = 6;
    /**
     * Reconnection pauses: full jitter, a random time in [0, min(5 s, 100 ms · 2^(n-1))] before attempt n, so that a
     * room full of clients does not reconnect in lockstep after a server restart (Marc Brooker, "Exponential Backoff
     * And Jitter", AWS Architecture Blog, 2015). The feed never gives up, so the attempt limit is moot.
     */
    private static final RetryPolicy RECONNECT = new RetryPolicy(100, 5_000, Integer.MAX_VALUE);

    private final Connector connector;
    private final java.util.function.LongUnaryOperator askEvery;
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
        this(connector, user, password, listener, PgChangeFeed::askEveryMs);
    }

    /**
     * As {@link #PgChangeFeed(Connector, String, String, Listener)}, choosing how often to ask the server something
     * for its {@code idle_session_timeout} ({@link #askEveryMs}): a test gives one that ignores it, so that the server
     * ends the feed's session as idle.
     */
    PgChangeFeed(Connector connector, String user, String password, Listener listener,
            java.util.function.LongUnaryOperator askEvery) {
        this.askEvery = askEvery;
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
        connectionProperties.setProperty("socketTimeout", Integer.toString(SOCKET_TIMEOUT_S));
        // A frozen server accepts the TCP connection (the kernel does) and then never answers the startup packet.
        connectionProperties.setProperty("loginTimeout", Integer.toString(2 * SOCKET_TIMEOUT_S));
        // Server error details (DETAIL, WHERE) may quote row values; they stay out of exception messages and logs.
        connectionProperties.setProperty("logServerErrorDetail", "false");
        // Read back before LISTEN: a pooler that drops startup options would also drop LISTEN with the transaction
        // (PgBouncer in transaction mode), and the feed would say Live and hear nothing (issue 28).
        connectionProperties.setProperty("options", SessionSettings.STARTUP_OPTIONS_MARK_OPTION);
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
        SplittableRandom random = new SplittableRandom();
        int failures = 0;
        boolean everConnected = false;
        boolean replacingIdleSession = false;
        String told = "";
        while (running) {
            Throwable lost;
            try (Connection c = connector.connect(connectionProperties)) {
                connection = c;
                c.setAutoCommit(true);
                try (Statement s = c.createStatement()) {
                    s.execute("SELECT " + SessionSettings.STARTUP_OPTIONS_CHECK);
                    s.execute("LISTEN " + CHANNEL);
                }
                setStatus(Status.LIVE);
                told = "";
                if (everConnected) {
                    listener.resync(); // notifications sent while no session listened are gone
                }
                everConnected = true;
                failures = 0;
                replacingIdleSession = false;
                listen(c);
                continue;
            } catch (SQLException | RuntimeException e) {
                lost = e;
            } finally {
                connection = null;
            }
            if (!running) {
                break;
            }
            if (!replacingIdleSession && StoreErrors.hasSqlState(lost, IDLE_SESSION_TIMEOUT)) {
                // The server ended a session it found idle (idle_session_timeout): nothing is wrong with it, so the
                // session is replaced at once and the status stays Live; only a replacement that fails is told.
                LOG.info("The server ended the live updates' idle session; replacing it");
                replacingIdleSession = true;
                continue;
            }
            replacingIdleSession = false;
            LOG.info("Live updates lost their connection ({}); reconnecting", lost.getMessage());
            setStatus(Status.RECONNECTING);
            String why = DiskFullConnectionException.in(lost).<String>map(Throwable::getMessage)
                    .or(() -> ConnectionRefusals.explain(lost)).orElse("");
            if (!why.equals(told)) {
                told = why;
                listener.cannotConnect(why);
            }
            failures = Math.min(failures + 1, 30);
            LockSupport.parkNanos(RECONNECT.backoffNanos(failures, random));
        }
    }

    /** PostgreSQL's {@code idle_session_timeout} SQLSTATE: "terminating connection due to idle-session timeout". */
    static final String IDLE_SESSION_TIMEOUT = "57P05";

    /**
     * The server's {@code idle_session_timeout} for this session, ms (0: none; PostgreSQL 14 and later, docs 20.11
     * "Client Connection Defaults"); the round trip that checks the connection asks it too, so that a change an
     * administrator makes while the feed listens (a reload) is heeded.
     */
    private static final String IDLE_TIMEOUT_SQL =
            "SELECT coalesce((SELECT setting::bigint FROM pg_settings WHERE name = 'idle_session_timeout'), 0)";

    /**
     * How often the feed asks the server something when it has {@code idle_session_timeout} ms (0: never), so that
     * a listening session — idle to the server however many notifications it receives, but not forgotten — is not
     * ended as an idle one: twice per timeout, at least every 100 ms. A session that asks nothing is idle for the
     * server even while notifications reach it (PostgreSQL ends it "due to idle-session timeout", SQLSTATE 57P05).
     */
    static long askEveryMs(long idleSessionTimeoutMs) {
        return idleSessionTimeoutMs <= 0 ? 0 : Math.max(100, idleSessionTimeoutMs / 2);
    }

    private static long idleTimeoutMs(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); java.sql.ResultSet rs = s.executeQuery(IDLE_TIMEOUT_SQL)) {
            return rs.next() ? rs.getLong(1) : 0;
        }
    }

    private void listen(Connection c) throws SQLException {
        PGConnection pg = c.unwrap(PGConnection.class);
        long askEveryMs = askEvery.applyAsLong(idleTimeoutMs(c));
        long lastHeard = System.nanoTime();
        long lastAsked = lastHeard;
        while (running) {
            PGNotification[] pending = pg.getNotifications((int) (askEveryMs > 0 ? Math.min(WAIT_MS, askEveryMs)
                    : WAIT_MS));
            long now = System.nanoTime();
            if (pending != null && pending.length > 0) {
                List<ChangeEvent> events = new ArrayList<>(pending.length);
                for (PGNotification n : pending) {
                    parse(n.getParameter()).ifPresent(events::add);
                }
                if (!events.isEmpty()) {
                    listener.changes(events);
                }
                lastHeard = now;
            }
            // getNotifications does not notice a dead server by itself; a round trip does, and the socket timeout
            // bounds it when the server is alive to TCP but silent. The same round trip keeps the session from
            // being ended as idle, and learns whether the server's idle timeout changed (a reload).
            if (now - lastHeard > CHECK_AFTER_QUIET_MS * 1_000_000
                    || (askEveryMs > 0 && now - lastAsked > askEveryMs * 1_000_000)) {
                askEveryMs = askEvery.applyAsLong(idleTimeoutMs(c));
                lastHeard = System.nanoTime();
                lastAsked = lastHeard;
            }
        }
    }

    /** The most characters of an unreadable payload that go in the log. */
    static final int LOGGED_CHARS = 200;

    /** Reads a notification payload; an unreadable one is logged and skipped. */
    static Optional<ChangeEvent> parse(String payload) {
        try {
            JsonNode n = Json.MAPPER.readTree(payload);
            JsonNode session = n.get("session");
            return Optional.of(new ChangeEvent(n.get("table").asText(), n.get("id").asLong(),
                    n.get("version").asLong(), n.get("op").asText(),
                    session == null || session.isNull() ? Optional.empty() : Optional.of(session.asText())));
        } catch (Exception e) {
            LOG.warn("Ignoring an unreadable notification: {}", quoted(payload));
            return Optional.empty();
        }
    }

    /**
     * A payload as it may go in the log: anyone may NOTIFY on the channel, up to 8,000 bytes with line breaks, so it
     * is cut to {@value #LOGGED_CHARS} characters and its control characters are shown escaped (no forged log line).
     */
    static String quoted(String payload) {
        String cut = payload.length() > LOGGED_CHARS ? payload.substring(0, LOGGED_CHARS) + "…" : payload;
        StringBuilder b = new StringBuilder(cut.length() + 2).append('"');
        cut.codePoints().forEach(cp -> {
            if (Character.isISOControl(cp) || cp == 0x2028 || cp == 0x2029) {
                b.append(String.format("\\u%04x", cp));
            } else {
                b.appendCodePoint(cp);
            }
        });
        return b.append('"').toString();
    }

    /**
     * Jackson's mapper, made with the first notification read, not when the feed starts: making it is tens of CPU-ms
     * of a desktop's start before its first page (docs/benchmarks.md, "Issue 30, phase 4").
     */
    private static final class Json {
        static final ObjectMapper MAPPER = new ObjectMapper();
    }

    private void setStatus(Status s) {
        if (status != s) {
            status = s;
            listener.status(s);
        }
    }
}
