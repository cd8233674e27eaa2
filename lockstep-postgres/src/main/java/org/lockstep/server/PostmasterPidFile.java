package org.lockstep.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * A cluster's {@code postmaster.pid}, trusted only when the process it names is the postmaster of that very cluster.
 * The file's first line is the postmaster's process id and its fourth the port (PostgreSQL docs, 66.1 Database File
 * Layout). After a crash the file stays behind and its pid may be reused by any program; {@code pg_ctl status} and
 * {@code pg_ctl stop} believe it regardless, and {@code pg_ctl stop} signals whatever process has that pid now.
 *
 * <p>The check reads {@code /proc/PID}: the executable must be a {@code postgres} binary, the working directory
 * must be this cluster's directory, which the postmaster makes its working directory at startup, and the process must
 * listen on the file's port (see {@link #listensOn}), or, while it is still starting and not yet listening, have
 * started no later than the file's third line says the postmaster did (see {@link #startedAt}). The port needs no
 * clock: a process's start is reckoned from the boot time the JVM read once, and the file's from the wall clock when
 * the postmaster started, so a clock stepped in between (seen here: 154 s, on a machine that had just booted) moves
 * one and not the other. A process's name
 * and arguments prove nothing ({@code exec -a postgres sleep 300}); its executable and working directory are set by
 * the kernel. The binary is recognized by name rather than by its path in the cache, so a server started by a
 * Lockstep with another cache directory is still recognized: mistaking a live postmaster for a stale file would
 * delete the file, which makes that postmaster shut itself down.
 */
final class PostmasterPidFile {

    /** A live postmaster of this cluster: its process id and port. */
    record Postmaster(long pid, int port) {
    }

    private final Path pgData;
    private final Path file;

    /** @param pgData the cluster's directory */
    PostmasterPidFile(Path pgData) {
        this.pgData = pgData;
        this.file = pgData.resolve("postmaster.pid");
    }

    /** Whether the file exists: a server runs, or one died without shutting down (a clean shutdown removes it). */
    boolean exists() {
        return Files.exists(file);
    }

    /** The postmaster the file names when it is alive and serves this cluster; empty when the file is stale. */
    Optional<Postmaster> running() {
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (IOException e) {
            return Optional.empty();
        }
        if (lines.size() < 4) {
            return Optional.empty(); // a postmaster still writing its file, or a torn file: not trusted
        }
        try {
            long pid = Long.parseLong(lines.get(0).strip());
            long started = Long.parseLong(lines.get(2).strip());
            int port = Integer.parseInt(lines.get(3).strip());
            return isPostmasterOf(pid, pgData)
                    && (listensOn(pid, port) || startedAt(pid, Instant.ofEpochSecond(started)))
                            ? Optional.of(new Postmaster(pid, port)) : Optional.empty();
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /**
     * How much later than the file's start time the postmaster's process may seem to have started: the file holds
     * whole seconds (the postmaster's start, truncated), and the kernel's boot time, from which a process's start is
     * reckoned, is whole seconds too.
     */
    static final Duration CLOCK_SLACK = Duration.ofSeconds(2);

    /**
     * How much earlier than the file's start time the postmaster's process may have started: it is forked by pg_ctl's
     * shell and writes its start time only once it runs, which on a loaded machine took more than 3 s (a CI run at a
     * load average of 12, where a tolerance of 3 s either way disowned Lockstep's own server and every later start
     * then failed on its shared memory).
     */
    static final Duration START_LATENCY = Duration.ofMinutes(10);

    /**
     * Whether process {@code pid} started when the file says its postmaster did (its third line, seconds since the
     * epoch): not after it, beyond {@link #CLOCK_SLACK}, and not {@link #START_LATENCY} before it. A process that holds
     * the file's pid and started after the postmaster wrote the file took the pid once the postmaster was gone: one
     * of its own server processes left behind, or a program started in the cluster's directory under that name.
     * One that started before it cannot hold that pid unless it is the postmaster itself, since two live processes
     * never share a pid; the lower bound only keeps a file from another machine's clock from being believed.
     */
    static boolean startedAt(long pid, Instant fileStart) {
        Optional<Instant> start = ProcessHandle.of(pid).flatMap(p -> p.info().startInstant());
        if (start.isEmpty()) {
            return false;
        }
        Duration afterFile = Duration.between(fileStart, start.get());
        return afterFile.compareTo(CLOCK_SLACK) <= 0 && afterFile.compareTo(START_LATENCY.negated()) >= 0;
    }

    /**
     * Whether process {@code pid} holds a socket listening on TCP {@code port}: one of its open files is a socket
     * whose inode {@code /proc/net/tcp} or {@code tcp6} lists in state LISTEN ({@code 0A}) on that local port (Linux
     * {@code proc(5)}). A program that took a dead postmaster's pid does not hold the postmaster's listening socket.
     */
    static boolean listensOn(long pid, int port) {
        Set<String> listening = new HashSet<>();
        for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            try {
                for (String line : Files.readAllLines(Path.of(table))) {
                    String[] f = line.strip().split("\\s+");
                    if (f.length > 9 && f[3].equals("0A") && f[1].contains(":")
                            && Integer.parseInt(f[1].substring(f[1].indexOf(':') + 1), 16) == port) {
                        listening.add("socket:[" + f[9] + "]");
                    }
                }
            } catch (IOException | NumberFormatException e) {
                // no such table (IPv6 off) or a line of another shape: what the others list still counts
            }
        }
        if (listening.isEmpty()) {
            return false;
        }
        try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
            return fds.anyMatch(fd -> {
                try {
                    return listening.contains(Files.readSymbolicLink(fd).toString());
                } catch (IOException e) {
                    return false; // closed while we looked
                }
            });
        } catch (IOException | SecurityException | UncheckedIOException e) {
            return false;
        }
    }

    /**
     * Whether process {@code pid} is a PostgreSQL server process whose working directory is {@code pgData}.
     * Unreadable {@code /proc} entries (no such process, or not ours) answer {@code false}.
     */
    static boolean isPostmasterOf(long pid, Path pgData) {
        Path proc = Path.of("/proc", Long.toString(pid));
        try {
            Path exe = Files.readSymbolicLink(proc.resolve("exe"));
            Path cwd = Files.readSymbolicLink(proc.resolve("cwd"));
            return exe.getFileName() != null && exe.getFileName().toString().equals("postgres")
                    && cwd.equals(pgData.toRealPath());
        } catch (IOException | SecurityException | UnsupportedOperationException e) {
            return false;
        }
    }
}
