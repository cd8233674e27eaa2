package org.lockstep.lab;

import java.util.List;

/**
 * Runs the contention lab. Blocking: call it off the UI thread. Each run resets the lab's own rows and never
 * touches customers.
 */
public interface LabRunner {

    /**
     * Runs {@code run} once per strategy, one strategy after the other.
     *
     * @return one result per strategy, in the order given
     * @throws IllegalArgumentException when {@code strategies} is empty
     * @throws RuntimeException         with a readable message when the database fails
     */
    List<StrategyResult> run(LabRun run, List<Strategy> strategies, LabProgress progress);

    /**
     * Runs a contention sweep.
     *
     * @return one result per worker count and strategy, worker counts in plan order, strategies within each
     */
    List<StrategyResult> sweep(SweepPlan plan, LabProgress progress);
}
