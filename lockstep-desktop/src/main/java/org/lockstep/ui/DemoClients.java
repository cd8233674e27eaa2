package org.lockstep.ui;

import java.time.Duration;
import java.util.function.Supplier;
import org.lockstep.client.StoreClient;
import org.lockstep.domain.TrainingRecords;

/**
 * What the trainer demo needs from the composition root: a way to open one more client of the demo's database per
 * operator — its own connection pool and session, as if on another machine — and the demo's own customers. The demo's
 * database is never the operators' (issue 27): the composition root opens a database of its own for it.
 */
public interface DemoClients {

    /**
     * Opens a client acting as {@code operator}. Blocks (it connects): call it off the FX thread. The returned
     * backend's {@code shutdown} closes that client's pool only.
     *
     * @throws IllegalStateException when the database cannot be reached; the message says why
     */
    UiContext.Backend open(String operator);

    /** The demo's own customers, reset before each scenario; asked for once an operator's client is open. */
    TrainingRecords records();

    /**
     * Lets go of the demo's database once the operators' clients have closed; the next {@link #open} opens it again.
     * Blocks: off the FX thread. Nothing for clients whose database their opener closes ({@link #over}).
     */
    default void close() {
    }

    /**
     * The demo's clients of {@code store}'s database, which is the demo's own: each operator a client of its own
     * ({@link StoreClient#anotherClient}, named "Lockstep demo (Alice)"), the demo's customers reset through
     * {@code store}. Whoever opened {@code store} closes it.
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

    /**
     * The demo's clients of a database opened for each demo: {@code openDatabase} runs at the demo's first
     * {@link #open} (on the embedded server it makes the demo's database afresh), and {@link #close()} closes it. For
     * Tools → Trainer demo in the operators' editor, whose own database the demo must not write into.
     *
     * @param openDatabase opens the trainer's client of the demo's database; blocks, throws as {@link #open} does
     * @param leaseTtl     the operators' lease TTL
     * @param lockIdle     how long a locking editor may sit idle
     */
    static DemoClients onItsOwnDatabase(Supplier<StoreClient> openDatabase, Duration leaseTtl, Duration lockIdle) {
        return new DemoClients() {
            private DemoClients opened;
            private StoreClient trainer;

            @Override
            public synchronized UiContext.Backend open(String operator) {
                if (trainer == null) {
                    trainer = openDatabase.get();
                    opened = over(trainer, leaseTtl, lockIdle);
                }
                return opened.open(operator);
            }

            @Override
            public synchronized TrainingRecords records() {
                if (opened == null) {
                    throw new IllegalStateException("The demo's database is not open: open an operator's client first");
                }
                return opened.records();
            }

            @Override
            public synchronized void close() {
                if (trainer != null) {
                    trainer.close();
                    trainer = null;
                    opened = null;
                }
            }
        };
    }
}
