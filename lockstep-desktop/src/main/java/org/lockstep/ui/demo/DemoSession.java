package org.lockstep.ui.demo;

import static org.lockstep.text.Texts.tr;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import javafx.application.Platform;
import javafx.collections.ListChangeListener;
import javafx.scene.Scene;
import javafx.scene.paint.Color;
import javafx.stage.Stage;
import javafx.stage.Window;
import org.lockstep.ui.FxTaskExecutor;
import org.lockstep.concurrency.TaskExecutor;
import org.lockstep.ui.DemoClients;
import org.lockstep.ui.UiContext;
import org.lockstep.ui.timeline.TimelinePane;
import org.lockstep.ui.timeline.TimelineViewModel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import javafx.scene.control.MenuBar;
import javafx.scene.layout.BorderPane;
import org.lockstep.ui.theme.ThemeMenu;

/**
 * The trainer demo on screen: Alice's and Bob's windows side by side, each its own client of the database, and the
 * Trainer panel below them, laid out to fill one screen (1920×1080 and smaller). Closing any of the three windows
 * ends the demo: both clients let go of their leases and presence and close their pools, then the demo's database is
 * let go of ({@link DemoClients#close()}).
 */
public final class DemoSession {

    /** Alice's colour: a deep blue. */
    public static final Color ALICE = Color.web("#1565c0");
    /** Bob's colour: a deep orange, told apart from Alice's blue also by those with red-green colour blindness. */
    public static final Color BOB = Color.web("#bf360c"); // deep orange, dark enough for white text (WCAG AA)

    private static final Logger LOG = LoggerFactory.getLogger(DemoSession.class);

    private final Operator alice;
    private final Operator bob;
    private final DemoClients clients;
    private final List<UiContext.Backend> backends;
    private final FxTaskExecutor trainerExecutor;
    private final TrainerViewModel trainer;
    private final Stage trainerStage;
    private final DemoScreens screens;
    private final BlackFridayViewModel blackFriday;
    private final ListChangeListener<Window> dialogsInside = this::keepInside;
    private boolean closed;
    private final CompletableFuture<Void> finished = new CompletableFuture<>();
    /** How long closing waits for each client's queued calls. */
    private static final Duration CLOSE_PATIENCE = Duration.ofSeconds(5);
    private Runnable onClosed = () -> {};
    private DemoTimeline timeline;
    private TimelinePane timelinePane;

    private DemoSession(Operator alice, Operator bob, DemoClients clients, List<UiContext.Backend> backends,
            FxTaskExecutor executor, TrainerViewModel trainer, Stage trainerStage, DemoScreens screens,
            BlackFridayViewModel blackFriday) {
        this.clients = clients;
        this.blackFriday = blackFriday;
        this.screens = screens;
        this.alice = alice;
        this.bob = bob;
        this.backends = backends;
        this.trainerExecutor = executor;
        this.trainer = trainer;
        this.trainerStage = trainerStage;
    }

    /**
     * Opens Alice's and Bob's clients in the background (each connects its own pool), then shows the three windows.
     *
     * @param executor runs the connecting off the FX thread
     * @param pace     how fast the trainer acts in the operator windows
     * @param onOpen   receives the session on the FX thread once its windows show
     * @param onFailed receives why the clients could not be opened, on the FX thread
     */
    public static void open(DemoClients clients, TaskExecutor executor, Pace pace, Consumer<DemoSession> onOpen,
            Consumer<Throwable> onFailed) {
        executor.execute(() -> openBackends(clients), backends -> {
            try {
                onOpen.accept(show(clients, backends, pace));
            } catch (RuntimeException e) {
                // Off the FX thread: closing a pool waits for its announcements.
                executor.execute(() -> {
                    backends.forEach(b -> b.shutdown().run());
                    clients.close();
                    return null;
                }, done -> onFailed.accept(e), closing -> onFailed.accept(e));
            }
        }, onFailed);
    }

    private static List<UiContext.Backend> openBackends(DemoClients clients) {
        UiContext.Backend a = null;
        try {
            a = clients.open("Alice");
            return List.of(a, clients.open("Bob"));
        } catch (RuntimeException e) {
            if (a != null) {
                a.shutdown().run();
            }
            clients.close();
            throw e;
        }
    }

    /** Shows the windows on already opened backends (Alice's first). FX thread. */
    static DemoSession show(DemoClients clients, List<UiContext.Backend> backends, Pace pace) {
        // One screen: side by side above the Trainer panel; two or more: a screen each (DemoLayout).
        DemoLayout.Placement layout = DemoScreens.placement();
        Operator alice = Operator.open("Alice", ALICE, backends.get(0), new Stage());
        Operator bob = Operator.open("Bob", BOB, backends.get(1), new Stage());
        for (Operator o : List.of(alice, bob)) {
            // Again once the window has its final size: a window manager may have laid it out at another first.
            Platform.runLater(() -> o.window().setListShare(Operator.LIST_SHARE));
        }

        FxTaskExecutor executor = new FxTaskExecutor(1);
        BlackFridayViewModel blackFriday = new BlackFridayViewModel(backends.get(0).lab(), executor);
        Cast cast = new Cast(new Hands(alice, pace), new Hands(bob, pace), clients.records(), executor,
                backends.get(0).leaseTtl(), blackFriday);
        TrainerViewModel trainer = new TrainerViewModel(Scenarios.all(), cast);
        Stage trainerStage = new Stage();
        trainerStage.setTitle(tr("Trainer — Lockstep demo"));
        TrainerView view = new TrainerView(trainer, new BlackFridayView(blackFriday).root());
        DemoTimeline timeline = new DemoTimeline(trainer, cast, alice, bob, backends.get(0).history(), executor);
        TimelinePane timelinePane = new TimelinePane(timeline.viewModel());
        timelinePane.fitLanesToWidth();
        view.showTimeline(timelinePane.root());
        // The Trainer panel's own View menu: the theme is chosen for all the demo's windows at once.
        BorderPane panel = new BorderPane(view.root());
        panel.setTop(new MenuBar(ThemeMenu.viewMenu()));
        trainerStage.setScene(new Scene(panel));
        trainerStage.setMinWidth(900);
        trainerStage.setMinHeight(200);
        DemoScreens.place(trainerStage, layout.trainer());
        trainerStage.show();
        DemoScreens screens = DemoScreens.follow(alice.stage(), bob.stage(), trainerStage);

        DemoSession session = new DemoSession(alice, bob, clients, backends, executor, trainer, trainerStage, screens,
                blackFriday);
        session.timeline = timeline;
        session.timelinePane = timelinePane;
        Window.getWindows().addListener(session.dialogsInside);
        for (Stage s : List.of(alice.stage(), bob.stage(), trainerStage)) {
            s.setOnHidden(e -> session.close());
        }
        return session;
    }

    /**
     * Keeps a dialog an operator's window opens (the merge dialog is ~1240×780) within that window's bounds, so that
     * it never covers the other operator or the Trainer panel's "what to notice".
     */
    private void keepInside(ListChangeListener.Change<? extends Window> change) {
        while (change.next()) {
            for (Window w : change.getAddedSubList()) {
                if (w instanceof Stage dialog && (dialog.getOwner() == alice.stage()
                        || dialog.getOwner() == bob.stage())) {
                    Stage owner = (Stage) dialog.getOwner();
                    // After the dialog's own sizing, which runs as it shows.
                    Platform.runLater(() -> fitInside(dialog, owner));
                }
            }
        }
    }

    private static void fitInside(Stage dialog, Stage owner) {
        if (dialog.getWidth() > owner.getWidth() || dialog.getHeight() > owner.getHeight()) {
            place(dialog, owner.getX(), owner.getY(), Math.min(dialog.getWidth(), owner.getWidth()),
                    Math.min(dialog.getHeight(), owner.getHeight()));
        }
        dialog.setX(owner.getX() + (owner.getWidth() - dialog.getWidth()) / 2);
        dialog.setY(owner.getY() + (owner.getHeight() - dialog.getHeight()) / 2);
    }

    private static void place(Stage stage, double x, double y, double width, double height) {
        // Size after showing as well: some window managers map a new stage at its minimum size (Windows.showAtSize).
        stage.setX(x);
        stage.setY(y);
        stage.setWidth(width);
        stage.setHeight(height);
    }

    /** Alice's window and client. */
    public Operator alice() {
        return alice;
    }

    /** Bob's window and client. */
    public Operator bob() {
        return bob;
    }

    /** The Trainer panel's state. */
    public TrainerViewModel trainer() {
        return trainer;
    }

    /** The Trainer panel's timeline of the running scenario's customer. */
    public TimelineViewModel timeline() {
        return timeline.viewModel();
    }

    /** The pane that draws {@link #timeline()}. */
    public TimelinePane timelinePane() {
        return timelinePane;
    }

    /** Scenario 7's lab results, as the Trainer panel shows them. */
    public BlackFridayViewModel blackFriday() {
        return blackFriday;
    }

    /** The Trainer panel's window. */
    public Stage trainerStage() {
        return trainerStage;
    }

    /** Called once, on the FX thread, after the demo closed. */
    public void setOnClosed(Runnable listener) {
        onClosed = listener == null ? () -> {} : listener;
    }

    /**
     * Ends the demo: closes the three windows and stops both clients on the FX thread, then — off it — waits for
     * their lease releases and presence removals and closes their pools; {@link #closed()} completes after that.
     * Idempotent. FX thread.
     */
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        Window.getWindows().removeListener(dialogsInside);
        screens.stop();
        alice.close();
        bob.close();
        trainerStage.close();
        trainerExecutor.close();
        Thread ending = new Thread(() -> {
            try {
                alice.awaitClosed(CLOSE_PATIENCE);
                bob.awaitClosed(CLOSE_PATIENCE);
                trainerExecutor.closeAndWait(CLOSE_PATIENCE);
                backends.forEach(b -> b.shutdown().run());
            } finally {
                try {
                    clients.close(); // the demo's own database, after the operators' pools
                } finally {
                    finished.complete(null);
                    Platform.runLater(onClosed);
                }
            }
        }, "lockstep-demo-close");
        ending.setDaemon(true);
        ending.start();
    }

    /**
     * At the application's exit: {@link #close()}, then waits (at most 20 s) until the clients have finished and
     * their pools are closed, so that the database closes after them and the embedded server can stop. Blocks the
     * FX thread, which is ending anyway.
     */
    public void closeAndWait() {
        close();
        try {
            finished.get(20, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            LOG.warn("The demo's clients did not close in time: {}", e.toString());
        }
    }

    /**
     * Completes once {@link #close()} has let the clients finish and closed their pools; the application waits on it
     * before it closes the database (the embedded server stops only when no client is left).
     */
    public CompletableFuture<Void> closed() {
        return finished;
    }
}
