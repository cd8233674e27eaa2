package org.lockstep.server;

import org.lockstep.config.LockstepConfig;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.Optional;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.MigrationInfoService;
import org.flywaydb.core.api.MigrationState;
import org.flywaydb.core.api.MigrationVersion;
import org.lockstep.domain.SchemaTooNewException;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.StatementExceptions;
import org.jdbi.v3.core.statement.StatementExceptions.MessageRendering;
import org.jdbi.v3.postgres.PostgresPlugin;
import org.lockstep.domain.ChangeFeed;
import org.lockstep.domain.SignInRefusedException;
import org.lockstep.store.Announcer;
import org.lockstep.store.ConnectionRefusals;
import org.lockstep.store.PgChangeFeed;
import org.lockstep.store.SessionSettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An open connection to Lockstep's database: a small HikariCP pool, migrated by Flyway, wrapped in Jdbi.
 *
 * <p>Flyway takes a PostgreSQL advisory lock while it migrates, so two clients starting at once on an empty
 * database both come up: one migrates, the other waits and then finds nothing to do.
 *
 * <p>Many operators share one server, and each connection is a server process ({@code max_connections}, 100 by
 * default): an idle client keeps at most one pooled connection ({@link #MINIMUM_IDLE} is 0 and a connection idle for
 * {@link #IDLE_TIMEOUT_MS} closes; the presence heartbeat every 10 s keeps one warm) besides its change feed's, and a
 * busy one at most {@link #POOL_SIZE}. A command-line run uses one.
 *
 * <p>Behind PgBouncer in transaction pooling ({@link ServerUrls}: a listen URL other than the pool's URL),
 * a pool connection is a server connection only for the length of a transaction: the pool sends no session settings,
 * prepares no statements on the server, and migrates and listens on the server itself.
 *
 * <p>The settings its pool's sessions run under — the statement, lock and idle bounds and the mark that checks they
 * arrived — are {@link SessionSettings}'; this class wires the pool, the migrations, Jdbi and the change feed.
 */
public final class Database implements AutoCloseable {

    /**
     * Pool size per client: the editor's background executor runs three calls at once at most; more connections would
     * only take server processes from other operators.
     */
    public static final int POOL_SIZE = 3;

    /** Connections a pool keeps open while nothing uses them: none, so an idle client holds only what it uses. */
    public static final int MINIMUM_IDLE = 0;

    /**
     * How long a pooled connection may sit unused before it is closed, ms. Above the presence heartbeat (10 s), so the
     * one connection an idle editor uses stays open instead of being reopened every beat; HikariCP's floor is 10 s.
     */
    public static final long IDLE_TIMEOUT_MS = 20_000;

    /**
     * How often HikariCP's housekeeper closes idle connections, ms (its default, 30 s, would let an extra connection
     * linger for nearly a minute after a burst). Read by every pool at its creation from this system property.
     */
    static final long HOUSEKEEPING_PERIOD_MS = 5_000;

    /**
     * How long a migration waits for a lock (ms): for another client migrating the same database at the same moment
     * (Flyway's advisory lock), or for running clients' transactions to end before it changes a table.
     */
    public static final int MIGRATION_LOCK_TIMEOUT_MS = 120_000;

    private static final Logger LOG = LoggerFactory.getLogger(Database.class);

    private final HikariDataSource dataSource;
    private final Jdbi jdbi;
    private final Optional<EmbeddedServer> embedded;
    private final Optional<EmbeddedConnections> restarting;
    private final ServerUrls urls;
    private final String application;
    private final String user;
    private final String password;

    private Database(HikariDataSource dataSource, Optional<EmbeddedServer> embedded,
            Optional<EmbeddedConnections> restarting, ServerUrls urls, String application, String user,
            String password) {
        this.dataSource = dataSource;
        this.restarting = restarting;
        this.urls = urls;
        this.application = application;
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
     *                               says why (for a server that is full, which limit and what to do)
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
        return open(config, application, loadSample, null);
    }

    /**
     * As {@link #open(LockstepConfig, String, boolean)}, with the password the operator typed in the desktop's
     * sign-in dialog (issue 26): it is used for this process's connections and never written anywhere.
     *
     * @param signInPassword the password for the URL's login, or {@code null} for the URL's, {@code PGPASSWORD} or
     *                       {@code ~/.pgpass}; ignored for the embedded server
     * @throws SignInRefusedException when the server wants a password not given, or refuses the one given
     */
    public static Database open(LockstepConfig config, String application, boolean loadSample,
            String signInPassword) {
        Optional<EmbeddedServer> embedded = Optional.empty();
        Optional<EmbeddedConnections> restarting = Optional.empty();
        ServerUrls urls;
        String user = null;
        String password = config.dbUrl().isPresent() ? signInPassword : null;
        if (config.dbUrl().isPresent()) {
            urls = new ServerUrls(config.dbUrl().get(), config.listenUrl().orElse(config.dbUrl().get()));
        } else {
            EmbeddedServer server = new EmbeddedServer(config.dataDir(), LockstepConfig.cacheDir(System.getenv()));
            EmbeddedServer.Endpoint endpoint = server.ensureRunning();
            urls = ServerUrls.direct(endpoint.jdbcUrl());
            user = endpoint.user();
            password = endpoint.password();
            embedded = Optional.of(server);
            restarting = Optional.of(new EmbeddedConnections(server, EmbeddedServer.DATABASE, endpoint));
        }
        Database db = open(urls, user, password, application + " (" + config.user() + ")", embedded, restarting);
        return loadSample ? withSample(db, config.user()) : db;
    }

    /**
     * Opens the trainer demo's own database, never the operators' ({@link DemoDatabase}; issue 27), migrated by the
     * same migrations and given the same sample customers, so that the demo's windows look like the editor. On the
     * embedded server it is {@link EmbeddedServer#DEMO_DATABASE}, made afresh first
     * ({@link EmbeddedServer#renewDemoDatabase()}): every demo starts from the sample alone, and the scenarios'
     * customers get the same ids at each launch. With {@code --db-url} it is the URL's database with
     * {@value DemoDatabase#SUFFIX} added, which an administrator has made; it is not renewed (the demo's login may
     * not drop it).
     *
     * @param config         where the operators' database is
     * @param application    a name shown in {@code pg_stat_activity.application_name}
     * @param signInPassword the password typed at sign-in, or {@code null}; ignored for the embedded server
     * @throws IllegalStateException when the demo's database is missing or cannot be reached; the message says why
     *                               and, for a missing one, how to make it
     * @throws SignInRefusedException when the server wants a password not given, or refuses the one given
     */
    public static Database openDemo(LockstepConfig config, String application, String signInPassword) {
        String name = application + " (" + config.user() + ")";
        Database db;
        if (config.dbUrl().isPresent()) {
            ServerUrls urls = DemoDatabase.beside(
                    new ServerUrls(config.dbUrl().get(), config.listenUrl().orElse(config.dbUrl().get())));
            try {
                db = open(urls, null, signInPassword, name, Optional.empty(), Optional.empty());
            } catch (IllegalStateException e) {
                if (sqlCause(e, sql -> NO_SUCH_DATABASE.equals(sql.getSQLState())).isPresent()) {
                    throw new IllegalStateException(DemoDatabase.missing(urls.pool()), e);
                }
                throw e;
            }
        } else {
            EmbeddedServer server = new EmbeddedServer(config.dataDir(), LockstepConfig.cacheDir(System.getenv()));
            EmbeddedServer.Endpoint endpoint = server.ensureRunning();
            server.renewDemoDatabase();
            db = open(ServerUrls.direct(endpoint.jdbcUrl(EmbeddedServer.DEMO_DATABASE)), endpoint.user(),
                    endpoint.password(), name, Optional.of(server),
                    Optional.of(new EmbeddedConnections(server, EmbeddedServer.DEMO_DATABASE, endpoint)));
        }
        return withSample(db, config.user());
    }

    /** PostgreSQL's SQLSTATE for a database that does not exist ({@code invalid_catalog_name}). */
    private static final String NO_SUCH_DATABASE = "3D000";

    /** {@code db} after loading the sample into its empty customer table; closed when that fails. */
    private static Database withSample(Database db, String user) {
        try {
            SampleData.loadIfEmpty(db.jdbi(), user);
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
        return open(ServerUrls.direct(url), user, password, application, Optional.empty(), Optional.empty());
    }

    /**
     * Connects the pool to {@code urls.pool()} and the change feed and migrations to {@code urls.listen()} (PgBouncer
     * in transaction pooling in front of a server: see {@link ServerUrls}) and migrates the schema.
     *
     * @param user     the role, or {@code null} to take it from the URL, {@code PGUSER} or pgjdbc's default
     * @param password the password, or {@code null}
     */
    public static Database open(ServerUrls urls, String user, String password, String application) {
        return open(urls, user, password, application, Optional.empty(), Optional.empty());
    }

    private static Database open(ServerUrls urls, String user, String password, String application,
            Optional<EmbeddedServer> embedded, Optional<EmbeddedConnections> restarting) {
        for (String url : new String[]{urls.pool(), urls.listen()}) {
            if (!url.startsWith("jdbc:postgresql:")) {
                throw new IllegalArgumentException("Not a PostgreSQL JDBC URL: " + redact(url)
                        + " (expected jdbc:postgresql://HOST[:PORT]/DATABASE)");
            }
        }
        HikariConfig hc = new HikariConfig();
        Map<String, String> env = System.getenv();
        if (user != null) {
            hc.setUsername(user);
        } else if (env.get("PGUSER") != null && !urls.pool().contains("user=")) {
            hc.setUsername(env.get("PGUSER"));
        }
        if (password != null) {
            hc.setPassword(password);
        } else if (env.get("PGPASSWORD") != null && !urls.pool().contains("password=")) {
            hc.setPassword(env.get("PGPASSWORD"));
        }
        hc.setPoolName("lockstep");
        hc.setMaximumPoolSize(POOL_SIZE);
        hc.setMinimumIdle(MINIMUM_IDLE);
        hc.setIdleTimeout(IDLE_TIMEOUT_MS);
        System.getProperties().putIfAbsent("com.zaxxer.hikari.housekeeping.periodMs",
                Long.toString(HOUSEKEEPING_PERIOD_MS));
        // An operator waiting on a dead server should hear about it in seconds, not after the default 30 s.
        hc.setConnectionTimeout(5_000);
        hc.setValidationTimeout(2_000);
        // One attempt: a wrong password, host or database does not get better by retrying for ten seconds.
        hc.setInitializationFailTimeout(1);
        hc.addDataSourceProperty("ApplicationName", application);
        hc.addDataSourceProperty("connectTimeout", "5");
        hc.addDataSourceProperty("tcpKeepAlive", "true");
        hc.addDataSourceProperty("logServerErrorDetail", "false"); // DETAIL ("Failing row contains …") holds values
        if (urls.throughPooler()) {
            // No session state: the server's role settings bound the statements (checked below).
            hc.setJdbcUrl(urls.poolJdbcUrl());
            hc.addDataSourceProperty("socketTimeout", Integer.toString(SessionSettings.SOCKET_TIMEOUT_S));
        } else {
            // The bounds must survive a URL that brings options of its own (JdbcUrlOptions says why).
            hc.setJdbcUrl(JdbcUrlOptions.withLeadingOptions(urls.pool(), SessionSettings.serverTimeouts()));
            // Every statement and every wait is bounded; a URL's own options come after Lockstep's (setJdbcUrl above).
            SessionSettings.boundEveryStatement(hc);
        }
        // The embedded server's clients bring it back when it died under them (kill -9); see EmbeddedConnections.
        restarting.ifPresent(r -> hc.setDataSource(r.dataSource(hc.getDataSourceProperties())));
        HikariDataSource ds;
        try {
            ds = new HikariDataSource(hc);
        } catch (RuntimeException e) {
            Optional<SignInRefusedException> refused = signInRefused(e,
                    hc.getUsername() != null ? hc.getUsername() : userInUrl(urls.pool()),
                    hc.getPassword() != null || urls.pool().contains("password="));
            if (refused.isPresent()) {
                throw refused.get();
            }
            throw new IllegalStateException(ConnectionRefusals.explain(e)
                    .orElseGet(() -> "Cannot connect to " + redact(urls.pool()) + ": " + rootMessage(e)), e);
        }
        try {
            if (embedded.isPresent()) {
                // The schema's owner is no login (AppRoleSetup): the superuser migrates, as the owner.
                EmbeddedServer.Endpoint admin = embedded.get().adminEndpoint();
                migrate(admin.jdbcUrl(embeddedDatabase(restarting)), admin.user(), admin.password(), application,
                        Optional.of(AppRoleSetup.OWNER_ROLE));
            } else {
                migrate(urls.listen(), hc.getUsername(), hc.getPassword(), application, Optional.empty());
            }
        } catch (SchemaTooNewException e) {
            ds.close();
            throw e;
        } catch (RuntimeException e) {
            ds.close();
            throw new IllegalStateException(ConnectionRefusals.explain(e).or(() -> notTheOwner(e, hc.getUsername()))
                    .orElseGet(() -> "Cannot prepare the database schema: " + rootMessage(e)), e);
        }
        if (urls.throughPooler()) {
            PoolerSessionCheck.warnIfUnbounded(ds);
        }
        LOG.info("Connected to {}{}", redact(urls.pool()),
                urls.throughPooler() ? ", listening on " + redact(urls.listen()) : "");
        return new Database(ds, embedded, restarting, urls, application, hc.getUsername(), hc.getPassword());
    }

    /** The embedded server's database a client's connections are to: Lockstep's, or the trainer demo's. */
    private static String embeddedDatabase(Optional<EmbeddedConnections> restarting) {
        return restarting.map(EmbeddedConnections::database).orElse(EmbeddedServer.DATABASE);
    }

    /** The {@code user} parameter of a JDBC URL, as pgjdbc reads it, or {@code null}. */
    private static String userInUrl(String url) {
        java.util.Properties parsed = org.postgresql.Driver.parseURL(url, null);
        return parsed == null ? null : parsed.getProperty("user");
    }

    /** The first {@link SQLException} in {@code e}'s causes that {@code wanted} accepts. */
    private static Optional<SQLException> sqlCause(Throwable e, java.util.function.Predicate<SQLException> wanted) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SQLException sql && wanted.test(sql)) {
                return Optional.of(sql);
            }
        }
        return Optional.empty();
    }

    /**
     * The server wants a password that was not given, or refused the one given: PostgreSQL's SQLSTATE 28P01
     * (invalid_password, also for an unknown login, so as not to tell which), or pgjdbc's "no password was provided"
     * (SQLSTATE 08004) when the server asks for one and none came from the URL, {@code PGPASSWORD} or
     * {@code ~/.pgpass}. The desktop then asks for it ({@link SignInRefusedException}).
     */
    private static Optional<SignInRefusedException> signInRefused(Throwable e, String user, boolean passwordGiven) {
        return sqlCause(e, sql -> "28P01".equals(sql.getSQLState()) || noPasswordGiven(sql)).map(sql -> {
            boolean none = noPasswordGiven(sql);
            String who = user == null ? "" : " for " + user;
            return new SignInRefusedException(none || !passwordGiven
                    ? "The database server needs a password" + who + ": give it in the URL, PGPASSWORD or"
                            + " ~/.pgpass (the desktop asks for it)."
                    : "The database server refused the password" + who + ".", user, passwordGiven && !none, e);
        });
    }

    private static boolean noPasswordGiven(SQLException sql) {
        return sql.getMessage() != null && sql.getMessage().contains("no password was provided");
    }

    /**
     * A migration refused for want of privilege (SQLSTATE 42501): on a team server only the schema's owner changes
     * it, so an operator's client that meets a newer schema than the database holds cannot bring it up itself.
     */
    private static Optional<String> notTheOwner(Throwable e, String user) {
        return sqlCause(e, sql -> "42501".equals(sql.getSQLState())).map(sql -> "This Lockstep needs the database"
                + " brought up to its version, which only the schema's owner may do"
                + (user == null ? "" : " (you are signed in as " + user + ")")
                + ": an administrator starts this Lockstep once as the owner, then everyone can sign in"
                + " (docs/admin-guide.md, \"Roles and privileges\").");
    }

    /**
     * Migrations may build indexes on a large table: they run on connections of their own, outside the pool, on the
     * server itself (never through a pooler), without the statement timeout (the session settings would otherwise
     * return to the pool with them).
     */
    private static void migrate(String url, String user, String password, String application,
            Optional<String> asRole) {
        String migrationTimeouts = "-c statement_timeout=0 -c lock_timeout=" + MIGRATION_LOCK_TIMEOUT_MS;
        Map<String, String> properties = Map.of("options", migrationTimeouts,
                "ApplicationName", application + " migrating", "connectTimeout", "5");
        String migrationUrl = JdbcUrlOptions.withLeadingOptions(url, migrationTimeouts);
        if (upToDate(migrationUrl, user, password, properties, asRole)) {
            return;
        }
        var flyway = Flyway.configure()
                .dataSource(migrationUrl, user, password)
                .jdbcProperties(properties)
                .locations("classpath:" + SchemaHistory.LOCATION);
        asRole.ifPresent(role -> flyway.initSql("SET ROLE " + role));
        Flyway loaded = flyway.load();
        refuseNewerSchema(loaded.info());
        loaded.migrate();
    }

    /**
     * The usual start, on a database this Lockstep already migrated, without Flyway (issue 30: loading Flyway, and
     * its scanning, parsing and validating every migration over five connections, took 0.9 of the 3.5 CPU-seconds a
     * {@code lockstep get 1} spent): one connection, one query of the history ({@link SchemaHistory}), then the
     * {@code afterMigrate.sql} callback that Flyway runs after every migrate, run here as Flyway would run it, so
     * that what it guarantees (the groups' grants, hand-made grants taken back at the owner's start) holds at every
     * start as before. Anything but an exact match of the jar's migrations leaves the work to Flyway.
     *
     * @return whether the schema is current and the callback ran; {@code false} when Flyway must migrate
     * @throws SchemaTooNewException when a newer Lockstep migrated the database
     */
    private static boolean upToDate(String url, String user, String password, Map<String, String> properties,
            Optional<String> asRole) {
        java.util.Properties props = new java.util.Properties();
        props.putAll(properties);
        if (user != null) {
            props.setProperty("user", user);
        }
        if (password != null) {
            props.setProperty("password", password);
        }
        try (Connection c = DriverManager.getConnection(url, props); Statement s = c.createStatement()) {
            if (asRole.isPresent()) {
                s.execute("SET ROLE " + asRole.get());
            }
            SchemaHistory.Check check = SchemaHistory.check(c);
            switch (check.verdict()) {
                case TOO_NEW -> throw new SchemaTooNewException(check.applied().orElseThrow(), check.known());
                case MIGRATE -> {
                    return false;
                }
                case CURRENT -> {
                    String callback = SchemaHistory.text("afterMigrate.sql");
                    if (callback.contains("${")) {
                        return false; // placeholders are Flyway's to replace
                    }
                    s.execute(callback);
                    return true;
                }
                default -> throw new IllegalStateException("Unknown verdict " + check.verdict());
            }
        } catch (SQLException e) {
            // Flyway connects again and reports what is wrong in its own words, as before.
            LOG.debug("Schema check without Flyway failed; Flyway decides", e);
            return false;
        }
    }

    /**
     * Flyway migrates past versions it does not know with only a warning in the log (its default
     * {@code ignoreMigrationPatterns} is {@code *:future}), and this client would then run statements written for an
     * older schema: refuse at once, naming both versions.
     *
     * @throws SchemaTooNewException when a newer Lockstep migrated the database
     */
    static void refuseNewerSchema(MigrationInfoService info) {
        MigrationInfo current = info.current();
        if (current == null || current.getVersion() == null) {
            return;
        }
        Optional<MigrationVersion> known = java.util.Arrays.stream(info.all())
                .filter(m -> m.getVersion() != null && m.getState() != MigrationState.FUTURE_SUCCESS
                        && m.getState() != MigrationState.FUTURE_FAILED)
                .map(MigrationInfo::getVersion).max(java.util.Comparator.naturalOrder());
        if (known.isPresent() && current.getVersion().compareTo(known.get()) > 0) {
            throw new SchemaTooNewException(current.getVersion().getVersion(), known.get().getVersion());
        }
    }

    /**
     * A second client of the same database, with its own pool, as if on another machine (the trainer demo's second
     * operator). Closing it never stops the embedded server; this database's {@link #closeAndStopIfLast()} does. Like
     * this one, it starts the embedded server again when the server died under it.
     *
     * @param application how {@code pg_stat_activity.application_name} shows the new client
     * @throws IllegalStateException when it cannot connect; the message says why
     */
    public Database anotherClient(String application) {
        return open(urls, user, password, application, Optional.empty(), restarting);
    }

    /**
     * A connection with the rights of the schema's owner, on the embedded server only: its superuser, {@code SET
     * ROLE} to the owner (the application's own login is an operator, AppRoleSetup). For tools that make tables of
     * their own beside Lockstep's — the benchmarks' yardsticks — never for the application's work. Empty on a server
     * given by URL, where the login is what the administrator made it.
     *
     * @throws SQLException when the server refuses the connection
     */
    public Optional<Connection> ownerConnection() throws SQLException {
        if (embedded.isEmpty()) {
            return Optional.empty();
        }
        EmbeddedServer.Endpoint admin = embedded.get().adminEndpoint();
        Connection c = DriverManager.getConnection(admin.jdbcUrl(embeddedDatabase(restarting)), admin.user(),
                admin.password());
        try (Statement s = c.createStatement()) {
            s.execute("SET ROLE " + AppRoleSetup.OWNER_ROLE);
        } catch (SQLException e) {
            c.close();
            throw e;
        }
        return Optional.of(c);
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
     * A feed of committed changes on its own connection, outside the pool (PostgreSQL LISTEN/NOTIFY); not started. On
     * the embedded server, the feed's reconnection starts the server again when it died, as the pool's does.
     */
    public ChangeFeed changeFeed(ChangeFeed.Listener listener) {
        // The feed sends Lockstep's mark among its startup options and reads it back (PgChangeFeed): a URL's own
        // options would otherwise replace the mark (JdbcUrlOptions says why).
        return restarting.<ChangeFeed>map(r -> new PgChangeFeed(r::connect, user, password, listener))
                .orElseGet(() -> new PgChangeFeed(JdbcUrlOptions.withLeadingOptions(urls.listen(),
                        SessionSettings.STARTUP_OPTIONS_MARK_OPTION), user, password, listener));
    }

    /** Where this client's pool and its change feed connect. */
    public ServerUrls urls() {
        return urls;
    }

    /** The role and password this client connects with, as pgjdbc properties, for a tool's own connection. */
    public Map<String, String> credentials() {
        Map<String, String> c = new java.util.HashMap<>();
        if (user != null) {
            c.put("user", user);
        }
        if (password != null) {
            c.put("password", password);
        }
        return c;
    }

    /** How {@code pg_stat_activity.application_name} shows this client's pooled connections. */
    public String application() {
        return application;
    }

    /** The embedded server behind this database, when one is used. */
    public Optional<EmbeddedServer> embeddedServer() {
        return embedded;
    }

    /**
     * How long closing waits for the saves' announcements still queued to be sent (ms): a CLI command that saved
     * exits right after, and other clients would not hear of its save ({@link Announcer}).
     */
    public static final long ANNOUNCEMENT_FLUSH_MS = 3_000;

    /**
     * Closes the pool after sending the saves' announcements still queued and ending the announcer's thread (at most
     * {@link #ANNOUNCEMENT_FLUSH_MS}; {@link Announcer#close}), so that a closed database leaves no thread of its own
     * running; the embedded server keeps running (see {@link #closeAndStopIfLast()}).
     */
    @Override
    public void close() {
        if (!Announcer.close(jdbi, java.time.Duration.ofMillis(ANNOUNCEMENT_FLUSH_MS))) {
            LOG.warn("Closing with saves not yet announced to other clients: they learn of them when they next read");
        }
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
