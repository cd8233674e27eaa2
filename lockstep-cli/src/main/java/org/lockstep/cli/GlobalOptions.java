package org.lockstep.cli;

import org.lockstep.config.LockstepConfig;
import java.time.Duration;

/**
 * The options every subcommand inherits from the root command ({@code --db-url}, {@code --data-dir}, {@code --user},
 * ...), resolved. picocli injects the root command as a subcommand's {@code @ParentCommand}; a subcommand declares
 * the field with this type so that it depends on the settings, not on the launcher that lists it.
 */
public interface GlobalOptions {

    /**
     * The settings from options, environment and defaults; also starts the detailed log in the data directory.
     *
     * @throws IllegalArgumentException when an option's value is invalid; the message names the option
     */
    LockstepConfig config();

    /** The {@code --lease-ttl} given, or {@code fallback} when none was. */
    Duration leaseTtlOr(Duration fallback);
}
