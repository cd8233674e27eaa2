package org.lockstep.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.lockstep.config.LockstepConfig;
import org.lockstep.text.Language;
import picocli.CommandLine;

/**
 * {@code lockstep edit ID} hands the desktop the customer to open, with the global options and the language, and
 * returns the desktop's exit code; an id that cannot be a customer's is exit 2 before any window opens. The desktop
 * here only records what it was asked (the window itself: {@code LockstepApplicationTest} in lockstep-desktop, and the
 * whole process: {@code CrashRecoveryTest} in lockstep-app).
 */
class EditCommandTest {

    record Opened(LockstepConfig config, Optional<Language> lang, long customerId) {
    }

    final List<Opened> opened = new ArrayList<>();
    final StringWriter err = new StringWriter();

    final Desktop desktop = new Desktop() {
        @Override
        public int openEditor(LockstepConfig config, Duration demoLeaseTtl, Optional<Language> lang) {
            throw new AssertionError("edit opens the desktop on a customer");
        }

        @Override
        public int openEditor(LockstepConfig config, Duration demoLeaseTtl, Optional<Language> lang,
                long customerId) {
            opened.add(new Opened(config, lang, customerId));
            return ExitCodes.OK;
        }

        @Override
        public int openDemo(LockstepConfig config, Duration leaseTtl, Optional<Language> lang,
                OptionalInt trainerScreen) {
            throw new AssertionError("edit opens no demo");
        }
    };

    int lockstep(String... args) {
        CommandLine cl = Launcher.commandLine(desktop);
        cl.setErr(new PrintWriter(err, true));
        return cl.execute(args);
    }

    @Test
    void theDesktopOpensOnTheCustomerWithTheGlobalOptionsAndItsExitCodeIsTheCommands() {
        int code = lockstep("--user", "Ana", "--data-dir", "/tmp/lockstep-edit-test", "edit", "42", "--lang",
                "pt-BR");

        assertThat(code).isEqualTo(ExitCodes.OK);
        assertThat(opened).singleElement().satisfies(o -> {
            assertThat(o.customerId()).isEqualTo(42);
            assertThat(o.lang()).contains(Language.PORTUGUESE_BRAZIL);
            assertThat(o.config().user()).isEqualTo("Ana");
            assertThat(o.config().dataDir()).hasToString("/tmp/lockstep-edit-test");
        });
    }

    @Test
    void theGlobalLanguageBeforeTheCommandCountsToo() {
        lockstep("--lang", "es", "edit", "7");

        assertThat(opened).singleElement().extracting(Opened::lang).isEqualTo(Optional.of(Language.SPANISH));
    }

    @Test
    void anIdBelowOneOrNotANumberIsInvalidAndOpensNothing() {
        assertThat(lockstep("edit", "0")).isEqualTo(ExitCodes.INVALID);
        assertThat(err.toString()).contains("lockstep: a customer's id is 1 or more, not 0");
        assertThat(lockstep("edit", "four")).isEqualTo(ExitCodes.INVALID);
        assertThat(lockstep("edit")).isEqualTo(ExitCodes.INVALID);

        assertThat(opened).isEmpty();
    }
}
