package org.lockstep.app;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.util.Map;
import java.util.Optional;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.StatementExceptions;
import org.jdbi.v3.core.statement.StatementExceptions.MessageRendering;
import org.jdbi.v3.postgres.PostgresPlugin;
import org.lockstep.domain.ChangeFeed;
import org.lockstep.store.PgChangeFeed;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An open connection to Lockstep's database: a small HikariCP pool, migrated by Flyway, wrapped in Jdbi.
 *
 * <p>Flyway takes a PostgreSQL advisory lock while it migrates, so two clients starting at once on an empty
 * database both come up: one migrates, the other waits and then finds nothing to do.
 */
public final class Database implements AutoCloseable {

    /** Pool size per client: many operators share one server, and an editor needs few connections. */
    public static final int POOL_SIZE = 4;

    private static final Logger LOG = LoggerFactory.getLogger(Database.class);

    private final HikariDataSource dataSource;
    private final Jdbi jdbi;
    private final Optional<EmbeddedServer> embedded;
    private final String url;
    private final String user;
    private final String password;

    private Database(HikariDataSource dataSource, Optional<EmbeddedServer> embedded, String url, String user,
                     String password) {
        this.dataSource = dataSource;
        this.url = url;
        this.user = user;
        this.password = password;
        this.jdbi = Jdbi.create(dataSource).installPlugin(new PostgresPlugin()).configure(StatementExceptions.class,
                c -> c.setMessageRendering(MessageRendering.NONE)); // no SQL or bound values in exception messages
        this.embedded = embedded;
    }

    /**
     * Connects as configured (starting the embedded server when no URL is given), migrates the schema and, when the
     * {@code customer} table is empty, loads the {@link SampleData sample customers}.
     *
     * @param config      where to connect
     * @param application a name shown in {@code pg_stat_activity.application_name}, e.g. "Lockstep"
     * @throws IllegalStateException when the database cannot be reached, migrated or given its sample; the message
     *                               says why
     */
    public static Database open(LockstepConfig config, String application) {
        return open(config, application, true);
    }

    /**
     * As {@link #open(LockstepConfig, String)}, choosing whether an empty database gets the sample customers:
     * {@code lockstep import} brings its own data and must not find 59 strangers mixed into it.
     *
     * @param loadSample whether to load the sample into an empty {@code customer} table
     */
    public static Database open(LockstepConfig config, String application, boolean loadSample) {
        Optional<EmbeddedServer> embedded = Optional.empty();
        String url;
        String user = null;
        String password = null;
        if (config.dbUrl().isPresent()) {
            url = config.dbUrl().get();
        } else {
            EmbeddedServer server = new EmbeddedServer(config.dataDir(), LockstepConfig.cacheDir(System.getenv()));
            EmbeddedServer.Endpoint endpoint = server.ensureRunning();
            url = endpoint.jdbcUrl();
            user = endpoint.user();
            password = endpoint.password();
            embedded = Optional.of(server);
        }
        Database db = open(url, user, password, application + " (" + config.user() + ")", embedded);
        if (!loadSample) {
            return db;
        }
        try {
            SampleData.loadIfEmpty(db.jdbi(), config.user());
        } catch (RuntimeException e) {
            db.close();
            throw new IllegalStateException("Cannot load the sample customers: " + e.getMessage(), e);
        }
        return db;
    }

    /**
     * Connects to a URL and migrates the schema; for tests and tools that manage the server themselves.
     *
     * @param user     the role, or {@code null} to take it from the URL, {@code PGUSER} or pgjdbc's default
     * @param password the password, or {@code null} to take it from the URL, {@code PGPASSWORD} or {@code ~/.pgpass}
     */
    public static Database open(String url, String user, String password, String application) {
        return open(url, user, password, application, Optional.empty());
    }

    private static Database open(String url, String user, String password, String application,
                                 Optional<EmbeddedServer> embedded) {
        if (!url.startsWith("jdbc:postgresql:")) {
            throw new IllegalArgumentException("Not a PostgreSQL JDBC URL: " + redact(url)
                    + " (expected jdbc:postgresql://HOST[:PORT]/DATABASE)");
        }
        HikariConfig hc = new HikariConfig();
        hc.setJdbcUrl(url);
        Map<String, String> env = System.getenv();
        if (user != null) {
            hc.setUsername(user);
        } else if (env.get("PGUSER") != null && !url.contains("user=")) {
            hc.setUsername(env.get("PGUSER"));
        }
        if (password != null) {
            hc.setPassword(password);
        } else if (env.get("PGPASSWORD") != null && !url.contains("password=")) {
            hc.setPassword(env.get("PGPASSWORD"));
        }
        hc.setPoolName("lockstep");
        hc.setMaximumPoolSize(POOL_SIZE);
        hc.setMinimumIdle(1);
        // An operator waiting on a dead server should hear about it in seconds, not after the default 30 s.
        hc.setConnectionTimeout(5_000);
        hc.setValidationTimeout(2_000);
        // One attempt: a wrong password, host or database does not get better by retrying for ten seconds.
        hc.setInitializationFailTimeout(1);
        hc.addDataSourceProperty("ApplicationName", application);
        hc.addDataSourceProperty("connectTimeout", "5");
        hc.addDataSourceProperty("tcpKeepAlive", "true");
        hc.addDataSourceProperty("logServerErrorDetail", "false"); // DETAIL ("Failing row contains …") holds values
        HikariDataSource ds;
        try {
            ds = new HikariDataSource(hc);
        } catch (RuntimeException e) {
            throw new IllegalStateException("Cannot connect to " + redact(url) + ": " + rootMessage(e), e);
        }
        try {
            Flyway.configure().dataSource(ds).locations("classpath:db/migration").load().migrate();
        } catch (RuntimeException e) {
            ds.close();
            throw new IllegalStateException("Cannot prepare the database schema: " + rootMessage(e), e);
        }
        LOG.info("Connected to {}", redact(url));
        return new Database(ds, embedded, url, hc.getUsername(), hc.getPassword());
    }

    /**
     * A second client of the same database, with its own pool, as if on another machine (the trainer demo's second
     * operator). Closing it never stops the embedded server; this database's {@link #closeAndStopIfLast()} does.
     *
     * @param application how {@code pg_stat_activity.application_name} shows the new client
     * @throws IllegalStateException when it cannot connect; the message says why
     */
    public Database anotherClient(String application) {
        return open(url, user, password, application, Optional.empty());
    }

    /** The Jdbi over the pool. */
    public Jdbi jdbi() {
        return jdbi;
    }

    /** The pool itself, for raw-JDBC comparisons in benchmarks. */
    public DataSource dataSource() {
        return dataSource;
    }

    /**
     * A feed of committed changes on its own connection, outside the pool (PostgreSQL LISTEN/NOTIFY); not started.
     */
    public ChangeFeed changeFeed(ChangeFeed.Listener listener) {
        return new PgChangeFeed(url, user, password, listener);
    }

    /** The embedded server behind this database, when one is used. */
    public Optional<EmbeddedServer> embeddedServer() {
        return embedded;
    }

    /** Closes the pool; the embedded server keeps running (see {@link #closeAndStopIfLast()}). */
    @Override
    public void close() {
        dataSource.close();
    }

    /** Closes the pool and stops the embedded server when no other Lockstep client is connected to it. */
    public void closeAndStopIfLast() {
        close();
        embedded.ifPresent(server -> {
            try {
                server.stopIfUnused();
            } catch (RuntimeException e) {
                LOG.warn("Could not stop the embedded server: {}", e.getMessage());
            }
        });
    }

    /** The URL without a password parameter, for messages and logs. */
    public static String redact(String url) {
        return url.replaceAll("(?i)(password=)[^&]*", "$1***");
    }

    static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
    }
}
