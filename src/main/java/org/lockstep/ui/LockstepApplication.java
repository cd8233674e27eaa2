package org.lockstep.ui;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.prefs.Preferences;
import javafx.application.Application;
import javafx.application.Platform;
import javafx.geometry.Insets;
import javafx.scene.Scene;
import javafx.scene.control.Alert;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressBar;
import javafx.scene.control.TextArea;
import javafx.scene.layout.VBox;
import javafx.stage.Stage;
import javafx.stage.StageStyle;
import org.lockstep.ui.lock.EditLockViewModel;
import org.lockstep.ui.lock.OpenLocks;
import org.lockstep.domain.ChangeFeed;
import org.lockstep.ui.live.LiveUpdates;
import org.lockstep.ui.main.MainWindow;
import org.lockstep.ui.presence.PresenceBoard;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The desktop application. It shows a small "Starting database…" window, connects off the FX thread (starting the
 * embedded server may take seconds), then shows the main window. When the last window closes it closes the task
 * executor and the database, after letting go of every lease an editor still holds (so that nobody waits a TTL
 * for it). When the database cannot be opened it shows why, and once that message is closed the application ends
 * with exit code 1.
 *
 * <p>Start it with {@link #launch(UiContext)}; the context is handed over before {@link Application#launch} because
 * JavaFX creates this class itself.
 */
public final class LockstepApplication extends Application {

    /** Exit code when the application closed normally. */
    public static final int OK = 0;
    /** Exit code when the database could not be opened. */
    public static final int FAILURE = 1;

    private static final Logger LOG = LoggerFactory.getLogger(LockstepApplication.class);
    private static volatile UiContext context;
    private static final AtomicInteger EXIT_CODE = new AtomicInteger(OK);

    private final AtomicBoolean stopped = new AtomicBoolean();
    private volatile UiContext.Backend backend;
    private volatile ChangeFeed feed;
    private volatile FxTaskExecutor executor;
    private volatile ScheduledExecutorService scheduler;
    private volatile OpenLocks openLocks;
    private volatile PresenceBoard presence;

    /**
     * Runs the application until its last window closes.
     *
     * @return {@link #OK}, or {@link #FAILURE} when the database could not be opened
     */
    public static int launch(UiContext uiContext) {
        useContext(uiContext);
        Application.launch(LockstepApplication.class);
        return EXIT_CODE.get();
    }

    /** Hands over the context for the next {@link #start}; {@link #launch(UiContext)} does this itself. */
    static void useContext(UiContext uiContext) {
        context = uiContext;
        EXIT_CODE.set(OK);
    }

    /** The exit code so far: {@link #FAILURE} once the database could not be opened. */
    static int exitCode() {
        return EXIT_CODE.get();
    }

    @Override
    public void start(Stage primaryStage) {
        UiContext ctx = context;
        if (ctx == null) {
            throw new IllegalStateException("Start Lockstep with LockstepApplication.launch(UiContext)");
        }
        Stage splash = startingWindow();
        splash.show();
        Thread connecting = new Thread(() -> connect(ctx, splash, primaryStage), "lockstep-connect");
        connecting.setDaemon(true);
        connecting.start();
    }

    private void connect(UiContext ctx, Stage splash, Stage primaryStage) {
        UiContext.Backend opened;
        try {
            opened = ctx.connect().call();
        } catch (Exception e) {
            LOG.error("Cannot open the database", e);
            Platform.runLater(() -> showStartFailure(e, splash));
            return;
        }
        backend = opened;
        if (stopped.get()) {
            // The operator closed the starting window before the database was open.
            shutdownBackend();
            return;
        }
        Platform.runLater(() -> {
            executor = new FxTaskExecutor(3);
            scheduler = Executors.newScheduledThreadPool(1, r -> {
                Thread t = new Thread(r, "lockstep-leases");
                t.setDaemon(true);
                return t;
            });
            openLocks = new OpenLocks();
            EditorServices services = new EditorServices(opened.repository(), opened.history(), opened.leases(),
                    executor, Platform::runLater, scheduler, ctx.user(),
                    EditLockViewModel.Settings.defaults(opened.leaseTtl(), opened.lockIdle()),
                    EditingPreferences.defaultMode(Preferences.userRoot().node(EditingPreferences.NODE)), openLocks);
            if (ctx.allowUnsafe()) {
                services = services.withLastWriteWinsAllowed(); // --allow-unsafe: for teaching the lost update
            }
            LiveUpdates live = new LiveUpdates(Platform::runLater, opened.repository().sessionId());
            presence = new PresenceBoard(opened.presence(), executor, Platform::runLater, scheduler,
                    PresenceBoard.HEARTBEAT);
            presence.follow(live);
            presence.start();
            feed = opened.changeFeed().apply(live);
            feed.start();
            MainWindow.show(primaryStage, services.withPresence(presence).withMessages(opened.messages()), live,
                    opened.lab());
            splash.close();
        });
    }

    @Override
    public void stop() {
        stopped.set(true);
        if (feed != null) {
            feed.close();
        }
        if (openLocks != null) {
            openLocks.closeAll(); // queues each held lease's release on the executor
        }
        if (presence != null) {
            presence.stop(); // queues the removal of this session's presence rows
        }
        if (scheduler != null) {
            scheduler.shutdownNow();
        }
        if (executor != null && !executor.closeAndWait(Duration.ofSeconds(5))) {
            LOG.warn("Some database calls did not finish before exit; a held lease lapses by its TTL");
        }
        shutdownBackend();
    }

    private void shutdownBackend() {
        UiContext.Backend b = backend;
        backend = null;
        if (b != null) {
            try {
                b.shutdown().run();
            } catch (RuntimeException e) {
                LOG.warn("Closing the database failed: {}", e.getMessage());
            }
        }
    }

    private static Stage startingWindow() {
        Label text = new Label("Starting database…");
        text.setId("starting-database");
        ProgressBar progress = new ProgressBar();
        progress.setMaxWidth(Double.MAX_VALUE);
        VBox box = new VBox(12, new Label("Lockstep"), text, progress);
        box.setPadding(new Insets(20));
        box.setPrefWidth(320);
        Stage stage = new Stage(StageStyle.UTILITY);
        stage.setTitle("Lockstep — starting");
        stage.setScene(new Scene(box));
        stage.setResizable(false);
        return stage;
    }

    private static void showStartFailure(Exception e, Stage splash) {
        EXIT_CODE.set(FAILURE);
        String message = e.getMessage() == null ? e.toString() : e.getMessage();
        Alert alert = new Alert(Alert.AlertType.ERROR);
        alert.setTitle("Lockstep");
        alert.setHeaderText("Lockstep cannot open its database");
        alert.setContentText(message);
        TextArea details = new TextArea("Check --db-url, --data-dir or the environment variables LOCKSTEP_DB_URL and "
                + "LOCKSTEP_DATA_DIR, then start Lockstep again.\n\n" + message);
        details.setEditable(false);
        details.setWrapText(true);
        alert.getDialogPane().setExpandableContent(details);
        // Close the starting window only once the alert shows: with no window open, JavaFX would exit at once.
        alert.getDialogPane().setId("start-failure");
        alert.setOnShown(ev -> splash.close());
        // Once the alert is closed no window is left, and JavaFX exits (implicit exit); launch() returns FAILURE.
        alert.show();
    }
}
