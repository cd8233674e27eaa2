package org.lockstep.ui;

import java.time.Duration;
import org.lockstep.client.StoreClient;
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

    /**
     * The demo's clients of {@code store}'s database: each operator a client of its own
     * ({@link StoreClient#anotherClient}, named "Lockstep demo (Alice)"), the demo's customers reset through
     * {@code store}.
     *
     * @param leaseTtl the operators' lease TTL
     * @param lockIdle how long a locking editor may sit idle
     */
    static DemoClients over(StoreClient store, Duration leaseTtl, Duration lockIdle) {
        TrainingRecords records = store.trainingRecords();
        return new DemoClients() {
            @Override
            public UiContext.Backend open(String operator) {
                StoreClient client = store.anotherClient(operator, "Lockstep demo (" + operator + ")");
                return UiContext.Backend.of(client, leaseTtl, lockIdle, null);
            }

            @Override
            public TrainingRecords records() {
                return records;
            }
        };
    }
}
