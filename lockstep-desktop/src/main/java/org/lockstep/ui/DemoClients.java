package org.lockstep.ui;

import org.lockstep.domain.TrainingRecords;

/**
 * What the trainer demo needs from the composition root: a way to open one more client of the same database per
 * operator — its own connection pool and session, as if on another machine — and the demo's own customers.
 */
public interface DemoClients {

    /**
     * Opens a client acting as {@code operator}. Blocks (it connects): call it off the FX thread. The returned
     * backend's {@code shutdown} closes that client's pool only.
     *
     * @throws IllegalStateException when the database cannot be reached; the message says why
     */
    UiContext.Backend open(String operator);

    /** The demo's own customers, reset before each scenario. */
    TrainingRecords records();
}
