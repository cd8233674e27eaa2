package org.lockstep.app;

import java.util.UUID;
import org.lockstep.store.JdbiCustomerRepository;
import org.lockstep.store.JdbiHistoryRepository;
import org.lockstep.store.JdbiLeaseRepository;
import org.lockstep.store.JdbiMessageRepository;
import org.lockstep.store.JdbiPresenceRepository;
import org.lockstep.ui.LockstepApplication;
import org.lockstep.ui.UiContext;

/**
 * Opens the desktop editor: hands the UI the operator's name and a way to open the database (the UI calls it off
 * the FX thread while it shows that the database is starting).
 */
public final class DesktopApp {
    private DesktopApp() {
    }

    /**
     * Shows the main window and returns the exit code when the last window has closed.
     *
     * @return {@link Launcher#OK}, or {@link Launcher#FAILURE} when the database could not be opened (the UI said
     *         why)
     */
    public static int run(LockstepConfig config) {
        UiContext context = new UiContext(config.user(), () -> {
            Database db = Database.open(config, "Lockstep");
            // One session id for both: this process's own lease must never block its own optimistic saves.
            String session = config.user() + "-" + UUID.randomUUID();
            return new UiContext.Backend(new JdbiCustomerRepository(db.jdbi(), config.user(), session),
                    new JdbiHistoryRepository(db.jdbi()), new JdbiLeaseRepository(db.jdbi(), config.user(), session),
                    config.leaseTtl(), config.lockIdle(), db::changeFeed,
                    new JdbiPresenceRepository(db.jdbi(), config.user(), session, JdbiPresenceRepository.DEFAULT_TTL),
                    new JdbiMessageRepository(db.jdbi(), config.user(), session), LabConnections.runner(db), db::closeAndStopIfLast);
        }, config.allowUnsafe());
        return LockstepApplication.launch(context) == LockstepApplication.OK ? Launcher.OK : Launcher.FAILURE;
    }
}
