package org.lockstep.ui.demo;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import javafx.application.Platform;
import javafx.collections.ListChangeListener;
import javafx.geometry.Rectangle2D;
import javafx.scene.Parent;
import javafx.scene.Scene;
import javafx.scene.paint.Color;
import javafx.stage.Screen;
import javafx.stage.Stage;
import javafx.stage.Window;
import org.lockstep.ui.FxTaskExecutor;
import org.lockstep.concurrency.TaskExecutor;
import org.lockstep.ui.UiContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The trainer demo on screen: Alice's and Bob's windows side by side, each its own client of the database, and the
 * Trainer panel below them, laid out to fill one screen (1920×1080 and smaller). Closing any of the three windows
 * ends the demo: both clients let go of their leases and presence and close their pools.
 */
public final class DemoSession {

    /** Alice's colour: a deep blue. */
    public static final Color ALICE = Color.web("#1565c0");
    /** Bob's colour: a deep orange, told apart from Alice's blue also by those with red-green colour blindness. */
    public static final Color BOB = Color.web("#d84315");
    /** The share of the screen's height the Trainer panel takes; the operator windows have the rest. */
    static final double TRAINER_SHARE = 0.34;
    /** On screens under {@link #SMALL_HEIGHT} the Trainer takes less, and every window uses a smaller font. */
    static final double SMALL_TRAINER_SHARE = 0.30;
    /** Below this height in pixels (e.g. 1366×768) the demo's windows use {@link #SMALL_FONT}. */
    static final double SMALL_HEIGHT = 1000;
    /** The font size on small screens. */
    static final String SMALL_FONT = "-fx-font-size: 11px;";

    private static final Logger LOG = LoggerFactory.getLogger(DemoSession.class);

    private final Operator alice;
    private final Operator bob;
    private final List<UiContext.Backend> backends;
    private final FxTaskExecutor trainerExecutor;
    private final TrainerViewModel trainer;
    private final Stage trainerStage;
    private final ListChangeListener<Window> dialogsInside = this::keepInside;
    private boolean closed;
    private final CompletableFuture<Void> finished = new CompletableFuture<>();
    /** How long closing waits for each client's queued calls. */
    private static final Duration CLOSE_PATIENCE = Duration.ofSeconds(5);
    private Runnable onClosed = () -> {};

    private DemoSession(Operator alice, Operator bob, List<UiContext.Backend> backends, FxTaskExecutor executor,
            TrainerViewModel trainer, Stage trainerStage) {
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
                backends.forEach(b -> b.shutdown().run());
                onFailed.accept(e);
            }
        }, onFailed);
    }

    private static List<UiContext.Backend> openBackends(DemoClients clients) {
        UiContext.Backend a = clients.open("Alice");
        try {
            return List.of(a, clients.open("Bob"));
        } catch (RuntimeException e) {
            a.shutdown().run();
            throw e;
        }
    }

    /** Shows the windows on already opened backends (Alice's first). FX thread. */
    static DemoSession show(DemoClients clients, List<UiContext.Backend> backends, Pace pace) {
        Rectangle2D screen = Screen.getPrimary().getVisualBounds();
        boolean small = screen.getHeight() < SMALL_HEIGHT;
        double top = Math.floor(screen.getHeight() * (1 - (small ? SMALL_TRAINER_SHARE : TRAINER_SHARE)));
        double half = Math.floor(screen.getWidth() / 2);
        Operator alice = Operator.open("Alice", ALICE, backends.get(0), new Stage());
        Operator bob = Operator.open("Bob", BOB, backends.get(1), new Stage());
        place(alice.stage(), screen.getMinX(), screen.getMinY(), half, top);
        place(bob.stage(), screen.getMinX() + half, screen.getMinY(), screen.getWidth() - half, top);
        for (Operator o : List.of(alice, bob)) {
            if (small) {
                o.stage().getScene().getRoot().setStyle(SMALL_FONT);
            }
            // Again once the window has its final size: a window manager may have laid it out at another first.
            Platform.runLater(() -> o.window().setListShare(Operator.LIST_SHARE));
        }

        FxTaskExecutor executor = new FxTaskExecutor(1);
        Cast cast = new Cast(new Hands(alice, pace), new Hands(bob, pace), clients.records(), executor,
                backends.get(0).leaseTtl());
        TrainerViewModel trainer = new TrainerViewModel(Scenarios.all(), cast);
        Stage trainerStage = new Stage();
        trainerStage.setTitle("Trainer — Lockstep demo");
        Parent panel = new TrainerView(trainer).root();
        if (small) {
            panel.setStyle(SMALL_FONT);
        }
        trainerStage.setScene(new Scene(panel));
        trainerStage.setMinWidth(900);
        trainerStage.setMinHeight(200);
        trainerStage.show();
        place(trainerStage, screen.getMinX(), screen.getMinY() + top, screen.getWidth(), screen.getHeight() - top);

        DemoSession session = new DemoSession(alice, bob, backends, executor, trainer, trainerStage);
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
                finished.complete(null);
                Platform.runLater(onClosed);
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
