package org.lockstep.shell;

import static org.lockstep.text.Texts.tr;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.FormatStyle;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.prefs.Preferences;
import javafx.application.Application;
import javafx.application.ConditionalFeature;
import javafx.application.Platform;
import javafx.scene.control.Alert;
import org.lockstep.domain.SchemaTooNewException;
import javafx.scene.control.MenuItem;
import javafx.scene.control.TextArea;
import javafx.stage.Stage;
import org.lockstep.text.Texts;
import org.lockstep.domain.SignInRefusedException;
import org.lockstep.ui.ClientSession;
import org.lockstep.ui.DemoClients;
import org.lockstep.ui.EditingPreferences;
import org.lockstep.ui.LanguageChoice;
import org.lockstep.ui.EditorServices;
import org.lockstep.ui.UiContext;
import org.lockstep.ui.WindowPlaces;
import org.lockstep.ui.demo.DemoSession;
import org.lockstep.ui.demo.Pace;
import org.lockstep.ui.drafts.JournalDrafts;
import org.lockstep.ui.editor.CustomerEditorWindow;
import org.lockstep.ui.main.MainWindow;
import org.lockstep.drafts.Draft;
import org.lockstep.ui.restore.DatabaseRetry;
import org.lockstep.ui.restore.DraftsOfferView;
import org.lockstep.ui.restore.DraftsOfferViewModel;
import org.lockstep.ui.report.ConflictReportWindow;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The desktop application. It shows a small "Starting database…" window, connects off the FX thread (starting the
 * embedded server may take seconds), then shows the main window. When the last window closes it closes the task
 * executor and the database, after letting go of every lease an editor still holds (so that nobody waits a TTL
 * for it). When the database cannot be opened it shows why, and once that message is closed the application ends
 * with exit code 1 — unless the operator has drafts from before Lockstep closed (issue 28): then it starts without
 * the database ({@link OfflineStart}), offers them, and opens the main window once the database answers.
 *
 * <p>Start it with {@link #launch(UiContext)}; the context is handed over before {@link Application#launch} because
 * JavaFX creates this class itself.
 */
public final class LockstepApplication extends Application {

    /** What the desktop's colour scheme said at start (read in {@link #init()}): what the System theme follows. */
    private StartingUp startingUp;

    /** Exit code when the application closed normally. */
    public static final int OK = 0;
    /** Exit code when the database could not be opened. */
    public static final int FAILURE = 1;

    private static final Logger LOG = LoggerFactory.getLogger(LockstepApplication.class);
    private static volatile UiContext context;
    private static final AtomicInteger EXIT_CODE = new AtomicInteger(OK);

    private final AtomicBoolean stopped = new AtomicBoolean();
    private volatile UiContext.Backend backend;
    private volatile ClientSession client;
    private DemoSession demo;
    private volatile JournalDrafts drafts;
    // The start without a database and its attempts to reach it (issue 28); FX thread, null when not so started.
    private OfflineStart offline;
    private ScheduledExecutorService attempts;

    /** JavaFX makes it, on the FX thread: names the windows first ({@link WindowClass}). */
    public LockstepApplication() {
        WindowClass.name();
    }

    /**
     * Runs the application until its last window closes.
     *
     * @return {@link #OK}, or {@link #FAILURE} when the database could not be opened
     */
    public static int launch(UiContext uiContext) {
        EarlyConnection early = EarlyConnection.start(uiContext);
        useContext(early.context());
        try {
            Application.launch(LockstepApplication.class);
        } finally {
            early.closeIfNeverTaken();
        }
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

    /**
     * Asks the desktop's colour scheme before the FX thread starts ({@link StartingUp#askTheDesktop}), and remembers a
     * display whose GPU JavaFX refused ({@link SoftwareDisplay}).
     */
    @Override
    public void init() {
        startingUp = StartingUp.askTheDesktop();
        SoftwareDisplay.recordThisStart(Platform.isSupported(ConditionalFeature.SCENE3D));
    }

    @Override
    public void start(Stage primaryStage) {
        UiContext ctx = context;
        if (ctx == null) {
            throw new IllegalStateException("Start Lockstep with LockstepApplication.launch(UiContext)");
        }
        StartingWindow splash = startingUp.showStartingWindow(tr("Lockstep — starting"), tr("Starting database…"));
        Thread connecting = new Thread(() -> connect(ctx, splash, primaryStage), "lockstep-connect");
        connecting.setDaemon(true);
        connecting.start();
    }

    private void connect(UiContext ctx, StartingWindow splash, Stage primaryStage) {
        open(ctx, ctx.connect(), splash, primaryStage);
    }

    /**
     * Opens the backend {@code how} says, off the FX thread: on to the main window, to the sign-in dialog when the
     * server wants a password, or to the failure's explanation.
     */
    private void open(UiContext ctx, Callable<UiContext.Backend> how, StartingWindow splash, Stage primaryStage) {
        UiContext.Backend opened;
        try {
            opened = how.call();
        } catch (SignInRefusedException e) {
            refused(ctx, e, splash, primaryStage);
            return;
        } catch (Exception e) {
            LOG.error("Cannot open the database: {}", reason(e), e);
            if (!hopeless(e) && startWithoutDatabase(ctx, e, splash, primaryStage)) {
                return;
            }
            Platform.runLater(() -> showStartFailure(e, splash));
            return;
        }
        opened(ctx, opened, splash, primaryStage);
    }

    /** A failure that waiting does not mend: a wrong URL, a password refused, a newer schema. */
    private static boolean hopeless(Exception e) {
        return e instanceof SchemaTooNewException || e instanceof SignInRefusedException
                || e instanceof IllegalArgumentException;
    }

    /**
     * The database could not be reached at start (issue 28): when this operator has drafts from before Lockstep
     * closed, offers them in a window of their own ({@link OfflineStart}) and tries the database again every
     * {@link DatabaseRetry#EVERY}; once it answers, the main window opens as after any start and takes the restored
     * editors over. Off the FX thread.
     *
     * @return whether the desktop started so; {@code false}: no drafts to offer, the failure is shown as before
     */
    private boolean startWithoutDatabase(UiContext ctx, Exception why, StartingWindow splash, Stage primaryStage) {
        if (drafts == null) {
            drafts = openDrafts(ctx);
        }
        JournalDrafts journal = drafts;
        if (journal == null) {
            return false;
        }
        List<Draft> offered;
        try {
            offered =
                    journal.adoptOrphans(ctx.user()).stream().filter(d -> DraftsOfferViewModel.offerable(d, ctx.user()))
                            .toList();
        } catch (IOException | RuntimeException e) {
            LOG.warn("Could not read the drafts left from before: {}", reason(e), e);
            return false;
        }
        if (offered.isEmpty()) {
            return false; // adopted ones stay in this client's journal, offered at the next start
        }
        Platform.runLater(() -> {
            if (stopped.get()) {
                return;
            }
            EXIT_CODE.set(FAILURE); // until the database answers: Quit ends as a start that could not open it
            attempts = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "lockstep-reconnect");
                t.setDaemon(true);
                return t;
            });
            DatabaseRetry<UiContext.Backend> retry = new DatabaseRetry<>(ctx.connect(), attempts, Platform::runLater,
                    DatabaseRetry.EVERY, Clock.systemDefaultZone(), LockstepApplication::hopeless);
            offline = OfflineStart.show(ctx.user(), journal, offered, retry, this::quitWithoutDatabase);
            LOG.info("Started without the database, offering {} draft(s); trying again every {} s", offered.size(),
                    DatabaseRetry.EVERY.toSeconds());
            retry.start(why, back -> opened(ctx, back, splash, primaryStage), failure -> {
                if (failure instanceof SignInRefusedException refusal) {
                    refused(ctx, refusal, splash, primaryStage);
                } else {
                    showStartFailure(failure, splash);
                }
            }, late -> late.shutdown().run());
            splash.close();
        });
        return true;
    }

    /** Quit in the window of a start without the database: the editors' edits are journaled, and Lockstep ends. */
    private void quitWithoutDatabase() {
        if (offline != null) {
            offline.keepEverything();
        }
        Platform.exit();
    }

    /** The server wants a password: ask for it when the context can use one, else say where it comes from. */
    private void refused(UiContext ctx, SignInRefusedException e, StartingWindow splash, Stage primaryStage) {
        if (ctx.signIn() == null) {
            LOG.error("Cannot open the database: {}", reason(e), e);
            Platform.runLater(() -> showStartFailure(e, splash));
            return;
        }
        LOG.info("The database server asks for a password{}", e.passwordGiven() ? " again" : "");
        Platform.runLater(() -> {
            // Behind the dialog, and first, however quick the refusal: with the dialog closed and the sign-in under
            // way, it is the one window open, without which JavaFX would end the application; and shown after the
            // dialog it would come up over it and take the password's keystrokes.
            splash.showNow();
            SignInDialog.show(e.login(), e.passwordGiven(), password -> {
                Thread signingIn = new Thread(() -> open(ctx, () -> ctx.signIn().connect(password), splash,
                        primaryStage), "lockstep-sign-in");
                signingIn.setDaemon(true);
                signingIn.start();
            }, () -> showStartFailure(e, splash));
        });
    }

    private void opened(UiContext ctx, UiContext.Backend opened, StartingWindow splash, Stage primaryStage) {
        backend = opened;
        if (stopped.get()) {
            // The operator closed the starting window before the database was open.
            shutdownBackend();
            return;
        }
        // The name the database records: the login on a team server, whatever --user said.
        String operator = opened.operator() == null ? ctx.user() : opened.operator().name();
        if (drafts == null) {
            drafts = openDrafts(ctx);
        }
        Platform.runLater(() -> {
            client = ClientSession.start(opened, operator,
                    EditingPreferences.defaultMode(Preferences.userRoot().node(EditingPreferences.NODE)));
            EditorServices.Builder builder = client.services().toBuilder()
                    .places(WindowPlaces.forOperator(Preferences.userRoot(), operator));
            if (ctx.allowUnsafe()) {
                builder.lastWriteWinsAllowed(); // --allow-unsafe: for teaching the lost update
            }
            if (drafts != null) {
                builder.drafts(drafts);
            }
            EditorServices services = builder.build();
            MainWindow window = MainWindow.show(primaryStage, services, client.live(), opened.lab());
            EditorServices following = services.toBuilder().live(client.live()).build();
            List<Draft> stillOffered = List.of();
            if (offline != null) {
                // The database answered after a start without it: the editors restored meanwhile go on over it.
                stillOffered = offline.stillOffered();
                offline.handOver(following);
                offline = null;
                attempts.shutdown();
                EXIT_CODE.set(OK);
                LOG.info("The database answered; the main window opened");
            }
            if (drafts != null) {
                offerDrafts(window, following, operator, stillOffered);
            }
            ctx.edit().ifPresent(id -> openAtStart(window, following, id));
            window.offerLanguages(LanguageChoice.operators());
            if (opened.reports() != null) {
                ConflictReportWindow.offer(window, opened.reports(), services.executor());
            }
            if (opened.demo() != null) {
                offerDemo(window, opened.demo());
            }
            splash.close();
        });
    }

    /**
     * This client's journal of unsaved edits under the data directory (issue 28), opened off the FX thread; {@code
     * null} when the context keeps none or it cannot be opened (a read-only or full disk), which is logged: editing
     * goes on without it.
     */
    private static JournalDrafts openDrafts(UiContext ctx) {
        if (ctx.dataDir() == null) {
            return null;
        }
        try {
            return JournalDrafts.open(ctx.dataDir());
        } catch (IOException | RuntimeException e) {
            LOG.warn("Unsaved edits will not be kept on this computer: the drafts directory under {} cannot be "
                    + "opened: {}", ctx.dataDir(), reason(e), e);
            return null;
        }
    }

    /**
     * The banner offering what ended clients of this operator left unsaved, after {@code kept} (offered while the
     * database could not be reached, neither restored nor discarded): Restore opens an editor window.
     */
    private void offerDrafts(MainWindow window, EditorServices services, String operator, List<Draft> kept) {
        DraftsOfferViewModel offer = new DraftsOfferViewModel(drafts, services.executor(), operator,
                draft -> CustomerEditorWindow.restore(services, draft, c -> {}, id -> {}), ZoneId.systemDefault());
        window.addBanner(new DraftsOfferView(offer).root());
        offer.start(kept);
    }

    /**
     * {@code lockstep edit ID}: the customer's editor window beside the main window, the keyboard in its first field.
     * A customer that does not exist is said so over the main window instead — deleted (by whom, when) or never there.
     * A database that stops answering meanwhile opens the window anyway, which then says so itself.
     */
    private static void openAtStart(MainWindow window, EditorServices services, long customerId) {
        services.executor().execute(() -> missing(services, customerId), missing -> missing.ifPresentOrElse(why -> {
            Alert alert = new Alert(Alert.AlertType.INFORMATION, why);
            alert.setTitle("Lockstep");
            alert.setHeaderText(tr("Cannot open Customer #{0}", customerId));
            alert.getDialogPane().setId("edit-not-found");
            alert.initOwner(window.stage());
            alert.show();
        }, () -> CustomerEditorWindow.openFocused(services, customerId)),
                failure -> CustomerEditorWindow.openFocused(services, customerId));
    }

    /** Why {@code customerId} cannot be opened (deleted by whom, when, or never there); empty when it is there. */
    private static Optional<String> missing(EditorServices services, long customerId) {
        if (services.customers().find(customerId).isPresent()) {
            return Optional.empty();
        }
        DateTimeFormatter when = DateTimeFormatter.ofLocalizedDateTime(FormatStyle.MEDIUM, FormatStyle.SHORT);
        return Optional.of(services.history().deletion(customerId)
                .map(gone -> tr("Customer #{0} was deleted by {1} on {2}.", customerId, gone.changedBy(),
                        when.format(gone.changedAt().atZone(ZoneId.systemDefault()))))
                .orElse(tr("There is no Customer #{0}.", customerId)));
    }

    /** Tools → "Trainer demo (Alice and Bob)…": two more clients of the same database and the Trainer panel. */
    private void offerDemo(MainWindow window, DemoClients clients) {
        String text = Texts.key("_Trainer demo (Alice and Bob)…"); // given again in a new language
        MenuItem item = new MenuItem(tr(text));
        item.setId("open-demo");
        item.setOnAction(e -> {
            if (demo != null) {
                demo.trainerStage().toFront();
                return;
            }
            item.setDisable(true);
            DemoSession.open(clients, client.services().executor(), Pace.CLASSROOM, opened -> {
                demo = opened;
                opened.setOnClosed(() -> {
                    demo = null;
                    item.setDisable(false);
                });
            }, failure -> {
                item.setDisable(false);
                Alert alert = new Alert(Alert.AlertType.ERROR,
                        tr("The demo's operator clients could not connect: {0}", failure.getMessage()));
                alert.setHeaderText(tr("Cannot open the trainer demo"));
                alert.initOwner(window.stage());
                alert.show();
            });
        });
        window.addToolsItem(item, text);
    }

    @Override
    public void stop() {
        stopped.set(true);
        if (offline != null) {
            offline.keepEverything(); // ended otherwise than by Quit: the edits are kept all the same
            offline.awaitStopped(Duration.ofSeconds(5));
        }
        if (attempts != null) {
            attempts.shutdownNow();
        }
        if (demo != null) {
            demo.closeAndWait();
        }
        if (client != null) {
            client.stop(Duration.ofSeconds(5));
        }
        closeDrafts();
        shutdownBackend();
    }

    /** Lets go of the journal; drafts still in it (kept, not discarded) are offered at the next start. */
    private void closeDrafts() {
        JournalDrafts d = drafts;
        drafts = null;
        if (d != null) {
            try {
                d.close();
            } catch (IOException e) {
                LOG.warn("Closing the drafts journal failed: {}", reason(e));
            }
        }
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

    private static void showStartFailure(Exception e, StartingWindow splash) {
        EXIT_CODE.set(FAILURE);
        String message = e.getMessage() == null ? e.toString() : e.getMessage();
        Alert alert = new Alert(Alert.AlertType.ERROR);
        alert.setTitle("Lockstep");
        alert.setHeaderText(tr("Lockstep cannot open its database"));
        alert.setContentText(message);
        // A newer schema is not a wrong setting: the sentence itself says what to do, and the settings are fine.
        TextArea details = new TextArea(e instanceof SchemaTooNewException ? message
                : tr("Check --db-url, --data-dir or the environment variables LOCKSTEP_DB_URL "
                        + "and LOCKSTEP_DATA_DIR, then start Lockstep again.\n\n{0}", message));
        details.setEditable(false);
        details.setWrapText(true);
        alert.getDialogPane().setExpandableContent(details);
        // Close the starting window only once the alert shows: with no window open, JavaFX would exit at once.
        alert.getDialogPane().setId("start-failure");
        alert.setOnShown(ev -> splash.close());
        // Once the alert is closed no window is left, and JavaFX exits (implicit exit); launch() returns FAILURE.
        alert.show();
    }

    /** The failure in one line for stderr, where no stack trace goes: its message, else its type. */
    static String reason(Throwable e) {
        return e.getMessage() == null ? e.toString() : e.getMessage();
    }
}
