package org.lockstep.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The global option {@code --lease-ttl}: the TTL of the editor's lock for editing. */
class LeaseTtlOptionTest {

    private static LockstepConfig configOf(String... args) {
        CommandLine cl = Launcher.commandLine();
        cl.parseArgs(args);
        return ((Launcher) cl.getCommand()).config();
    }

    @Test
    void withoutTheOptionALeaseLastsSixtySeconds() {
        assertThat(configOf().leaseTtl()).isEqualTo(Duration.ofSeconds(60));
    }

    @Test
    void theIdleLimitDefaultsToFifteenMinutesAndCanBeSet() {
        assertThat(configOf().lockIdle()).isEqualTo(Duration.ofMinutes(15));
        assertThat(configOf("--lock-idle", "5m").lockIdle()).isEqualTo(Duration.ofMinutes(5));
    }

    @Test
    void theOptionTakesDurationsAsOperatorsWriteThem() {
        assertThat(configOf("--lease-ttl", "90s").leaseTtl()).isEqualTo(Duration.ofSeconds(90));
        assertThat(configOf("--lease-ttl", "2m").leaseTtl()).isEqualTo(Duration.ofMinutes(2));
    }

    @Test
    void aDurationThatIsNoneIsInvalidInput() {
        StringWriter err = new StringWriter();

        int exit = Launcher.run(new PrintWriter(new StringWriter()), new PrintWriter(err), "--lease-ttl", "soon",
                "db", "status");

        assertThat(exit).isEqualTo(Launcher.INVALID);
        assertThat(err.toString()).contains("'soon' is not a duration");
    }
}
