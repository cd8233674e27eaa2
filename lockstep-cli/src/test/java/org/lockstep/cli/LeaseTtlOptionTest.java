package org.lockstep.cli;

import org.lockstep.config.LockstepConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

/** The global options {@code --lease-ttl} and {@code --lock-idle}: the editor's lock for editing. */
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

        assertThat(exit).isEqualTo(ExitCodes.INVALID);
        assertThat(err.toString()).contains("'soon' is not a duration");
    }

    /**
     * The editor's lease TTL and idle limit have bounds (5 s–24 h, 1 min–24 h): outside them, exit 2 before the
     * database is opened, naming the option, its bounds and the value as typed.
     */
    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(textBlock = """
            --lease-ttl, 1ms,                 must be between 5s and 24h, not 1ms
            --lease-ttl, 4s,                  must be between 5s and 24h, not 4s
            --lease-ttl, 0s,                  must be between 5s and 24h, not 0s
            --lease-ttl, 999999h,             must be between 5s and 24h, not 999999h
            --lease-ttl, 9999999999999999h,   must be between 5s and 24h, not 9999999999999999h
            --lease-ttl, 99999999999999999999, must be between 5s and 24h, not 99999999999999999999
            --lock-idle, 59s,                 must be between 1m and 24h, not 59s
            --lock-idle, 500ms,               must be between 1m and 24h, not 500ms
            --lock-idle, 1441m,               must be between 1m and 24h, not 1441m
            --lock-idle, 9999999999999999h,   must be between 1m and 24h, not 9999999999999999h
            """)
    void aDurationOutsideItsBoundsIsInvalidInputNamingTheBounds(String option, String value, String message) {
        StringWriter err = new StringWriter();

        int exit = Launcher.run(new PrintWriter(new StringWriter()), new PrintWriter(err), option, value,
                "db", "status");

        assertThat(exit).isEqualTo(ExitCodes.INVALID);
        assertThat(err.toString()).contains("'" + option + "'").contains(message).doesNotContain("overflow");
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(textBlock = """
            --lease-ttl, 5s,    5000
            --lease-ttl, 24h,   86400000
            --lease-ttl, 1440m, 86400000
            --lock-idle, 1m,    60000
            --lock-idle, 60s,   60000
            --lock-idle, 24h,   86400000
            """)
    void theBoundsThemselvesAreAccepted(String option, String value, long expectedMs) {
        LockstepConfig config = configOf(option, value);

        Duration d = option.equals("--lease-ttl") ? config.leaseTtl() : config.lockIdle();
        assertThat(d.toMillis()).isEqualTo(expectedMs);
    }

    @Test
    void settingsMadeInCodeAreCheckedToo() {
        assertThatThrownBy(() -> new LockstepConfig(Optional.empty(), Path.of("/tmp/lockstep"), "Bob",
                Duration.ofSeconds(1), Duration.ofMinutes(15)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--lease-ttl must be between 5s and 24h, not 1s");
        assertThatThrownBy(() -> new LockstepConfig(Optional.empty(), Path.of("/tmp/lockstep"), "Bob",
                Duration.ofSeconds(60), Duration.ofDays(2)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--lock-idle must be between 1m and 24h, not 48h");
    }
}
