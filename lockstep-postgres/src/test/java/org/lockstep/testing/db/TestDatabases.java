package org.lockstep.testing.db;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;
import org.lockstep.server.Database;
import org.lockstep.server.EmbeddedServer;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.PostgreSQLContainer;

/**
 * Real PostgreSQL databases for tests, each fresh and migrated with the real Flyway migrations. The server is, in
 * order of preference: {@code LOCKSTEP_TEST_DB_URL} (its role needs CREATEDB and CREATEROLE), a Testcontainers PostgreSQL when a
 * Docker engine runs, else Lockstep's own embedded server in {@code target/embedded-pg-test}, started once per test
 * JVM and stopped when it exits.
 *
 * <p>On the embedded server, tests work as the product does: each database is created by the superuser and owned by
 * the application role {@value EmbeddedServer#APP_ROLE}, and tests connect as that role (not a superuser); only test
 * plumbing ({@link DatabaseOutage}) uses the superuser. Elsewhere the one configured role is both.
 */
public final class TestDatabases {

    private static final AtomicInteger COUNTER = new AtomicInteger();
    private static Server server;

    private TestDatabases() {
    }

    /**
     * Where the test databases live.
     *
     * @param user          the role tests connect as, owner of each test database
     * @param password      its password
     * @param adminUser     a role able to create databases and to switch them off ({@link DatabaseOutage})
     * @param adminPassword its password
     */
    public record Server(String host, int port, String user, String password, String adminUser,
            String adminPassword) {

        Server(String host, int port, String user, String password) {
            this(host, port, user, password, user, password);
        }

        public String url(String database) {
            return "jdbc:postgresql://" + host + ":" + port + "/" + database;
        }
    }

    /** A new, empty, migrated database, with its own name, opened through Lockstep's {@link Database}. */
    public static Database fresh() {
        String name = newDatabase();
        Server s = server();
        return Database.open(s.url(name), s.user(), s.password(), "Lockstep test");
    }

    /** Creates a new, empty, unmigrated database and returns its name (on {@link #server()}). */
    public static String freshName() {
        return newDatabase();
    }

    /** Creates a new, empty, unmigrated database and returns its JDBC URL (credentials from {@link #server()}). */
    public static String freshUrl() {
        return server().url(newDatabase());
    }

    /**
     * Creates a new, empty, unmigrated database and returns its JDBC URL with the credentials as {@code user} and
     * {@code password} parameters, so that it works on its own, e.g. as {@code lockstep --db-url URL}.
     */
    public static String freshUrlWithCredentials() {
        Server s = server();
        String url = s.url(newDatabase()) + "?user=" + URLEncoder.encode(s.user(), StandardCharsets.UTF_8);
        return s.password() == null ? url
                : url + "&password=" + URLEncoder.encode(s.password(), StandardCharsets.UTF_8);
    }

    /**
     * Creates the trainer demo's database beside the operators' database at {@code url} ({@code NAME_demo}), empty and
     * owned by the tests' login, as an administrator's {@code lockstep admin setup} on that URL would: {@code lockstep
     * demo --db-url} uses it and refuses to start without it.
     */
    public static void createDemoDatabaseBeside(String url) {
        String path = url.substring(url.lastIndexOf('/') + 1);
        String name = path.contains("?") ? path.substring(0, path.indexOf('?')) : path;
        Server s = server();
        try (Connection c = DriverManager.getConnection(s.url("postgres"), s.adminUser(), s.adminPassword());
                Statement st = c.createStatement()) {
            st.execute("CREATE DATABASE " + name + "_demo OWNER \"" + s.user().replace("\"", "\"\"") + "\"");
        } catch (Exception e) {
            throw new IllegalStateException("Cannot create the demo database beside " + name + ": " + e.getMessage(),
                    e);
        }
    }

    /** The server the test databases live on. */
    public static synchronized Server server() {
        if (server == null) {
            server = startServer();
        }
        return server;
    }

    private static String newDatabase() {
        Server s = server();
        String name = "t_" + ProcessHandle.current().pid() + "_" + COUNTER.incrementAndGet();
        try (Connection c = DriverManager.getConnection(s.url("postgres"), s.adminUser(), s.adminPassword());
                Statement st = c.createStatement()) {
            st.execute("DROP DATABASE IF EXISTS " + name);
            st.execute("CREATE DATABASE " + name + " OWNER \"" + s.user().replace("\"", "\"\"") + "\"");
        } catch (Exception e) {
            throw new IllegalStateException("Cannot create test database " + name + ": " + e.getMessage(), e);
        }
        return name;
    }

    private static Server startServer() {
        String url = System.getenv("LOCKSTEP_TEST_DB_URL");
        if (url != null && !url.isBlank()) {
            java.net.URI uri = java.net.URI.create(url.substring("jdbc:".length()));
            String user = System.getenv().getOrDefault("PGUSER", System.getProperty("user.name"));
            String password = System.getenv("PGPASSWORD");
            String q = uri.getQuery() == null ? "" : uri.getQuery();
            for (String kv : q.split("&")) {
                if (kv.startsWith("user=")) {
                    user = kv.substring(5);
                } else if (kv.startsWith("password=")) {
                    password = kv.substring(9);
                }
            }
            return new Server(uri.getHost(), uri.getPort() < 0 ? 5432 : uri.getPort(), user, password);
        }
        if (dockerAvailable()) {
            PostgreSQLContainer<?> pg = new PostgreSQLContainer<>("postgres:17-alpine");
            pg.start();
            Runtime.getRuntime().addShutdownHook(new Thread(pg::stop));
            return new Server(pg.getHost(), pg.getFirstMappedPort(), pg.getUsername(), pg.getPassword());
        }
        EmbeddedServer embedded = new EmbeddedServer(Path.of("target", "embedded-pg-test"),
                Path.of(System.getProperty("user.home"), ".cache", "lockstep"));
        EmbeddedServer.Endpoint app = embedded.ensureRunning();
        EmbeddedServer.Endpoint admin = embedded.adminEndpoint();
        Runtime.getRuntime().addShutdownHook(new Thread(embedded::stopIfUnused));
        return new Server("127.0.0.1", app.port(), app.user(), app.password(), admin.user(), admin.password());
    }

    private static boolean dockerAvailable() {
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (Throwable t) {
            return false;
        }
    }
}
