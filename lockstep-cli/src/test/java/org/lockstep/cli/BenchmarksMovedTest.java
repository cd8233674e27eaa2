package org.lockstep.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/**
 * The benchmarks left the product jar for target/lockstep-bench.jar (issue 25). {@code lockstep bench save}, as the
 * docs said before, fails as a usage error that names the new command, and {@code lockstep --help} does not offer
 * it. No database is needed.
 */
class BenchmarksMovedTest {

    @Test
    void theOldBenchCommandSaysWhereTheBenchmarksAreNow() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();

        int code = Launcher.run(new PrintWriter(out), new PrintWriter(err), "bench", "save", "--clients", "1");

        assertThat(code).isEqualTo(ExitCodes.INVALID);
        assertThat(err.toString()).contains("java -jar target/lockstep-bench.jar save --clients 1");
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void theRootHelpDoesNotOfferIt() {
        StringWriter out = new StringWriter();

        Launcher.run(new PrintWriter(out), new PrintWriter(new StringWriter()), "--help");

        assertThat(out.toString()).doesNotContainPattern("(?m)^\\s+bench\\b").contains("watch");
    }
}
