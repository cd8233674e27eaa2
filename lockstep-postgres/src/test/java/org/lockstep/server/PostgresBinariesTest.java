package org.lockstep.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded server's binaries come out the same whether the system's {@code xz} or the Java decoder decompresses
 * them (issue 30, phase 3: the system's is the first start's fast path, the Java one its fallback): every file with
 * the same size and executable bit, every symbolic link to the same target.
 */
class PostgresBinariesTest {

    @Test
    void theSystemsXzAndTheJavaDecoderExtractTheSameTree(@TempDir Path tmp) throws Exception {
        assumeTrue(PostgresBinaries.nativeXz().isPresent(), "no xz on this machine");
        Path bySystem = tmp.resolve("system");
        Path byJava = tmp.resolve("java");

        PostgresBinaries.extractWithNativeXz(bySystem, PostgresBinaries.nativeXz().get());
        PostgresBinaries.extractWithJavaXz(byJava);

        Map<String, String> tree = tree(byJava);
        assertThat(tree).containsKey("bin/postgres").containsKey("bin/initdb").hasSizeGreaterThan(100);
        assertThat(tree(bySystem)).isEqualTo(tree);
    }

    @Test
    void aFailingXzLeavesAnErrorNotATree(@TempDir Path tmp) {
        Path notXz = Path.of("/bin/false");
        assumeTrue(Files.isExecutable(notXz));

        org.assertj.core.api.Assertions.assertThatThrownBy(
                () -> PostgresBinaries.extractWithNativeXz(tmp.resolve("x"), notXz))
                .isInstanceOf(IOException.class);
    }

    /** Each path under {@code root}: "file SIZE x|-", "link TARGET" or "dir". */
    private static Map<String, String> tree(Path root) throws IOException {
        Map<String, String> tree = new TreeMap<>();
        try (Stream<Path> all = Files.walk(root)) {
            for (Path p : all.toList()) {
                String key = root.relativize(p).toString();
                if (Files.isSymbolicLink(p)) {
                    tree.put(key, "link " + Files.readSymbolicLink(p));
                } else if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
                    tree.put(key, "dir");
                } else {
                    tree.put(key, "file " + Files.size(p) + (Files.isExecutable(p) ? " x" : " -"));
                }
            }
        }
        return tree;
    }
}
