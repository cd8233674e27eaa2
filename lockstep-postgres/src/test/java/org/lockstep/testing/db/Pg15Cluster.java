package org.lockstep.testing.db;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.lockstep.server.ServerCommands;

/**
 * A throwaway PostgreSQL server of the OS packages' PostgreSQL 15 ({@code /usr/lib/postgresql/15/bin}), on a free
 * loopback port, with trust authentication on loopback, for tests that need a server of their own: a primary with a
 * streaming synchronous standby (the failover drill), a server with a tiny {@code max_connections}. Its programs run as
 * the embedded server's do ({@link ServerCommands#asServerUser}: PostgreSQL refuses root). {@link #stopHard()} is
 * {@code pg_ctl stop -m immediate}: every server process exits at once, as when its machine dies.
 */
public final class Pg15Cluster implements AutoCloseable {

    /** The superuser made by {@code initdb}. */
    public static final String SUPERUSER = "postgres";

    private static final Path BIN = Path.of("/usr/lib/postgresql/15/bin");

    private final Path dir;
    private final int port;

    private Pg15Cluster(Path dir, int port) {
        this.dir = dir;
        this.port = port;
    }

    /** Whether the OS packages' PostgreSQL 15 server programs are installed ({@code .ci/run} installs them). */
    public static boolean installed() {
        return Files.isExecutable(BIN.resolve("initdb")) && Files.isExecutable(BIN.resolve("pg_basebackup"));
    }

    /**
     * Initializes and starts a new primary.
     *
     * @param settings extra {@code postgresql.conf} lines, e.g. {@code max_connections = 5}
     */
    public static Pg15Cluster primary(String name, String... settings) {
        try {
            Path dir = newDirectory(name);
            run(List.of(BIN.resolve("initdb").toString(), "-D", dir.toString(), "-U", SUPERUSER, "-A", "trust",
                    "-E", "UTF8", "--locale=C.UTF-8", "--no-instructions"), dir, "initdb");
            Pg15Cluster cluster = new Pg15Cluster(dir, ServerCommands.freeLoopbackPort());
            cluster.configure(settings);
            cluster.start();
            return cluster;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Takes a base backup of this server ({@code pg_basebackup -R}: the copy starts as a standby streaming from it) and
     * starts it as a hot standby named {@code name} (its {@code application_name} on the primary).
     */
    public Pg15Cluster standby(String name) {
        try {
            Path standbyDir = newDirectory(name);
            Files.delete(standbyDir);
            run(List.of(BIN.resolve("pg_basebackup").toString(), "-h", "127.0.0.1", "-p", Integer.toString(port),
                    "-U", SUPERUSER, "-D", standbyDir.toString(), "-R", "-X", "stream", "-c", "fast"), dir,
                    "pg_basebackup");
            Pg15Cluster standby = new Pg15Cluster(standbyDir, ServerCommands.freeLoopbackPort());
            // The base backup copies the primary's postgresql.conf. A promoted standby that still asks for a synchronous
            // standby, with none of its own, makes every commit wait forever (Patroni clears the setting on promotion
            // unless synchronous_mode_strict is on): this one, once promoted, commits on its own.
            standby.configure("cluster_name = '" + name + "'", "hot_standby = on", "synchronous_standby_names = ''");
            standby.start();
            return standby;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path newDirectory(String name) throws IOException {
        Path root = Path.of("target", "pg15").toAbsolutePath();
        Files.createDirectories(root);
        return Files.createTempDirectory(root, name + "-");
    }

    private void configure(String... settings) throws IOException {
        List<String> lines = new ArrayList<>(List.of("", "# test cluster", "listen_addresses = '127.0.0.1'",
                "port = " + port, "unix_socket_directories = ''", "shared_buffers = 16MB", "fsync = off",
                "max_wal_senders = 5", "wal_level = replica"));
        lines.addAll(List.of(settings));
        Files.write(dir.resolve("postgresql.conf"), lines, StandardOpenOption.APPEND);
    }

    private void start() throws IOException {
        pgCtl("start", "-w", "-t", "60", "-l", dir.resolve("server.log").toString());
    }

    /** Promotes a standby to primary and waits until it accepts writes. */
    public void promote() {
        try {
            pgCtl("promote", "-w", "-t", "60");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Stops the server at once, without a checkpoint: every backend exits, its clients' sockets close. */
    public void stopHard() {
        try {
            pgCtl("stop", "-m", "immediate", "-w", "-t", "60");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void pgCtl(String action, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of("setsid", "-w"));
        cmd.addAll(ServerCommands.asServerUser(List.of(BIN.resolve("pg_ctl").toString(), action, "-D",
                dir.toString())));
        cmd.addAll(List.of(args));
        ServerCommands.run(cmd, dir, dir.resolve("pg_ctl.log"), "pg_ctl " + action);
    }

    private static void run(List<String> cmd, Path dir, String what) throws IOException {
        ServerCommands.run(ServerCommands.asServerUser(cmd), dir, dir.getParent().resolve(dir.getFileName() + "-"
                + what + ".log"), what);
    }

    /** Its port on 127.0.0.1. */
    public int port() {
        return port;
    }

    /** The JDBC URL of {@code database} on this server alone. */
    public String url(String database) {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + database;
    }

    /** Stops it if it still runs and deletes its files (a cluster is some 40 MB); for clean-up. */
    @Override
    public void close() {
        if (Files.exists(dir.resolve("postmaster.pid"))) {
            try {
                pgCtl("stop", "-m", "immediate", "-w", "-t", "60");
            } catch (IOException e) {
                // already gone
            }
        }
        try (var paths = Files.walk(dir)) {
            for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException | UncheckedIOException e) {
            // left for mvn clean
        }
    }
}
