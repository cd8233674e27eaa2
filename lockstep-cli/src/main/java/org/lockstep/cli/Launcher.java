package org.lockstep.cli;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.lockstep.config.LockstepConfig;
import org.lockstep.text.Language;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/**
 * The {@code lockstep} command: with no subcommand it opens the desktop it was given ({@link Desktop}); with one, it
 * runs that command and exits. The global options are {@link GlobalOptionsMixin}'s.
 *
 * <p>Exit codes, the same for every subcommand, are {@link ExitCodes}.
 */
@Command(name = "lockstep", mixinStandardHelpOptions = true, version = "Lockstep 0.1",
        // Every subcommand (and theirs) answers --help and --version too.
        scope = ScopeType.INHERIT,
        description = "Edit shared customer records side by side without losing anyone's work.",
        subcommands = {
                ListCommand.class,
                GetCommand.class,
                CreateCommand.class,
                SetCommand.class,
                RestoreCommand.class,
                DeleteCommand.class,
                ImportCommand.class,
                ExportCommand.class,
                DbCommand.class,
                LeaseCommand.class,
                DraftsCommand.class,
                TimelineCommand.class,
                WatchCommand.class,
                LabCommand.class,
                EditCommand.class,
                DemoCommand.class,
                ReportCommand.class,
                AdminCommand.class,
                BenchmarksMovedCommand.class,
        })
public final class Launcher implements Callable<Integer>, GlobalOptions {

    private static final Logger LOG = LoggerFactory.getLogger(Launcher.class);

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
        return commandLine().execute(args);
    }

    /**
     * Runs Lockstep in-process with the given stdout and stderr and returns the exit code; for tests and embedding.
     * Both writers are flushed before it returns.
     */
    public static int run(PrintWriter out, PrintWriter err, String... args) {
        CommandLine cl = commandLine(Desktop.NONE);
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
     * The configured picocli command line, its failures mapped to {@link ExitCodes}.
     *
     * @param desktop what {@code lockstep} without a subcommand and {@code lockstep demo} open
     */
    public static CommandLine commandLine(Desktop desktop) {
        return configure(new CommandLine(new Launcher(desktop)));
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
