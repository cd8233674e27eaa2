package org.lockstep.cli;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.Function;
import org.lockstep.config.LockstepConfig;
import org.lockstep.text.Language;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/**
 * The {@code lockstep} command: with no subcommand it opens the desktop it was given ({@link Desktop}); with one, it
 * runs that command and exits. The global options are {@link GlobalOptionsMixin}'s.
 *
 * <p>Exit codes, the same for every subcommand, are {@link ExitCodes}.
 *
 * <p>Its subcommands ({@link #SUBCOMMANDS}) are given to picocli when a command line needs them, not in its
 * {@code @Command} annotation: picocli builds the model of every command it is given, by reflection over its
 * annotations, when the command line is made, and for all nineteen that took 0.25 CPU-s of every start, one of them
 * 0.1 (issue 30, measured on the app image's runtime). {@link #commandLine(Desktop, String...)} gives it the one
 * named in the arguments, or none for the desktop; help and anything it cannot place get all of them.
 */
@Command(name = "lockstep", mixinStandardHelpOptions = true, version = "Lockstep 0.1",
        // Every subcommand (and theirs) answers --help and --version too.
        scope = ScopeType.INHERIT,
        description = "Edit shared customer records side by side without losing anyone's work.")
public final class Launcher implements Callable<Integer>, GlobalOptions {

    private static final Logger LOG = LoggerFactory.getLogger(Launcher.class);

    /** Lockstep's subcommands by name, in the order {@code lockstep --help} lists them. */
    static final Map<String, Class<?>> SUBCOMMANDS = subcommands(ListCommand.class, GetCommand.class,
            CreateCommand.class, SetCommand.class, RestoreCommand.class, DeleteCommand.class, ImportCommand.class,
            ExportCommand.class, DbCommand.class, LeaseCommand.class, DraftsCommand.class, TimelineCommand.class,
            WatchCommand.class, LabCommand.class, EditCommand.class, DemoCommand.class, ReportCommand.class,
            AdminCommand.class, BenchmarksMovedCommand.class);

    private static Map<String, Class<?>> subcommands(Class<?>... commands) {
        Map<String, Class<?>> byName = new LinkedHashMap<>();
        for (Class<?> c : commands) {
            byName.put(c.getAnnotation(Command.class).name(), c);
        }
        return byName;
    }

    @Mixin
    GlobalOptionsMixin options;

    @Option(names = "--lang", paramLabel = "TAG", converter = LanguageConverter.class,
            description = "The desktop's language: en (English), pt-BR (Português) or es (Español). Default the "
                    + "operating system's language, English when it is another. The command line speaks English.")
    Language lang;

    @Override
    public LockstepConfig config() {
        return options.config();
    }

    @Override
    public Duration leaseTtlOr(Duration fallback) {
        return options.leaseTtlOr(fallback);
    }

    private final Desktop desktop;

    private Launcher(Desktop desktop) {
        this.desktop = desktop;
    }

    @Override
    public Integer call() {
        return desktop.openEditor(config(), leaseTtlOr(Desktop.DEMO_LEASE_TTL), Optional.ofNullable(lang));
    }

    /** The desktop that {@code lockstep} with no subcommand, and {@code lockstep demo}, open. */
    Desktop desktop() {
        return desktop;
    }

    /**
     * Runs the command line without a desktop ({@link Desktop#NONE}) and exits with its exit code: {@code lockstep}'s
     * subcommands where no desktop is wanted (tests start it in a child JVM). The application's main class, with the
     * desktop, is {@code org.lockstep.app.Main}.
     */
    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs the command line (without a desktop) in-process and returns the exit code; tests call this. */
    public static int run(String... args) {
        return commandLine(Desktop.NONE, args).execute(args);
    }

    /**
     * Runs Lockstep in-process with the given stdout and stderr and returns the exit code; for tests and embedding.
     * Both writers are flushed before it returns.
     */
    public static int run(PrintWriter out, PrintWriter err, String... args) {
        CommandLine cl = commandLine(Desktop.NONE, args);
        cl.setOut(out);
        cl.setErr(err);
        try {
            return cl.execute(args);
        } finally {
            out.flush();
            err.flush();
        }
    }

    /** The configured picocli command line without a desktop ({@link Desktop#NONE}). */
    public static CommandLine commandLine() {
        return commandLine(Desktop.NONE);
    }

    /**
     * The configured picocli command line with every subcommand, its failures mapped to {@link ExitCodes}.
     *
     * @param desktop what {@code lockstep} without a subcommand and {@code lockstep demo} open
     */
    public static CommandLine commandLine(Desktop desktop) {
        return withSubcommands(desktop, root -> SUBCOMMANDS.keySet());
    }

    /**
     * The configured picocli command line for running {@code args}: with the subcommand they name, none when they
     * name none (the desktop), every one for help or for what this cannot place (an unknown word or option, {@code
     * --}), so that picocli's messages and suggestions are those of the whole command line.
     *
     * @param desktop what {@code lockstep} without a subcommand and {@code lockstep demo} open
     * @param args    the arguments the command line is then run with
     */
    public static CommandLine commandLine(Desktop desktop, String... args) {
        return withSubcommands(desktop, root -> needed(root, args));
    }

    /**
     * The configured command line with the subcommands {@code names} picks, given the root command's model (picocli
     * builds that once, with the command line).
     */
    private static CommandLine withSubcommands(Desktop desktop, Function<CommandSpec, Set<String>> names) {
        CommandLine cl = new CommandLine(new Launcher(desktop));
        addSubcommands(cl, names.apply(cl.getCommandSpec()));
        return configure(cl);
    }

    private static void addSubcommands(CommandLine cl, Set<String> names) {
        SUBCOMMANDS.forEach((name, command) -> {
            if (names.contains(name)) {
                cl.addSubcommand(name, command);
            }
        });
    }

    /**
     * The subcommands running {@code args} needs: the first word that is not an option of {@code root} or its value,
     * when it names one; none when there is no such word (the desktop, {@code --version}); all for {@code --help}, an
     * option {@code root} does not have, {@code --} or a word that names none.
     */
    static Set<String> needed(CommandSpec root, String... args) {
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (arg.equals("--")) {
                return SUBCOMMANDS.keySet();
            }
            if (arg.startsWith("-")) {
                OptionSpec option = root.findOption(arg.contains("=") ? arg.substring(0, arg.indexOf('=')) : arg);
                if (option == null || option.usageHelp()) {
                    return SUBCOMMANDS.keySet();
                }
                if (!arg.contains("=") && option.arity().min() > 0) {
                    i++; // its value
                }
                continue;
            }
            return SUBCOMMANDS.containsKey(arg) ? Set.of(arg) : SUBCOMMANDS.keySet();
        }
        return Set.of();
    }

    /**
     * Gives a root command {@code lockstep}'s behaviour: each subcommand's help lists its own options, and failures
     * map to {@link ExitCodes} (a wrong option {@code INVALID}, a failed command {@code FAILURE}, logged in full).
     *
     * @return {@code cl}
     */
    public static CommandLine configure(CommandLine cl) {
        OwnOptionsHelp.install(cl);
        cl.setExitCodeExceptionMapper(
                e -> e instanceof CommandLine.ParameterException ? ExitCodes.INVALID : ExitCodes.FAILURE);
        cl.getCommandSpec().exitCodeOnInvalidInput(ExitCodes.INVALID);
        cl.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            LOG.info("{} failed", commandLine.getCommandName(), e);
            commandLine.getErr().println("lockstep: " + (e.getMessage() == null ? e.toString() : e.getMessage()));
            return e instanceof IllegalArgumentException ? ExitCodes.INVALID : ExitCodes.FAILURE;
        });
        return cl;
    }
}
