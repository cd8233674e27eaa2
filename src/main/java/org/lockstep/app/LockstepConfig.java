package org.lockstep.app;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * Where Lockstep's data lives and who is editing. Each setting comes from a command-line option, else an
 * environment variable, else a default:
 * <ul>
 *   <li>database: {@code --db-url} / {@code LOCKSTEP_DB_URL}; without it, the embedded server in the data
 *       directory;</li>
 *   <li>data directory: {@code --data-dir} / {@code LOCKSTEP_DATA_DIR} / {@code $XDG_DATA_HOME/lockstep} /
 *       {@code ~/.local/share/lockstep};</li>
 *   <li>operator: {@code --user} / {@code LOCKSTEP_USER} / the operating-system user;</li>
 *   <li>lease TTL of the editor's lock for editing: {@code --lease-ttl} / 60 s;</li>
 *   <li>"Last write wins (unsafe)" offered in the editor, for teaching the lost update: {@code --allow-unsafe} / no.</li>
 * </ul>
 *
 * @param dbUrl    a {@code jdbc:postgresql://} URL of a shared server, or empty for the embedded one
 * @param dataDir  the data directory of the embedded server
 * @param user     the operator's name, written to {@code updated_by}
 * @param leaseTtl how long an editor's lease lasts unless renewed (renewed every third of it)
 * @param lockIdle how long an editor holding a lock may sit idle before it warns, then lets the lock go
 * @param allowUnsafe whether editors offer "Last write wins (unsafe)", the lost-update bug kept for teaching
 *                    ({@code --allow-unsafe}); {@code false} unless asked for
 */
public record LockstepConfig(Optional<String> dbUrl, Path dataDir, String user, Duration leaseTtl,
                             Duration lockIdle, boolean allowUnsafe) {

    /** The lease TTL without {@code --lease-ttl} (issue 4). */
    public static final Duration DEFAULT_LEASE_TTL = Duration.ofSeconds(60);
    /** The idle time after which an editor lets its lock go, without {@code --lock-idle} (issue 4). */
    public static final Duration DEFAULT_LOCK_IDLE = Duration.ofMinutes(15);

    /** Settings with the default lease TTL and idle limit. */
    public LockstepConfig(Optional<String> dbUrl, Path dataDir, String user) {
        this(dbUrl, dataDir, user, DEFAULT_LEASE_TTL, DEFAULT_LOCK_IDLE);
    }

    /** Settings without "Last write wins (unsafe)". */
    public LockstepConfig(Optional<String> dbUrl, Path dataDir, String user, Duration leaseTtl, Duration lockIdle) {
        this(dbUrl, dataDir, user, leaseTtl, lockIdle, false);
    }

    /** The same settings, with "Last write wins (unsafe)" allowed in editors or not ({@code --allow-unsafe}). */
    public LockstepConfig withAllowUnsafe(boolean allow) {
        return new LockstepConfig(dbUrl, dataDir, user, leaseTtl, lockIdle, allow);
    }

    /**
     * Resolves the settings.
     *
     * @param dbUrl   the option's value or {@code null}
     * @param dataDir the option's value or {@code null}
     * @param user    the option's value or {@code null}
     * @param env     the environment (normally {@link System#getenv()})
     */
    public static LockstepConfig resolve(String dbUrl, Path dataDir, String user, Map<String, String> env) {
        return resolve(dbUrl, dataDir, user, null, null, env);
    }

    /**
     * Resolves the settings, with the lease TTL.
     *
     * @param leaseTtl the option's value or {@code null} for {@link #DEFAULT_LEASE_TTL}
     * @param lockIdle the option's value or {@code null} for {@link #DEFAULT_LOCK_IDLE}
     */
    public static LockstepConfig resolve(String dbUrl, Path dataDir, String user, Duration leaseTtl,
                                         Duration lockIdle, Map<String, String> env) {
        String url = firstNonBlank(dbUrl, env.get("LOCKSTEP_DB_URL"));
        Path dir = dataDir != null ? dataDir : defaultDataDir(env);
        if (user != null && user.isBlank()) {
            // Said on purpose and empty: falling back to the OS account would record saves under a name nobody chose.
            throw new IllegalArgumentException("--user: the operator's name must not be blank");
        }
        String who = firstNonBlank(user, env.get("LOCKSTEP_USER"), System.getProperty("user.name"), "operator");
        return new LockstepConfig(Optional.ofNullable(url), dir.toAbsolutePath().normalize(), who.strip(),
                leaseTtl == null ? DEFAULT_LEASE_TTL : leaseTtl, lockIdle == null ? DEFAULT_LOCK_IDLE : lockIdle);
    }

    /** Where extracted PostgreSQL binaries are cached: {@code $XDG_CACHE_HOME/lockstep} or {@code ~/.cache/lockstep}. */
    public static Path cacheDir(Map<String, String> env) {
        String xdg = env.get("XDG_CACHE_HOME");
        Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache");
        return base.resolve("lockstep");
    }

    private static Path defaultDataDir(Map<String, String> env) {
        String explicit = env.get("LOCKSTEP_DATA_DIR");
        if (explicit != null && !explicit.isBlank()) {
            return Path.of(explicit);
        }
        String xdg = env.get("XDG_DATA_HOME");
        Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg)
                : Path.of(System.getProperty("user.home"), ".local", "share");
        return base.resolve("lockstep");
    }

    private static String firstNonBlank(String... values) {
        for (String v : values) {
            if (v != null && !v.isBlank()) {
                return v;
            }
        }
        return null;
    }
}
