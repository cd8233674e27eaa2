package org.lockstep.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lockstep.cli.Launcher;

/**
 * What {@code bench startup} reads of a process it starts (issue 30), on a real one: {@code lockstep --help} in a JVM
 * of its own, whose CPU time the kernel hands this JVM once it is waited for, and whose peak memory {@code /proc}
 * shows while it runs.
 */
class StartupBenchmarkTest {

    @Test
    void aCommandsWallCpuAndPeakMemoryAreReadFromTheProcessItself(@TempDir Path dataDir) throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        StartupBenchmark.Launch launch = new StartupBenchmark.Launch(List.of(java.toString(), "-cp",
                System.getProperty("java.class.path"), Launcher.class.getName()), Map.of(), "lockstep");
        StartupBenchmark b = new StartupBenchmark(launch, dataDir, new PrintWriter(new StringWriter()));

        StartupBenchmark.Output help = b.commandWithOutput("--help");

        assertThat(help.run().exit()).isZero();
        assertThat(help.stdout()).contains("Usage: lockstep");
        // A JVM that started and printed its usage spent CPU, and at least tens of MB; and never more CPU than the
        // wall time on the two cores it may use.
        assertThat(help.run().cpuMs()).isPositive().isLessThanOrEqualTo(2 * help.run().wallMs() + 10);
        assertThat(help.run().peakRssKb()).isGreaterThan(10 * 1024);
        assertThat(help.run().wallMs()).isPositive();
    }

    @Test
    void thisProcessesOwnFiguresAreRead() throws Exception {
        long self = ProcessHandle.current().pid();

        assertThat(StartupBenchmark.status(self, "VmHWM")).hasValueSatisfying(kb -> assertThat(kb).isPositive());
        assertThat(StartupBenchmark.cpuTicks(self)).isPositive();
        assertThat(StartupBenchmark.childrenCpuTicks()).isNotNegative();
        assertThat(StartupBenchmark.status(self, "NoSuchField")).isEmpty();
    }
}
