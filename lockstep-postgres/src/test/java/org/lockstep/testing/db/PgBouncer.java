package org.lockstep.testing.db;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.lockstep.server.ServerCommands;

/**
 * A PgBouncer (the OS package's, {@code /usr/sbin/pgbouncer}) in transaction pooling mode on a free loopback port, in
 * front of a PostgreSQL server, for tests: every database of the server is reachable through it under its own name, as
 * {@code role} with {@code password} (SCRAM between PgBouncer and the server). Runs as the server programs do when the
 * tests run as root ({@link ServerCommands#asServerUser}: PgBouncer refuses root). {@link #close()} stops it.
 */
public final class PgBouncer implements AutoCloseable {

    private static final Path BINARY = Path.of("/usr/sbin/pgbouncer");

    private final Process process;
    private final Path dir;
    private final int port;

    private PgBouncer(Process process, Path dir, int port) {
        this.process = process;
        this.dir = dir;
        this.port = port;
    }

    /** Whether PgBouncer is installed here ({@code apt-get install pgbouncer}; {@code .ci/run} installs it). */
    public static boolean installed() {
        return Files.isExecutable(BINARY);
    }

    /**
     * Starts one in front of {@code host:serverPort}.
     *
     * @param maxClientConn PgBouncer's {@code max_client_conn}: client connections it accepts
     * @param poolSize      its {@code default_pool_size}: server connections per database and role
     */
    public static PgBouncer start(String host, int serverPort, String role, String password, int maxClientConn,
            int poolSize) {
        return start(host, serverPort, role, password, maxClientConn, poolSize, REFUSING_OPTIONS);
    }

    /**
     * PgBouncer's {@code ignore_startup_parameters} as README's {@code pgbouncer.ini} has it: pgjdbc sends
     * {@code extra_float_digits} at startup, and PgBouncer refuses parameters it does not know, {@code options} among
     * them.
     */
    public static final String REFUSING_OPTIONS = "extra_float_digits";

    /** {@code ignore_startup_parameters} of a PgBouncer that takes {@code options} and drops it without a word. */
    public static final String IGNORING_OPTIONS = "extra_float_digits,options";

    /**
     * Lockstep's refusal, in English, of a connection through a PgBouncer with {@link #IGNORING_OPTIONS}: the sentence
     * {@code ConnectionRefusals} gives when the mark Lockstep sends among the startup options is not set (issue 28).
     */
    public static final String DROPPED_OPTIONS_REFUSAL = "A connection pooler (PgBouncer) between Lockstep and the"
            + " database server drops Lockstep's session settings (its time limits on statements and locks) and would"
            + " not pass on live updates, so Lockstep did not use the connection. Give the database server itself, not"
            + " the pooler, with --listen-url (or LOCKSTEP_LISTEN_URL): Lockstep then sends the pooler no settings and"
            + " listens for changes on the server (docs/admin-guide.md, \"PgBouncer\").";

    /**
     * As {@link #start(String, int, String, String, int, int)}, choosing which startup parameters PgBouncer ignores.
     *
     * @param ignoreStartupParameters its {@code ignore_startup_parameters}, e.g. {@link #IGNORING_OPTIONS}
     */
    public static PgBouncer start(String host, int serverPort, String role, String password, int maxClientConn,
            int poolSize, String ignoreStartupParameters) {
        try {
            Path dir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "pgbouncer-");
            int port = ServerCommands.freeLoopbackPort();
            Files.writeString(dir.resolve("userlist.txt"), quoted(role) + " " + quoted(password) + "\n");
            Files.writeString(dir.resolve("pgbouncer.ini"), String.join("\n",
                    "[databases]",
                    "* = host=" + host + " port=" + serverPort,
                    "[pgbouncer]",
                    "listen_addr = 127.0.0.1",
                    "listen_port = " + port,
                    "unix_socket_dir =",
                    "auth_type = scram-sha-256",
                    "auth_file = " + dir.resolve("userlist.txt"),
                    "pool_mode = transaction",
                    "max_client_conn = " + maxClientConn,
                    "default_pool_size = " + poolSize,
                    "ignore_startup_parameters = " + ignoreStartupParameters,
                    "logfile = " + dir.resolve("pgbouncer.log"),
                    "pidfile = " + dir.resolve("pgbouncer.pid"),
                    ""));
            List<String> cmd = new ArrayList<>(ServerCommands.asServerUser(List.of(BINARY.toString(),
                    dir.resolve("pgbouncer.ini").toString())));
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
                    .redirectOutput(dir.resolve("stdout.log").toFile()).start();
            PgBouncer bouncer = new PgBouncer(p, dir, port);
            await("PgBouncer listening on " + port).atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50))
                    .until(() -> {
                        if (!p.isAlive()) {
                            throw new IllegalStateException("PgBouncer exited: " + bouncer.log());
                        }
                        return bouncer.accepting();
                    });
            return bouncer;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Starts one in front of the test server ({@link TestDatabases#server()}), as its application role; a class's
     * tests get one from {@link PgBouncerExtension}.
     *
     * @param ignoreStartupParameters its {@code ignore_startup_parameters}: {@link #REFUSING_OPTIONS} or
     *                                {@link #IGNORING_OPTIONS}
     */
    public static PgBouncer inFrontOfTestServer(int maxClientConn, int poolSize, String ignoreStartupParameters) {
        TestDatabases.Server s = TestDatabases.server();
        return start(s.host(), s.port(), s.user(), s.password(), maxClientConn, poolSize, ignoreStartupParameters);
    }

    /** The JDBC URL of {@code database} through this PgBouncer. */
    public String url(String database) {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + database;
    }

    /** Its port. */
    public int port() {
        return port;
    }

    /** What it logged, for failure messages. */
    public String log() {
        try {
            Path log = dir.resolve("pgbouncer.log");
            return Files.exists(log) ? Files.readString(log) : Files.readString(dir.resolve("stdout.log"));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    private boolean accepting() {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 200);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static String quoted(String s) {
        return "\"" + s.replace("\"", "\"\"") + "\"";
    }

    /** Stops it (SIGTERM: its client connections close at once). */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
