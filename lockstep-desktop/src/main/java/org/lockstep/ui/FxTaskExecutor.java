package org.lockstep.ui;

import javafx.application.Platform;
import org.lockstep.concurrency.PoolTaskExecutor;
import org.lockstep.concurrency.TaskExecutor;

/**
 * The production {@link TaskExecutor}: a small pool of daemon threads for database calls; results return through
 * {@link Platform#runLater(Runnable)}, once per task (never per row).
 */
public final class FxTaskExecutor extends PoolTaskExecutor {

    /** @param threads how many database calls may run at once; the connection pool bounds them anyway */
    public FxTaskExecutor(int threads) {
        super(threads, Platform::runLater);
    }
}
