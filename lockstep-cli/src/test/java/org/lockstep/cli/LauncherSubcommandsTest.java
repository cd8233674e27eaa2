package org.lockstep.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Arrays;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

/**
 * The command line gets from picocli only the subcommand its arguments name (issue 30: the model of all nineteen cost
 * every start 0.25 CPU-s), and every one where help or picocli's messages need them. No database is needed.
 */
class LauncherSubcommandsTest {

    private static final String ALL = "ALL";

    @ParameterizedTest(name = "[{0}] needs {1}")
    @CsvSource(delimiter = '|', nullValues = "NONE", textBlock = """
            ''                                      | NONE
            --data-dir /tmp/x                       | NONE
            --data-dir /tmp/x --lang es             | NONE
            --version                               | NONE
            -V                                      | NONE
            --data-dir /tmp/x get 1                 | get
            --data-dir=/tmp/x get 1                 | get
            get 1 --data-dir /tmp/x                 | get
            --allow-unsafe list --json              | list
            --user get list                         | list
            lease acquire 1 --json                  | lease
            get --help                              | get
            --help                                  | ALL
            -h                                      | ALL
            --data-dir /tmp/x lsit                  | ALL
            --bogus get 1                           | ALL
            -hV                                     | ALL
            -- get                                  | ALL
            """)
    void theArgumentsNameTheSubcommandsRegistered(String args, String expected) {
        String[] words = args.isBlank() ? new String[0] : args.strip().split("\\s+");

        CommandLine cl = Launcher.commandLine(Desktop.NONE, words);

        Set<String> registered = cl.getSubcommands().keySet();
        if (expected == null) {
            assertThat(registered).isEmpty();
        } else if (expected.equals(ALL)) {
            assertThat(registered).containsExactlyElementsOf(Launcher.SUBCOMMANDS.keySet());
        } else {
            assertThat(registered).containsExactly(expected);
        }
    }

    @Test
    void theWholeCommandLineHasEverySubcommandInHelpOrder() {
        assertThat(Launcher.commandLine().getSubcommands().keySet()).containsExactly("list", "get", "create", "set",
                "restore", "delete", "import", "export", "db", "lease", "drafts", "timeline", "watch", "lab", "edit",
                "demo", "report", "admin", "bench");
    }

    @Test
    void aMistypedCommandIsAnsweredAsTheWholeCommandLineAnswersIt() {
        StringWriter err = new StringWriter();
        StringWriter whole = new StringWriter();
        CommandLine all = Launcher.commandLine();
        all.setOut(new PrintWriter(new StringWriter()));
        all.setErr(new PrintWriter(whole, true));

        int code = Launcher.run(new PrintWriter(new StringWriter()), new PrintWriter(err), "lsit");

        assertThat(code).isEqualTo(ExitCodes.INVALID).isEqualTo(all.execute("lsit"));
        assertThat(err.toString()).contains("Unmatched argument at index 0: 'lsit'", "Did you mean")
                .isEqualTo(whole.toString());
    }

    @Test
    void aSubcommandGivenAloneInheritsTheGlobalOptions() {
        CommandLine cl = Launcher.commandLine(Desktop.NONE, "get", "1");

        assertThat(Arrays.stream(cl.getSubcommands().get("get").getCommandSpec().options().toArray())
                .map(o -> ((CommandLine.Model.OptionSpec) o).longestName())).contains("--data-dir", "--db-url",
                        "--user", "--help");
    }
}
