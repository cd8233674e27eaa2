package org.lockstep.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/**
 * The help as a newcomer reads it: each command lists its own options, the global ones are described once in
 * {@code lockstep --help}, and no path or option name is split by the word wrap. No database is needed.
 */
class HelpTest {

    static final List<String> GLOBAL = List.of("--db-url", "--listen-url", "--data-dir", "--user", "--lease-ttl",
            "--lock-idle", "--allow-unsafe", "--locale");

    /** Every command and subcommand, as the words a user types before --help. */
    static Stream<List<String>> commands() {
        return commandsUnder(Launcher.commandLine(), List.of()).stream();
    }

    private static List<List<String>> commandsUnder(picocli.CommandLine parent, List<String> path) {
        List<List<String>> all = new java.util.ArrayList<>();
        parent.getSubcommands().forEach((name, sub) -> {
            List<String> words = Stream.concat(path.stream(), Stream.of(name)).toList();
            all.add(words);
            all.addAll(commandsUnder(sub, words));
        });
        return all;
    }

    @Test
    void theRootHelpDescribesEachGlobalOptionOnce() {
        String help = help(List.of());

        for (String option : GLOBAL) {
            assertThat(occurrences(help, "^ {2,6}(-\\w, )?" + Pattern.quote(option) + "\\b"))
                    .as("%s described once", option).isEqualTo(1);
        }
        assertThat(help).contains("~/.local/share/lockstep").doesNotContainPattern("/\\.\\s*\\n");
    }

    @ParameterizedTest(name = "lockstep {0} --help")
    @MethodSource("commands")
    void eachCommandListsItsOwnOptionsAndPointsToTheGlobalOnes(List<String> command) {
        String help = help(command);

        assertThat(help).startsWith("Usage: lockstep " + String.join(" ", command));
        for (String option : GLOBAL) {
            assertThat(help).as("lockstep %s --help", command).doesNotContain(option + "=")
                    .doesNotContainPattern("(?m)^ {2,6}" + Pattern.quote(option) + "\\b");
        }
        assertThat(help).contains("--help");
        assertThat(help.replaceAll("\\s+", " ")).contains(OwnOptionsHelp.globalOptionsFooter("lockstep"));
    }

    @Test
    void aCommandsOwnOptionsAreListedAndGlobalOnesStillParseAfterTheCommand() {
        String help = help(List.of("set"));

        assertThat(help).contains("--if-version=N").contains("--merge").contains("--lease-token=T");
        // Given after the command's name, a global option still reaches the launcher: a blank --user is refused by
        // the launcher's own check, naming the option.
        StringWriter err = new StringWriter();
        int code = Launcher.run(new PrintWriter(new StringWriter()), new PrintWriter(err), "get", "1", "--user", " ");
        assertThat(code).isEqualTo(ExitCodes.INVALID);
        assertThat(err.toString()).contains("--user");
    }

    private static String help(List<String> command) {
        StringWriter out = new StringWriter();
        String[] args = Stream.concat(command.stream(), Stream.of("--help")).toArray(String[]::new);
        int code = Launcher.run(new PrintWriter(out), new PrintWriter(new StringWriter()), args);
        assertThat(code).isEqualTo(ExitCodes.OK);
        return out.toString();
    }

    private static int occurrences(String text, String regex) {
        Matcher m = Pattern.compile(regex, Pattern.MULTILINE).matcher(text);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }
}
