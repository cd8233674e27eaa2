package org.lockstep.shell;

import static org.lockstep.text.Texts.tr;

import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.prefs.Preferences;
import javafx.application.Platform;
import javafx.beans.property.SimpleObjectProperty;
import javafx.geometry.Insets;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import javafx.stage.Stage;
import org.lockstep.domain.ConcurrencyMode;
import org.lockstep.domain.StoreUnavailableException;
import org.lockstep.drafts.Draft;
import org.lockstep.editing.LeaseSettings;
import org.lockstep.ui.EditorServices;
import org.lockstep.ui.FxTaskExecutor;
import org.lockstep.ui.WindowPlaces;
import org.lockstep.ui.drafts.Drafts;
import org.lockstep.ui.editor.CustomerEditorView;
import org.lockstep.ui.editor.CustomerEditorWindow;
import org.lockstep.ui.lock.OpenLocks;
import org.lockstep.ui.restore.DatabaseRetry;
import org.lockstep.ui.restore.DraftsOfferView;
import org.lockstep.ui.restore.DraftsOfferViewModel;
import org.lockstep.ui.restore.Unreachable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The start without a database (issue 28): the database could not be reached, and this operator has drafts from
 * before Lockstep closed. Instead of ending, the desktop shows a window that says so, offers the drafts (Restore /
 * Discard, each and all) and tries to open the database every few seconds ({@link DatabaseRetry}). A restored draft
 * opens in an ordinary editor window over the {@link Unreachable} store: the edits on their base, kept in the drafts
 * as the operator goes on typing, and a notice that they save once the database is back. When it answers, the
 * application opens its main window and {@link #handOver hands} every such editor over to the real store, in place.
 * Quit (or closing this window) journals what every editor holds and ends Lockstep; the drafts wait for the next
 * start. FX thread only.
 */
final class OfflineStart {

    /** The window's root id. */
    static final String ID = "offline-start";

    private static final Logger LOG = LoggerFactory.getLogger(OfflineStart.class);
    /** Lease settings for editors that can take no lease: they start and stay optimistic until handed over. */
    private static final LeaseSettings NO_LEASES = LeaseSettings.defaults(Duration.ofSeconds(60));

    private final Stage stage = new Stage();
    private final FxTaskExecutor executor = new FxTaskExecutor(1);
    private final ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "lockstep-offline-timers");
        t.setDaemon(true);
        return t;
    });
    private final Drafts drafts;
    private final DatabaseRetry<?> retry;
    private final DraftsOfferViewModel offer;
    private final List<Stage> editors = new ArrayList<>();
    private boolean over;

    private OfflineStart(String operator, Drafts drafts, DatabaseRetry<?> retry, Runnable quit) {
        this.drafts = drafts;
        this.retry = retry;
        Unreachable store = new Unreachable(operator + "-" + UUID.randomUUID(),
                () -> new StoreUnavailableException(retry.lastReason(), null));
        EditorServices services = EditorServices.builder(store.customers(), store.history(), store.leases(),
                executor, Platform::runLater, timers, operator, NO_LEASES,
                new SimpleObjectProperty<>(ConcurrencyMode.OPTIMISTIC), new OpenLocks())
                .places(WindowPlaces.forOperator(Preferences.userRoot(), operator)).drafts(drafts).build();
        offer = new DraftsOfferViewModel(drafts, executor, operator,
                draft -> editors.add(CustomerEditorWindow.restore(services, draft, c -> {}, id -> {})),
                ZoneId.systemDefault());
        stage.setTitle(tr("Lockstep — cannot reach the database"));
        stage.setScene(new Scene(content(quit)));
        // Restored or discarded drafts leave the offer: the window shrinks to what is left.
        offer.offered().addListener((javafx.collections.ListChangeListener<Draft>) c -> Platform.runLater(
                stage::sizeToScene));
        stage.setOnCloseRequest(e -> {
            e.consume();
            quit.run();
        });
    }

    /**
     * Shows the window offering {@code offered}.
     *
     * @param operator the operator signing in, whose editors these are
     * @param drafts   this client's journal, which adopted {@code offered}
     * @param offered  this operator's drafts from before Lockstep closed
     * @param retry    the attempts to open the database, already started; its reason and status are shown
     * @param quit     what Quit does: journals the editors' edits ({@link #keepEverything()}) and ends Lockstep
     */
    static OfflineStart show(String operator, Drafts drafts, List<Draft> offered, DatabaseRetry<?> retry,
            Runnable quit) {
        OfflineStart start = new OfflineStart(operator, drafts, retry, quit);
        start.offer.offer(offered);
        start.stage.show();
        return start;
    }

    private VBox content(Runnable quit) {
        Label headline = new Label(tr("Lockstep cannot reach its database"));
        headline.setId("offline-headline");
        headline.setStyle("-fx-font-weight: bold; -fx-font-size: 1.2em");
        Label explain = new Label(tr("Your unsaved changes are kept on this computer. Restore them to go on working: "
                + "they save once the database is back, and the main window opens as soon as it answers."));
        explain.setWrapText(true);
        Label reason = new Label();
        reason.setId("offline-reason");
        reason.setWrapText(true);
        reason.textProperty().bind(retry.reasonProperty());
        Label status = new Label();
        status.setId("offline-status");
        status.textProperty().bind(retry.statusProperty());
        Button tryNow = new Button(tr("Try again now"));
        tryNow.setId("try-again");
        tryNow.setOnAction(e -> retry.tryNow());
        Button quitButton = new Button(tr("Quit"));
        quitButton.setId("quit-offline");
        quitButton.setOnAction(e -> quit.run());
        Region grow = new Region();
        HBox.setHgrow(grow, Priority.ALWAYS);
        HBox buttons = new HBox(8, status, grow, tryNow, quitButton);
        VBox root = new VBox(10, headline, explain, reason, new DraftsOfferView(offer).root(), buttons);
        root.setId(ID);
        root.setPadding(new Insets(16));
        root.setPrefWidth(860);
        return root;
    }

    /** The drafts still offered, neither restored nor discarded: the main window offers them once it opens. */
    List<Draft> stillOffered() {
        return List.copyOf(offer.offered());
    }

    /** The window, for tests and as an owner. */
    Stage stage() {
        return stage;
    }

    /**
     * The database answered: every editor restored here goes on over {@code online} in its own window, in front of
     * the main window that just opened (the operator was working in them), this window closes, and its executor and
     * timers stop once the writes queued on them are done.
     */
    void handOver(EditorServices online) {
        end();
        for (Stage editor : editors) {
            if (editor.isShowing()) {
                CustomerEditorWindow.handOver(editor, online);
                editor.toFront();
            }
        }
        editors.clear();
        executor.close();
        timers.shutdownNow();
    }

    /**
     * Quit: each editor's edits are journaled as they stand now — also those typed within the last second, not yet
     * written — and nothing runs here any more but those writes, which {@link #awaitStopped} waits for.
     */
    void keepEverything() {
        end();
        for (Stage editor : editors) {
            if (editor.isShowing() && editor.getUserData() instanceof CustomerEditorView view) {
                Optional<Draft> edits = view.viewModel().handOver();
                edits.ifPresent(draft -> executor.execute(() -> {
                    drafts.save(draft);
                    return null;
                }, done -> {}, failure -> LOG.warn("Could not keep a draft at quit: {}", failure.getMessage(),
                        failure)));
            }
        }
        editors.clear();
        executor.close();
        timers.shutdownNow();
    }

    /** Waits up to {@code wait} for the writes {@link #keepEverything()} queued; for the application's exit. */
    void awaitStopped(Duration wait) {
        executor.close();
        timers.shutdownNow();
        if (!executor.closeAndWait(wait)) {
            LOG.warn("Some drafts were still being written when Lockstep ended");
        }
    }

    private void end() {
        if (!over) {
            over = true;
            retry.stop();
            stage.setOnCloseRequest(null);
            stage.close();
        }
    }
}
