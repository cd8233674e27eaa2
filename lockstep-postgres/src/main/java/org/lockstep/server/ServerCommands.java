package org.lockstep.server;

import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs PostgreSQL's programs ({@code initdb}, {@code pg_ctl}, and in tests {@code pg_basebackup} or PgBouncer) as a user
 * they accept. PostgreSQL refuses to run as root ("initdb: cannot be run as root"), and so does PgBouncer: as root, the
 * program runs in a new user namespace ({@code unshare -U}) where its user id is the unprivileged overflow id while its
 * files stay root's (user_namespaces(7)).
 */
public final class ServerCommands {

    private ServerCommands() {
    }

    /** {@code cmd}, prefixed with {@code unshare -U} when this process runs as root. */
    public static List<String> asServerUser(List<String> cmd) {
        List<String> full = new ArrayList<>();
        if (isRoot()) {
            full.add("unshare");
            full.add("-U");
        }
        full.addAll(cmd);
        return full;
    }

    /** Whether this process runs as root (user id 0). */
    public static boolean isRoot() {
        try {
            return ((Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid", LinkOption.NOFOLLOW_LINKS)) == 0;
        } catch (IOException | RuntimeException e) {
            // No "unix" file attribute view on this platform: fall back to the account name.
            return "root".equals(System.getProperty("user.name"));
        }
    }

    /**
     * Runs {@code cmd} to its end, its output going to {@code log}, in the C locale.
     *
     * @param dataDir the directory whose {@code server.log} is quoted when the command fails
     * @param what    what the command does, for the message ("initialize the database cluster")
     * @throws IOException when it fails or takes longer than {@link EmbeddedServer#START_TIMEOUT_S} + 30 s; the
     *                     message quotes its output and the end of the server log
     */
    public static void run(List<String> cmd, Path dataDir, Path log, String what) throws IOException {
        Files.createDirectories(dataDir);
        SecretFile.ownerOnly(log); // what initdb and pg_ctl print is this user's only, whatever the umask
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.to(log.toFile()))
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        pb.environment().put("LC_ALL", "C");
        Process p = pb.start();
        try {
            if (!p.waitFor(EmbeddedServer.START_TIMEOUT_S + 30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException("Timed out trying to " + what);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("Interrupted while trying to " + what, e);
        }
        if (p.exitValue() != 0) {
            String output = Files.exists(log) ? Files.readString(log) : "";
            Path serverLog = dataDir.resolve("server.log");
            String tail = Files.exists(serverLog) ? tail(Files.readString(serverLog), 15) : "";
            throw new IOException("Could not " + what + " (exit " + p.exitValue() + "):\n" + output.strip()
                    + (tail.isEmpty() ? "" : "\nServer log (" + serverLog + "):\n" + tail));
        }
    }

    /**
     * A TCP port on the loopback interface that is free now (another process may take it before it is bound).
     *
     * @throws IOException when no port can be had
     */
    public static int freeLoopbackPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /** Whether {@code port} on the loopback interface is free now. */
    public static boolean isFreeLoopbackPort(int port) {
        try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static String tail(String text, int lines) {
        String[] all = text.strip().split("\n");
        return String.join("\n", Arrays.copyOfRange(all, Math.max(0, all.length - lines), all.length));
    }
}
