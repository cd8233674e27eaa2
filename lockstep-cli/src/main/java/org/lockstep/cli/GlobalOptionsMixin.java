package org.lockstep.cli;

import java.nio.file.Path;
import java.time.Duration;
import org.lockstep.cli.log.LogFile;
import org.lockstep.config.LockstepConfig;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/**
 * The global options ({@code --db-url}, {@code --data-dir}, {@code --user}, …) as a picocli mixin, declared once for
 * every root command that reaches a Lockstep database: {@code lockstep} ({@link Launcher}) and the benchmarks'
 * {@code lockstep-bench}. Each is inherited by the root's subcommands, so it may be given before or after a
 * command's name.
 */
public final class GlobalOptionsMixin implements GlobalOptions {

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

}
