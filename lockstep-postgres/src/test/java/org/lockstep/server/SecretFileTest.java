package org.lockstep.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Password files: owner-only from their creation, whatever the process's umask lets through by default. */
class SecretFileTest {

    @TempDir
    Path dir;

    @Test
    void aWrittenSecretIsOwnerOnlyAndReadsBack() throws Exception {
        Path file = dir.resolve("password");
        String secret = SecretFile.generate();

        SecretFile.write(file, secret);

        // Files.writeString would have made it rw-r--r-- under the usual umask 022.
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        assertThat(SecretFile.read(file)).contains(secret);
        assertThat(secret).matches("[0-9a-f]{36}");
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files).containsExactly(file); // no temporary file left behind
        }
    }

    @Test
    void aMissingFileReadsAsNoSecretAndEachGeneratedSecretIsNew() throws Exception {
        assertThat(SecretFile.read(dir.resolve("app-password"))).isEmpty();
        assertThat(SecretFile.generate()).isNotEqualTo(SecretFile.generate());
    }
}
