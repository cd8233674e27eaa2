package org.lockstep.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.Test;

/**
 * The runnable jar operators get ({@code target/lockstep.jar}, shaded in the package phase, so this runs after it as
 * an integration test): the wiring, the command line and the desktop, started by {@link Main}, and nothing of the
 * benchmarks — no benchmark or generator class, no Datafaker, no HdrHistogram — and no test fixture (issue 25).
 */
class ProductJarIT {

    private static final Path JAR = Path.of("target", "lockstep.jar");

    @Test
    void theJarStartsWithMainAndHoldsEveryProductModule() throws IOException {
        try (JarFile jar = new JarFile(JAR.toFile())) {
            assertThat(jar.getManifest().getMainAttributes().getValue("Main-Class")).isEqualTo(Main.class.getName());
            assertThat(names(jar)).contains("org/lockstep/app/Main.class", "org/lockstep/cli/Launcher.class",
                    "org/lockstep/ui/editor/CustomerEditorViewModel.class",
                    "org/lockstep/store/JdbiCustomerRepository.class",
                    "org/lockstep/domain/Customer.class", "db/migration/V1__customer.sql");
        }
    }

    @Test
    void theJarCarriesNoBenchmarkGeneratorOrTestCode() throws IOException {
        try (JarFile jar = new JarFile(JAR.toFile())) {
            assertThat(names(jar)).noneMatch(n -> n.startsWith("org/lockstep/bench/")
                    || n.startsWith("org/lockstep/synthetic/") || n.startsWith("net/datafaker/")
                    || n.startsWith("org/HdrHistogram/") || n.startsWith("org/lockstep/testing/")
                    || (n.startsWith("org/lockstep/") && n.endsWith("Test.class"))
                    || n.equals("logback-test.xml"));
        }
    }

    private static List<String> names(JarFile jar) {
        return jar.stream().map(ZipEntry::getName).toList();
    }
}
