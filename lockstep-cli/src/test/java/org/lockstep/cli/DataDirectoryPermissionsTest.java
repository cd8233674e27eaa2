package org.lockstep.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lockstep.testing.db.DatabaseTest;

/**
 * Under {@code umask 000}, in a data directory the operator made beforehand that others may enter (mode 755), every
 * file and directory Lockstep makes there is its user's only (issue 28): {@code cli-sessions/} was 777 and {@code
 * port}, {@code server.lock}, {@code initdb.log} and {@code pg_ctl.log} 666, so another account could replace the
 * sessions or point the next command at a server of its own. A real process started that way sets the server up,
 * takes a lease (a session and its key) and stops the server; {@code pgdata/}'s contents are PostgreSQL's to keep.
 */
@DatabaseTest
class DataDirectoryPermissionsTest {

    @TempDir
    Path scratch;
    Path dataDir;

    @AfterEach
    void stopServer() throws Exception {
        if (dataDir != null) {
            lockstep("db", "stop");
        }
    }

    @Test
    void underUmask000EverythingLockstepMakesInTheDataDirectoryIsItsUsersOnly() throws Exception {
        dataDir = Files.createDirectory(scratch.resolve("data"));
        Files.setPosixFilePermissions(dataDir, PosixFilePermissions.fromString("rwxr-xr-x"));

        String created = lockstep("create", "company=Kiosk GmbH");
        String id = created.replaceAll("(?s).*id=([0-9]+) version=1.*", "$1");
        assertThat(lockstep("lease", "acquire", id)).contains("token=");

        Map<String, String> open = new LinkedHashMap<>();
        try (Stream<Path> all = Files.walk(dataDir)) {
            all.filter(p -> !p.equals(dataDir) && !p.getParent().startsWith(dataDir.resolve("pgdata")))
                    .forEach(p -> open.put(dataDir.relativize(p).toString(), mode(p)));
        }
        assertThat(open).as("the modes of what Lockstep made").containsKeys("cli-sessions", "port", "server.lock",
                "initdb.log", "pg_ctl.log", "logs/lockstep.log", "password", "app-password");
        assertThat(open).allSatisfy((name, mode) -> assertThat(mode).as(name).endsWith("------"));
        assertThat(mode(dataDir)).as("the operator's own directory, left as made").isEqualTo("rwxr-xr-x");
    }

    private static String mode(Path p) {
        try {
            return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Runs {@code lockstep --data-dir DATA --user alice ARGS…} in a child JVM under umask 000; its output. */
    private String lockstep(String... args) throws Exception {
        String javaExe = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        StringBuilder script = new StringBuilder("umask 000 && exec \"$0\" -cp \"$1\" " + Launcher.class.getName()
                + " --data-dir \"$2\" --user alice");
        java.util.List<String> cmd = new java.util.ArrayList<>(java.util.List.of("sh", "-c", "", javaExe,
                System.getProperty("java.class.path"), dataDir.toString()));
        for (int i = 0; i < args.length; i++) {
            script.append(" \"$").append(i + 3).append('"');
            cmd.add(args[i]);
        }
        cmd.set(2, script.toString());
        Process child = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(child.waitFor(120, TimeUnit.SECONDS)).as(output).isTrue();
        assertThat(child.exitValue()).as(output).isZero();
        return output;
    }
}
