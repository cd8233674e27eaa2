package org.lockstep.cli;

import java.time.Duration;
import java.util.Optional;
import java.util.OptionalInt;
import org.lockstep.config.LockstepConfig;
import org.lockstep.text.Language;

/**
 * The desktop front end as the command line sees it: {@code lockstep} with no subcommand opens the editor,
 * {@code lockstep edit ID} the same with that customer's editor window, and {@code lockstep demo} the trainer demo. The command line knows no windows; the application module passes the real
 * desktop in ({@code org.lockstep.app.Main}), and a build without one passes {@link #NONE}.
 */
public interface Desktop {

    /** The demo's lease TTL unless {@code --lease-ttl} says otherwise: short, so that a crashed holder's lease lapses
     *  while the class watches (scenario 5). */
    Duration DEMO_LEASE_TTL = Duration.ofSeconds(15);

    /** No desktop: both commands say so and exit {@link ExitCodes#FAILURE}. */
    Desktop NONE = new Desktop() {
        @Override
        public int openEditor(LockstepConfig config, Duration demoLeaseTtl, Optional<Language> lang) {
            System.err.println("lockstep: this build has no desktop; run a subcommand (lockstep --help)");
            return ExitCodes.FAILURE;
        }

        @Override
        public int openEditor(LockstepConfig config, Duration demoLeaseTtl, Optional<Language> lang,
                long customerId) {
            return openEditor(config, demoLeaseTtl, lang);
        }

        @Override
        public int openDemo(LockstepConfig config, Duration leaseTtl, Optional<Language> lang,
                OptionalInt trainerScreen) {
            return openEditor(config, leaseTtl, lang);
        }
    };

    /**
     * Shows the main window and returns the exit code once the last window has closed.
     *
     * @param demoLeaseTtl the lease TTL of the trainer demo its Tools menu opens
     * @param lang         the {@code --lang} given, if any
     * @return {@link ExitCodes#OK}, or {@link ExitCodes#FAILURE} when the database could not be opened (the window
     *         said why)
     */
    int openEditor(LockstepConfig config, Duration demoLeaseTtl, Optional<Language> lang);

    /**
     * {@code lockstep edit ID}: as {@link #openEditor(LockstepConfig, Duration, Optional)}, with the customer's editor
     * window open beside the main window and the keyboard in its first field, so that a script can send an operator
     * to a record. A customer that does not exist is said so over the main window.
     *
     * @param customerId the customer to edit, 1 or more
     * @return as {@link #openEditor(LockstepConfig, Duration, Optional)}, once the last window has closed
     */
    int openEditor(LockstepConfig config, Duration demoLeaseTtl, Optional<Language> lang, long customerId);

    /**
     * {@code lockstep demo}: Alice's and Bob's windows and the Trainer panel; returns the exit code once they closed.
     *
     * @param leaseTtl      the operators' lease TTL
     * @param lang          the {@code --lang} given, if any
     * @param trainerScreen with two or more screens, the screen (1 = the first) the Trainer panel goes on
     */
    int openDemo(LockstepConfig config, Duration leaseTtl, Optional<Language> lang, OptionalInt trainerScreen);
}
