package org.lockstep.app.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.lockstep.app.DesktopApp;
import org.lockstep.app.ExitCodes;
import org.lockstep.app.GlobalOptions;
import org.lockstep.app.LockstepConfig;
import org.lockstep.app.bench.BenchCommand;
import org.lockstep.app.log.LogFile;
import org.lockstep.text.Language;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/**
 * Lockstep's entry point: with no subcommand it opens the desktop editor; with one, it runs that command and exits.
 * It does not extend {@code javafx.application.Application}, so that {@code java -jar lockstep.jar} works with
 * JavaFX on the class path.
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
                DeleteCommand.class,
                ImportCommand.class,
                ExportCommand.class,
                DbCommand.class,
                LeaseCommand.class,
                TimelineCommand.class,
                WatchCommand.class,
                LabCommand.class,
                DemoCommand.class,
                GenerateCommand.class,
                BenchCommand.class,
                ReportCommand.class,
        })
public final class Launcher implements Callable<Integer>, GlobalOptions {

    private static final Logger LOG = LoggerFactory.getLogger(Launcher.class);

    @Option(names = "--db-url", scope = ScopeType.INHERIT, paramLabel = "URL",
            description = "A shared PostgreSQL (>= 13): jdbc:postgresql://HOST[:PORT]/DB. Env LOCKSTEP_DB_URL. "
                    + "Without it, Lockstep runs its embedded server.")
    String dbUrl;

    @Option(names = "--listen-url", scope = ScopeType.INHERIT, paramLabel = "URL",
            description = "Where live updates LISTEN when --db-url goes through PgBouncer in transaction pooling: "
                    + "the PostgreSQL server itself, jdbc:postgresql://HOST[:PORT]/DB. Env LOCKSTEP_LISTEN_URL; "
                    + "default the --db-url.")
    String listenUrl;

    @Option(names = "--data-dir", scope = ScopeType.INHERIT, paramLabel = "DIR",
            // The default path on a line of its own: the help's word wrap would otherwise split it after "~/.".
            description = {"The embedded server's data directory. Env LOCKSTEP_DATA_DIR.",
                    "Default ~/.local/share/lockstep, or $XDG_DATA_HOME/lockstep when that is set."})
    Path dataDir;

    @Option(names = "--user", scope = ScopeType.INHERIT, paramLabel = "NAME",
            description = "The operator's name, recorded with every save. Env LOCKSTEP_USER; default the OS user.")
    String user;

    @Option(names = "--lease-ttl", scope = ScopeType.INHERIT, paramLabel = "DURATION",
            converter = DurationConverter.LeaseTtl.class,
            description = "How long an editor's lock for editing lasts unless renewed (renewed every third of it), "
                    + "5s to 24h, e.g. 60s, 2m. Default 60s.")
    Duration leaseTtl;

    @Option(names = "--lock-idle", scope = ScopeType.INHERIT, paramLabel = "DURATION",
            converter = DurationConverter.LockIdle.class,
            description = "How long an editor holding a lock may sit idle before it warns, then releases the lock "
                    + "(keeping the edits), 1m to 24h, e.g. 15m. Default 15m.")
    Duration lockIdle;

    @Option(names = "--allow-unsafe", scope = ScopeType.INHERIT,
            description = "Offer \"Last write wins (unsafe)\" in the editor: Save overwrites every field with no "
                    + "version check, so another operator's save in between is lost without any error. For "
                    + "teaching the lost update only.")
    boolean allowUnsafe;

    @Option(names = "--locale", scope = ScopeType.INHERIT, paramLabel = "TAG",
            description = "Read amounts typed in create, set and import with this locale's separators, e.g. "
                    + "--locale de reads 1.500,50 as 1500.50. Without it they are read locale-neutrally: a point "
                    + "marks decimals, a comma groups thousands (1,500.50). The editor uses it too; without it, "
                    + "the operating system's format locale.")
    String locale;

    @Option(names = "--lang", paramLabel = "TAG", converter = LanguageConverter.class,
            description = "The desktop's language: en (English), pt-BR (Português) or es (Español). Default the "
                    + "operating system's language, English when it is another. The command line speaks English.")
    Language lang;

    /**
     * The settings from options, environment and defaults. Every command resolves them first, so this is also where
     * the detailed log starts going to the data directory's {@code logs/lockstep.log} ({@link LogFile}).
     *
     * @throws IllegalArgumentException when an option's value is invalid (a blank {@code --user}, an unknown
     *         {@code --locale}); the message names the option
     */
    @Override
    public LockstepConfig config() {
        LockstepConfig config = LockstepConfig.resolve(dbUrl, dataDir, user, leaseTtl, lockIdle, System.getenv())
                .withAllowUnsafe(allowUnsafe).withLocale(LockstepConfig.locale(locale))
                .withListenUrl(listenUrl, System.getenv());
        LogFile.useDataDirectory(config.dataDir());
        return config;
    }

    /** The {@code --lease-ttl} given, or {@code fallback} when none was (the demo's shorter default). */
    @Override
    public Duration leaseTtlOr(Duration fallback) {
        return leaseTtl != null ? leaseTtl : fallback;
    }

    @Override
    public Integer call() {
        return DesktopApp.run(config(), leaseTtlOr(DesktopApp.DEMO_LEASE_TTL), Optional.ofNullable(lang));
    }

    /** Runs Lockstep with the given arguments and exits with its exit code. */
    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs Lockstep in-process and returns the exit code; tests call this. */
    public static int run(String... args) {
        return commandLine().execute(args);
    }

    /**
     * Runs Lockstep in-process with the given stdout and stderr and returns the exit code; for tests and embedding.
     * Both writers are flushed before it returns.
     */
    public static int run(PrintWriter out, PrintWriter err, String... args) {
        CommandLine cl = commandLine();
        cl.setOut(out);
        cl.setErr(err);
        try {
            return cl.execute(args);
        } finally {
            out.flush();
            err.flush();
        }
    }

    /** The configured picocli command line, its failures mapped to {@link ExitCodes}. */
    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new Launcher());
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
