package org.lockstep.shell;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.atomic.AtomicBoolean;
import org.lockstep.ui.UiContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens the database from the moment the desktop is launched, while JavaFX starts its toolkit and shows the
 * starting window, instead of after (issue 30): on a 2-core machine the two took 2 to 4 s one after the other, each
 * on one core. The application's {@link UiContext#connect()} then waits for this one opening — its result, or its
 * failure (a refused password goes on to the sign-in dialog as before). What the application never took (JavaFX
 * could not start: no display) is closed when the launch ends.
 */
final class EarlyConnection {

    private static final Logger LOG = LoggerFactory.getLogger(EarlyConnection.class);

    private final UiContext context;
    private final FutureTask<UiContext.Backend> opening;
    private final AtomicBoolean taken = new AtomicBoolean();

    private EarlyConnection(UiContext given) {
        this.opening = new FutureTask<>(given.connect());
        this.context = given.connectingBy(this::take);
    }

    /** Starts opening {@code given}'s database on a thread of its own, now. */
    static EarlyConnection start(UiContext given) {
        EarlyConnection early = new EarlyConnection(given);
        Thread t = new Thread(early.opening, "lockstep-connect-early");
        t.setDaemon(true);
        t.start();
        return early;
    }

    /** {@code given} whose {@link UiContext#connect()} waits for the opening begun at launch. */
    UiContext context() {
        return context;
    }

    private UiContext.Backend take() throws Exception {
        taken.set(true);
        try {
            return opening.get();
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        }
    }

    /** Whether the opening has ended, opened or failed. */
    boolean isDone() {
        return opening.isDone();
    }

    /** Closes the opened backend (or stops the opening) when the application never took it. */
    void closeIfNeverTaken() {
        if (taken.get()) {
            return;
        }
        if (!opening.isDone()) {
            opening.cancel(true);
            return;
        }
        try {
            opening.get().shutdown().run();
        } catch (Exception e) {
            LOG.debug("The database opened at launch was not used and could not be closed", e);
        }
    }
}
