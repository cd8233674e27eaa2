package org.lockstep.ui;

import java.util.concurrent.Callable;
import org.lockstep.domain.CustomerRepository;

/**
 * What the desktop application needs from the composition root, without knowing how the database is reached:
 * the operator's name and a way to connect. Connecting may start the embedded server and take seconds, so the
 * application calls {@link #connect()} off the FX thread while it shows that the database is starting.
 *
 * @param user    the operator's name, shown in the title bar and written with every save
 * @param connect opens the database; throws with a message an operator can act on when it cannot
 */
public record UiContext(String user, Callable<Backend> connect) {

    /**
     * An open database as the UI sees it.
     *
     * @param repository where customers are kept
     * @param shutdown   closes the database (and stops the embedded server when no other client uses it); called
     *                   once, when the last window has closed
     */
    public record Backend(CustomerRepository repository, Runnable shutdown) {
    }
}
