package org.lockstep.shell;

import static org.lockstep.text.Texts.tr;

import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicInteger;
import javafx.application.Application;
import javafx.scene.control.Alert;
import javafx.stage.Stage;
import org.lockstep.ui.DemoClients;
import org.lockstep.ui.demo.DemoSession;
import org.lockstep.ui.demo.Pace;
import org.lockstep.ui.FxTaskExecutor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code lockstep demo}: the trainer demo as an application of its own. It shows "Starting database…", opens the
 * database and both operators' clients off the FX thread, then shows the {@link DemoSession}'s three windows; when
 * they close, it closes the database (stopping the embedded server when no other client uses it).
 */
public final class DemoApplication extends Application {

    /** What the desktop's colour scheme said at start (read in {@link #init()}): what the System theme follows. */
    private StartingUp startingUp;

    /** Exit code when the demo closed normally. */
    public static final int OK = 0;
    /** Exit code when the database could not be opened. */
    public static final int FAILURE = 1;

    /**
     * An open database for the demo.
     *
     * @param clients  opens the operators' clients and resets the demo's customers
     * @param shutdown closes the database; called once, after the demo's windows closed
     */
    public record Opened(DemoClients clients, Runnable shutdown) {
    }

    private static final Logger LOG = LoggerFactory.getLogger(DemoApplication.class);
    private static volatile Callable<Opened> connect;
    private static final AtomicInteger EXIT_CODE = new AtomicInteger(OK);

    private volatile Opened opened;
    private volatile DemoSession session;
    private volatile FxTaskExecutor executor;

    /** JavaFX makes it, on the FX thread: names the windows first ({@link WindowClass}). */
    public DemoApplication() {
        WindowClass.name();
    }

    /**
     * Runs the demo until its windows close.
     *
     * @param connector opens the database; throws with a message a trainer can act on when it cannot
     * @return {@link #OK}, or {@link #FAILURE} when the database could not be opened
     */
    public static int launch(Callable<Opened> connector) {
        connect = connector;
        EXIT_CODE.set(OK);
        Application.launch(DemoApplication.class);
        return EXIT_CODE.get();
    }

    /** Asks the desktop's colour scheme before the FX thread starts ({@link StartingUp#askTheDesktop}). */
    @Override
    public void init() {
        startingUp = StartingUp.askTheDesktop();
    }

    @Override
    public void start(Stage primaryStage) {
        StartingWindow splash = startingUp.showStartingWindow(tr("Lockstep demo — starting"),
                tr("Starting database and two operator clients…"));
        executor = new FxTaskExecutor(1);
        executor.execute(() -> connect.call(), db -> {
            opened = db;
            DemoSession.open(db.clients(), executor, Pace.CLASSROOM, s -> {
                session = s;
                splash.close();
            }, failure -> fail(failure, splash));
        }, failure -> fail(failure, splash));
    }

    @Override
    public void stop() {
        if (session != null) {
            session.closeAndWait();
        }
        if (executor != null) {
            executor.closeAndWait(java.time.Duration.ofSeconds(5));
        }
        Opened db = opened;
        opened = null;
        if (db != null) {
            try {
                db.shutdown().run();
            } catch (RuntimeException e) {
                LOG.warn("Closing the database failed: {}", e.getMessage());
            }
        }
    }

    private static void fail(Throwable e, StartingWindow splash) {
        LOG.error("Cannot start the demo: {}", LockstepApplication.reason(e), e);
        EXIT_CODE.set(FAILURE);
        Alert alert = new Alert(Alert.AlertType.ERROR);
        alert.setTitle(tr("Lockstep demo"));
        alert.setHeaderText(tr("The demo cannot open its database"));
        alert.setContentText(tr("{0}\n\nCheck --db-url, --data-dir or LOCKSTEP_DB_URL, then start the demo again.",
                LockstepApplication.reason(e)));
        alert.getDialogPane().setId("demo-start-failure");
        alert.setOnShown(ev -> splash.close());
        alert.show();
    }
}
