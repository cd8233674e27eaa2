package org.lockstep.cli.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * The log holds customers' and operators' names: under {@code umask 000} (a shared kiosk account, a careless service
 * unit) its directory is still 0700 and its file 0600, as a real process started that way makes them.
 */
class LogFilePermissionsTest {

    @TempDir
    Path dataDir;

    @Test
    void underUmask000TheLogDirectoryIs0700AndTheLogFile0600() throws Exception {
        String javaExe = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder("sh", "-c", "umask 000 && exec \"$0\" -cp \"$1\" \"$2\" \"$3\"", javaExe,
                System.getProperty("java.class.path"), Logging.class.getName(), dataDir.toString())
                .redirectErrorStream(true).start();
        String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(child.exitValue()).as(output).isZero();

        Path file = LogFile.in(dataDir);
        assertThat(Files.readString(file)).contains("a line about customer 4");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file.getParent())))
                .isEqualTo("rwx------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
    }

    /** A process that logs one line into a data directory's log. */
    static final class Logging {
        public static void main(String[] args) {
            if (LogFile.useDataDirectory(Path.of(args[0])).isEmpty()) {
                throw new IllegalStateException("no log file");
            }
            LoggerFactory.getLogger(Logging.class).info("a line about customer 4");
        }
    }
}
