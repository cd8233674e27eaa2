package org.lockstep.cli;

/**
 * The exit codes of the {@code lockstep} command, the same for every subcommand and the desktop editor (docs/cli.md,
 * "Exit codes"). They live apart from the command line so that every front end returns them without depending on
 * the launcher.
 */
public final class ExitCodes {

    /** Done. */
    public static final int OK = 0;
    /** Any other failure; the message is on stderr. */
    public static final int FAILURE = 1;
    /** Invalid input or usage; stderr names the field or line. */
    public static final int INVALID = 2;
    /**
     * Version conflict, also when the record no longer exists or no customer ever had the id given ("no customer
     * N"); the current record, if any, is on stdout as JSON.
     */
    public static final int CONFLICT = 3;
    /** The record is locked by someone else, or the lease token given is no longer the record's lease. */
    public static final int LOCKED = 4;
    /** The database does not let this login do it: breaking another's lock is a supervisor's (issue 26). */
    public static final int NOT_PERMITTED = 5;

    private ExitCodes() {
    }
}
