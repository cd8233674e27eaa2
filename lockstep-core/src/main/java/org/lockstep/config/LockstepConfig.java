package org.lockstep.config;

import org.lockstep.domain.UnicodeText;
import java.nio.file.Path;
import java.text.DecimalFormatSymbols;
import java.time.Duration;
import java.util.Arrays;
import java.util.IllformedLocaleException;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.lockstep.domain.FieldParser;

/**
 * Where Lockstep's data lives and who is editing. Each setting comes from a command-line option, else an
 * environment variable, else a default:
 * <ul>
 *   <li>database: {@code --db-url} / {@code LOCKSTEP_DB_URL}; without it, the embedded server in the data
 *       directory;</li>
 *   <li>the connection live updates LISTEN on: {@code --listen-url} / {@code LOCKSTEP_LISTEN_URL} / the database's
 *       URL. Given when {@code --db-url} goes through PgBouncer in transaction pooling, where LISTEN cannot work:
 *       the listener then connects to the server itself (docs/admin-guide.md, "PgBouncer");</li>
 *   <li>data directory: {@code --data-dir} / {@code LOCKSTEP_DATA_DIR} / {@code $XDG_DATA_HOME/lockstep} /
 *       {@code ~/.local/share/lockstep};</li>
 *   <li>operator: {@code --user} / {@code LOCKSTEP_USER} / the operating-system user, in NFC (one name whichever
 *       keyboard typed it: {@link UnicodeText});</li>
 *   <li>lease TTL of the editor's lock for editing: {@code --lease-ttl} / 60 s, within
 *       {@link DurationRange#LEASE_TTL} (5 s to 24 h);</li>
 *   <li>how long an editor holding a lock may sit idle: {@code --lock-idle} / 15 min, within
 *       {@link DurationRange#LOCK_IDLE} (1 min to 24 h);</li>
 *   <li>"Last write wins (unsafe)" offered in the editor, for teaching the lost update: {@code --allow-unsafe} / no;</li>
 *   <li>the locale numbers are typed in: {@code --locale} / none (the command line and CSV files read the neutral
 *       {@code 1,500.50}; the editor, the operating system's format locale).</li>
 * </ul>
 *
 * @param dbUrl    a {@code jdbc:postgresql://} URL of a shared server, or empty for the embedded one
 * @param dataDir  the data directory of the embedded server
 * @param user     the operator's name, written to {@code updated_by}
 * @param leaseTtl how long an editor's lease lasts unless renewed (renewed every third of it)
 * @param lockIdle how long an editor holding a lock may sit idle before it warns, then lets the lock go
 * @param allowUnsafe whether editors offer "Last write wins (unsafe)", the lost-update bug kept for teaching
 *                    ({@code --allow-unsafe}); {@code false} unless asked for
 * @param locale   the locale whose decimal and grouping separators amounts are read in ({@code --locale}); empty
 *                 for the neutral format of the command line and CSV files
 * @param listenUrl a {@code jdbc:postgresql://} URL of the server itself for the live-updates connection, when
 *                  {@code dbUrl} goes through a transaction-pooling PgBouncer; empty to listen on {@code dbUrl}
 */
public record LockstepConfig(Optional<String> dbUrl, Path dataDir, String user, Duration leaseTtl,
        Duration lockIdle, boolean allowUnsafe, Optional<Locale> locale,
        Optional<String> listenUrl) {

    /** The lease TTL without {@code --lease-ttl} (docs/decisions/0006-leases.md). */
    public static final Duration DEFAULT_LEASE_TTL = Duration.ofSeconds(60);
    /** The idle time after which an editor lets its lock go, without {@code --lock-idle}. */
    public static final Duration DEFAULT_LOCK_IDLE = Duration.ofMinutes(15);

    /**
     * Checks the durations: an operator's options are checked as they are read ({@code DurationConverter}); this
     * catches settings made in code.
     *
     * @throws IllegalArgumentException when the lease TTL or the idle limit is outside its range; the message names
     *         the option
     */
    public LockstepConfig {
        if (listenUrl.isPresent() && dbUrl.isEmpty()) {
            throw new IllegalArgumentException("--listen-url: give it with --db-url (the embedded server needs none)");
        }
        DurationRange.LEASE_TTL.check("--lease-ttl", leaseTtl);
        DurationRange.LOCK_IDLE.check("--lock-idle", lockIdle);
    }

    /** Settings with the default lease TTL and idle limit. */
    public LockstepConfig(Optional<String> dbUrl, Path dataDir, String user) {
        this(dbUrl, dataDir, user, DEFAULT_LEASE_TTL, DEFAULT_LOCK_IDLE);
    }

    /** Settings listening on the database's own URL. */
    public LockstepConfig(Optional<String> dbUrl, Path dataDir, String user, Duration leaseTtl, Duration lockIdle,
            boolean allowUnsafe, Optional<Locale> locale) {
        this(dbUrl, dataDir, user, leaseTtl, lockIdle, allowUnsafe, locale, Optional.empty());
    }

    /** Settings without a {@code --locale}. */
    public LockstepConfig(Optional<String> dbUrl, Path dataDir, String user, Duration leaseTtl, Duration lockIdle,
            boolean allowUnsafe) {
        this(dbUrl, dataDir, user, leaseTtl, lockIdle, allowUnsafe, Optional.empty());
    }

    /** Settings without "Last write wins (unsafe)". */
    public LockstepConfig(Optional<String> dbUrl, Path dataDir, String user, Duration leaseTtl, Duration lockIdle) {
        this(dbUrl, dataDir, user, leaseTtl, lockIdle, false);
    }

    /** The same settings, with "Last write wins (unsafe)" allowed in editors or not ({@code --allow-unsafe}). */
    public LockstepConfig withAllowUnsafe(boolean allow) {
        return new LockstepConfig(dbUrl, dataDir, user, leaseTtl, lockIdle, allow, locale, listenUrl);
    }

    /** The same settings, reading amounts in {@code numbers}' separators ({@code --locale}), or neutrally. */
    public LockstepConfig withLocale(Optional<Locale> numbers) {
        return new LockstepConfig(dbUrl, dataDir, user, leaseTtl, lockIdle, allowUnsafe, numbers, listenUrl);
    }

    /**
     * The same settings, with the live-updates connection's URL: the option's value, else {@code LOCKSTEP_LISTEN_URL},
     * else none (listen on the database's URL).
     *
     * @param option the {@code --listen-url} given, or {@code null}
     * @param env    the environment
     * @throws IllegalArgumentException when a listen URL is given without {@code --db-url}
     */
    public LockstepConfig withListenUrl(String option, Map<String, String> env) {
        return new LockstepConfig(dbUrl, dataDir, user, leaseTtl, lockIdle, allowUnsafe, locale,
                Optional.ofNullable(firstNonBlank(option, env.get("LOCKSTEP_LISTEN_URL"))));
    }

    /**
     * Reads values given on the command line or in a CSV file: in the {@code --locale} given, else in the neutral
     * format ({@link FieldParser#NEUTRAL}: {@code 1,500.50}).
     */
    public FieldParser fieldParser() {
        return locale.map(FieldParser::of).orElse(FieldParser.NEUTRAL);
    }

    /**
     * Reads a {@code --locale} option: a BCP 47 language tag such as {@code de}, {@code pt-BR} or {@code en-US}.
     *
     * @param tag the option's value, or {@code null} when none was given
     * @return the locale, or empty for none
     * @throws IllegalArgumentException when the tag is malformed or names a language whose number format the Java
     *         runtime does not know (it would silently fall back to another one)
     */
    public static Optional<Locale> locale(String tag) {
        if (tag == null) {
            return Optional.empty();
        }
        Locale locale;
        try {
            locale = new Locale.Builder().setLanguageTag(tag.strip()).build();
        } catch (IllformedLocaleException e) {
            throw new IllegalArgumentException("--locale " + tag + ": not a language tag such as de, pt-BR or en-US");
        }
        boolean known = Arrays.stream(DecimalFormatSymbols.getAvailableLocales())
                .anyMatch(l -> !l.getLanguage().isEmpty() && l.getLanguage().equals(locale.getLanguage()));
        if (!known) {
            throw new IllegalArgumentException("--locale " + tag + ": no number format is known for this language; "
                    + "give a tag such as de, pt-BR or en-US");
        }
        return Optional.of(locale);
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
        return new LockstepConfig(Optional.ofNullable(url), dir.toAbsolutePath().normalize(),
                UnicodeText.nfc(who.strip()),
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
