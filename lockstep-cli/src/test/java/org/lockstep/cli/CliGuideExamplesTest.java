package org.lockstep.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.TestDatabases;

/**
 * Runs the examples of {@code docs/cli.md} and compares what each command prints with what the guide shows, so that
 * the guide's examples are the command line's behaviour, not a memory of it (the convention is written at the top of
 * the guide):
 * <ul>
 *   <li>a block fenced as {@code ```console} is a session: each {@code $ lockstep …} line is run, in the guide's
 *       order, on one fresh database (the 59 sample customers load on the first command), in-process as
 *       {@code --user alice} unless the line gives {@code --user}; the lines up to the next {@code $} are what it
 *       prints, stdout and stderr in the order written (one writer for both, as a terminal shows them);</li>
 *   <li>{@code $ echo $?} shows the previous command's exit code; {@code $ cat}, {@code $ head -n N} and
 *       {@code $ tail -n N} show a file the examples wrote; nothing else runs;</li>
 *   <li>a block fenced as {@code ```csv file=NAME} (any language, with {@code file=NAME}) is written to the scratch
 *       directory under that name before the examples after it run; a command's argument that names such a file, or
 *       ends in {@code .csv} or {@code .svg}, is a file in that directory.</li>
 * </ul>
 * Compared after replacing only what legitimately differs between runs: timestamps ({@code 2026-12-02T10:15:02.114301Z},
 * {@code 2026-12-02}, {@code 10:15:02.114}) and the scratch directory's path; trailing spaces on a line are ignored.
 * Ids, versions and fencing tokens are the database's own: on a fresh database they come out the same every run.
 */
@DatabaseTest
class CliGuideExamplesTest {

    static final Path GUIDE = Path.of("..", "docs", "cli.md");
    static final String DEFAULT_USER = "alice";

    private static final Pattern FENCE = Pattern.compile("^```(\\S*)(.*)$");
    private static final Pattern FILE_NAME = Pattern.compile("\\bfile=(\\S+)");
    private static final Pattern INSTANT = Pattern
            .compile("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,9})?(Z|[+-]\\d{2}:\\d{2})?");
    private static final Pattern DATE = Pattern.compile("\\b\\d{4}-\\d{2}-\\d{2}\\b");
    private static final Pattern TIME = Pattern.compile("\\b\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,9})?\\b");
    private static final Pattern HEAD_OR_TAIL = Pattern.compile("(head|tail) -n (\\d+) (\\S+)");

    @TempDir
    Path scratch;

    /** One step of the guide: a file it writes, or a command and what the guide shows it printing. */
    sealed interface Step {
        int line();
    }

    record FileStep(int line, String name, String content) implements Step {
    }

    record Command(int line, String text, String expected) implements Step {
    }

    @TestFactory
    Stream<DynamicTest> theGuidesExamplesPrintWhatTheGuideShows() throws IOException {
        List<Step> steps = steps(Files.readAllLines(GUIDE, StandardCharsets.UTF_8));
        assertThat(steps.stream().filter(Command.class::isInstance).count()).as("commands found in %s", GUIDE)
                .isGreaterThan(20);
        String url = TestDatabases.freshUrlWithCredentials();
        Path dataDir = scratch.resolve("data-dir");
        int[] lastExit = {0};
        return steps.stream().map(step -> {
            if (step instanceof FileStep f) {
                return DynamicTest.dynamicTest("cli.md:" + f.line() + " file " + f.name(),
                        () -> Files.writeString(scratch.resolve(f.name()), f.content(), StandardCharsets.UTF_8));
            }
            Command c = (Command) step;
            return DynamicTest.dynamicTest("cli.md:" + c.line() + " $ " + c.text(), () -> {
                String printed = run(c.text(), url, dataDir, lastExit);
                assertThat(normalised(printed)).as("cli.md line %d: $ %s%n--- printed:%n%s", c.line(), c.text(),
                        printed).isEqualTo(normalised(c.expected()));
            });
        });
    }

    /** Runs one command of the guide and returns what it printed; sets {@code lastExit} to its exit code. */
    private String run(String command, String url, Path dataDir, int[] lastExit) throws IOException {
        if (command.equals("echo $?")) {
            return lastExit[0] + "\n";
        }
        if (command.startsWith("cat ")) {
            return Files.readString(scratch.resolve(command.substring(4).trim()), StandardCharsets.UTF_8);
        }
        Matcher headOrTail = HEAD_OR_TAIL.matcher(command);
        if (headOrTail.matches()) {
            List<String> lines = Files.readAllLines(scratch.resolve(headOrTail.group(3)), StandardCharsets.UTF_8);
            int n = Math.min(Integer.parseInt(headOrTail.group(2)), lines.size());
            List<String> shown = headOrTail.group(1).equals("head") ? lines.subList(0, n)
                    : lines.subList(lines.size() - n, lines.size());
            return String.join("\n", shown) + "\n";
        }
        List<String> words = words(command);
        assertThat(words).as("a command of the guide runs lockstep: %s", command).first().isEqualTo("lockstep");
        List<String> args = new ArrayList<>(List.of("--db-url", url, "--data-dir", dataDir.toString()));
        if (!words.contains("--user")) {
            args.addAll(List.of("--user", DEFAULT_USER));
        }
        for (String word : words.subList(1, words.size())) {
            boolean file = !word.startsWith("-") && !word.contains("=")
                    && (Files.exists(scratch.resolve(word)) || word.endsWith(".csv") || word.endsWith(".svg"));
            args.add(file ? scratch.resolve(word).toString() : word);
        }
        StringWriter printed = new StringWriter();
        PrintWriter both = new PrintWriter(printed);
        lastExit[0] = Launcher.run(both, both, args.toArray(String[]::new));
        return printed.toString();
    }

    /** The guide's files and commands, in order. */
    static List<Step> steps(List<String> lines) {
        List<Step> steps = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            Matcher fence = FENCE.matcher(lines.get(i));
            if (!fence.matches() || fence.group(1).isEmpty()) {
                continue;
            }
            int start = i + 1;
            int end = start;
            while (!lines.get(end).startsWith("```")) {
                end++;
            }
            List<String> body = lines.subList(start, end);
            Matcher file = FILE_NAME.matcher(fence.group(2));
            if (fence.group(1).equals("console")) {
                steps.addAll(commands(body, start + 1));
            } else if (file.find()) {
                steps.add(new FileStep(i + 1, file.group(1), String.join("\n", body) + "\n"));
            }
            i = end;
        }
        return steps;
    }

    /** The commands of one console block whose first line is line {@code firstLine} of the guide. */
    private static List<Command> commands(List<String> body, int firstLine) {
        List<Command> commands = new ArrayList<>();
        for (int i = 0; i < body.size(); i++) {
            String line = body.get(i);
            assertThat(line).as("cli.md line %d: a console block starts with a command", firstLine + i)
                    .startsWith("$ ");
            int j = i + 1;
            while (j < body.size() && !body.get(j).startsWith("$ ")) {
                j++;
            }
            String expected = body.subList(i + 1, j).stream().map(l -> l + "\n").reduce("", String::concat);
            commands.add(new Command(firstLine + i, line.substring(2).trim(), expected));
            i = j - 1;
        }
        return commands;
    }

    /** A command line split into words as a POSIX shell would: single and double quotes, backslash escapes. */
    static List<String> words(String command) {
        List<String> words = new ArrayList<>();
        StringBuilder word = null;
        char quote = 0;
        for (int i = 0; i < command.length(); i++) {
            char c = command.charAt(i);
            if (quote == '\'') {
                if (c == '\'') {
                    quote = 0;
                } else {
                    word.append(c);
                }
            } else if (quote == '"') {
                if (c == '"') {
                    quote = 0;
                } else if (c == '\\' && i + 1 < command.length() && "\"\\$`".indexOf(command.charAt(i + 1)) >= 0) {
                    word.append(command.charAt(++i));
                } else {
                    word.append(c);
                }
            } else if (c == ' ') {
                if (word != null) {
                    words.add(word.toString());
                    word = null;
                }
            } else {
                word = word == null ? new StringBuilder() : word;
                if (c == '\'' || c == '"') {
                    quote = c;
                } else if (c == '\\' && i + 1 < command.length()) {
                    word.append(command.charAt(++i));
                } else {
                    word.append(c);
                }
            }
        }
        assertThat(quote).as("quotes closed in: %s", command).isEqualTo((char) 0);
        if (word != null) {
            words.add(word.toString());
        }
        return words;
    }

    /** {@code text} with what differs between runs replaced, trailing spaces and trailing empty lines dropped. */
    private String normalised(String text) {
        String t = text.replace(scratch + "/", "");
        t = INSTANT.matcher(t).replaceAll("<instant>");
        t = DATE.matcher(t).replaceAll("<date>");
        t = TIME.matcher(t).replaceAll("<time>");
        return t.lines().map(String::stripTrailing).reduce("", (a, b) -> a + b + "\n").stripTrailing();
    }
}
