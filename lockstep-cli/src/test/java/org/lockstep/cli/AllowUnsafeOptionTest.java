package org.lockstep.cli;

import org.lockstep.config.LockstepConfig;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The global option {@code --allow-unsafe}: offers "Last write wins (unsafe)" in the editor, for teaching only. */
class AllowUnsafeOptionTest {

    private static LockstepConfig configOf(String... args) {
        CommandLine cl = Launcher.commandLine();
        cl.parseArgs(args);
        return ((Launcher) cl.getCommand()).config();
    }

    @Test
    void withoutTheOptionTheUnsafeModeIsNotAllowed() {
        assertThat(configOf().allowUnsafe()).isFalse();
        assertThat(configOf("--user", "Alice").allowUnsafe()).isFalse();
    }

    @Test
    void theOptionAllowsIt() {
        assertThat(configOf("--allow-unsafe").allowUnsafe()).isTrue();
        assertThat(configOf("--user", "Alice", "--allow-unsafe").user()).isEqualTo("Alice");
    }

    @Test
    void itIsGlobalSoItMayFollowASubcommand() {
        assertThat(configOf("db", "status", "--allow-unsafe").allowUnsafe()).isTrue();
    }

    @Test
    void configsMadeWithoutItDoNotAllowItAndWithAllowUnsafeChangesOnlyThat() {
        LockstepConfig plain = new LockstepConfig(Optional.empty(), Path.of("/tmp/lockstep"), "Bob");

        LockstepConfig unsafe = plain.withAllowUnsafe(true);

        assertThat(plain.allowUnsafe()).isFalse();
        assertThat(unsafe.allowUnsafe()).isTrue();
        assertThat(unsafe.withAllowUnsafe(false)).isEqualTo(plain);
    }
}
