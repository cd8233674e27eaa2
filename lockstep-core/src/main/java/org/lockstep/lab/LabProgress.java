package org.lockstep.lab;

/**
 * Hears how far a run has got. Called from the buyers' threads, once per finished purchase attempt: implementations
 * must be thread-safe and quick.
 */
@FunctionalInterface
public interface LabProgress {

    /** Ignores progress. */
    LabProgress NONE = (done, total) -> {};

    /**
     * @param done  purchase attempts finished so far in the whole run or sweep
     * @param total purchase attempts the whole run or sweep will make
     */
    void update(long done, long total);
}
