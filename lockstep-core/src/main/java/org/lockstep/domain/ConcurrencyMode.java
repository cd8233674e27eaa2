package org.lockstep.domain;

/**
 * How an editor guards its saves against lost updates (PoEAA ch. 5, "Concurrency"; docs/architecture.md). The CLI
 * and every editor choose among the same three.
 */
public enum ConcurrencyMode {
    /** Optimistic offline lock: save on the version, merge on a conflict (the default). */
    OPTIMISTIC,
    /** Pessimistic offline lock: take a lease first; nobody else can save meanwhile. */
    LOCK_FOR_EDITING,
    /**
     * Last write wins (unsafe): the lost-update bug, on purpose, for teaching only. Save overwrites every field with
     * no version check ({@link CustomerRepository#overwrite}), so another operator's save in between is lost without
     * any error (PoEAA ch. 5; DDIA ch. 7, "last write wins"). This mode never takes a lease and never breaks one:
     * another session's lease still refuses its saves. Only an editor that allows it may use it (the trainer's demo,
     * {@code --allow-unsafe}), and it is never the mode a new editor starts in.
     */
    LAST_WRITE_WINS
}
