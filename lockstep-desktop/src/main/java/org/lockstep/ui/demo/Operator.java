package org.lockstep.ui.demo;

import static org.lockstep.text.Texts.tr;

import org.lockstep.domain.ConcurrencyMode;
import java.time.Duration;
import javafx.beans.property.SimpleObjectProperty;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.Parent;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.StackPane;
import javafx.scene.layout.VBox;
import javafx.scene.paint.Color;
import javafx.stage.Stage;
import org.lockstep.ui.ClientSession;
import org.lockstep.ui.EditorServices;
import org.lockstep.ui.UiContext;
import org.lockstep.ui.editor.CustomerEditorViewModel;
import org.lockstep.ui.lock.EditLockViewModel;
import org.lockstep.ui.main.MainWindow;
import org.lockstep.ui.main.MainWindowViewModel;

/**
 * One operator of the trainer demo ("Alice" or "Bob"): an ordinary main window on its own client — its own pool,
 * session, change feed and presence, as if on another machine — with the operator's name and colour across the top,
 * a caption saying what the trainer makes them do, and a {@link Freeze} that can stop the client mid-save.
 */
public final class Operator {

    /** The list's share of an operator window's width: the editor pane needs the room. */
    static final double LIST_SHARE = 0.40;

    private final String name;
    private final Color colour;
    private final Freeze freeze;
    private final ClientSession client;
    private final MainWindow window;
    private final Label caption = new Label();
    private final ClientLog log;

    private Operator(String name, Color colour, Freeze freeze, ClientSession client, MainWindow window,
            ClientLog log) {
        this.name = name;
        this.colour = colour;
        this.freeze = freeze;
        this.client = client;
        this.window = window;
        this.log = log;
    }

    /**
     * Starts the operator's client on {@code backend} and shows their main window on {@code stage}. FX thread.
     *
     * @param colour the operator's colour, e.g. blue for Alice and orange for Bob
     */
    public static Operator open(String name, Color colour, UiContext.Backend backend, Stage stage) {
        Freeze freeze = new Freeze();
        ClientLog log = new ClientLog(name, java.time.Clock.systemUTC());
        freeze.setWitness(log);
        UiContext.Backend frozenWhenAsked = backend.withRepositories(freeze.customers(backend.repository()),
                freeze.leases(backend.leases()));
        ClientSession client = ClientSession.start(frozenWhenAsked, name,
                new SimpleObjectProperty<>(ConcurrencyMode.OPTIMISTIC));
        EditorServices services = client.services().toBuilder().lastWriteWinsAllowed().build();
        MainWindow window = MainWindow.show(stage, services, client.live(), null);
        Operator operator = new Operator(name, colour, freeze, client, window, log);
        log.follow(window.viewModel().editor().buffer().baseProperty());
        operator.decorate(stage);
        return operator;
    }

    private void decorate(Stage stage) {
        stage.setTitle(tr("{0} — Lockstep demo", name));
        // Two side by side must fit a 1280-pixel screen too; the main window alone asks for 720.
        stage.setMinWidth(560);
        Label who = new Label(name);
        who.getStyleClass().add("operator-name");
        caption.getStyleClass().add("operator-caption");
        caption.setId("operator-caption");
        caption.setMaxWidth(Double.MAX_VALUE);
        HBox.setHgrow(caption, Priority.ALWAYS);
        HBox banner = new HBox(14, who, caption);
        banner.setAlignment(Pos.CENTER_LEFT);
        banner.setPadding(new Insets(6, 12, 6, 12));
        banner.getStyleClass().add("operator-banner");
        banner.setStyle("-operator-colour: " + web(colour) + ";");
        banner.getStylesheets().add(Operator.class.getResource("Operator.css").toExternalForm());
        window.addBanner(banner);
        window.setListShare(LIST_SHARE);

        // A frozen client answers nothing: a veil over the whole window says so, and takes the operator's clicks.
        Label frozenText = new Label(tr("{0}''s client is frozen — a long pause, like a garbage collection or a "
                + "suspended laptop. Nothing it sends reaches the database, and its lease is not renewed.", name));
        frozenText.setWrapText(true);
        frozenText.getStyleClass().add("frozen-text");
        VBox veil = new VBox(frozenText);
        veil.setAlignment(Pos.CENTER);
        veil.setId("frozen-veil");
        veil.getStyleClass().add("frozen-veil");
        veil.getStylesheets().add(Operator.class.getResource("Operator.css").toExternalForm());
        veil.visibleProperty().bind(freeze.frozenProperty());
        Scene scene = stage.getScene();
        Parent content = scene.getRoot();
        scene.setRoot(new StackPane(content, veil));
    }

    private static String web(Color c) {
        return String.format("#%02x%02x%02x", Math.round(c.getRed() * 255), Math.round(c.getGreen() * 255),
                Math.round(c.getBlue() * 255));
    }

    /** The operator's name, as written with their saves. */
    public String name() {
        return name;
    }

    /** The operator's colour, used for their banner and for the highlight of what the trainer makes them do. */
    public Color colour() {
        return colour;
    }

    /** The operator's main window. */
    public MainWindow window() {
        return window;
    }

    /** The operator's stage. */
    public Stage stage() {
        return window.stage();
    }

    /** The main window's view model. */
    public MainWindowViewModel viewModel() {
        return window.viewModel();
    }

    /** The editor in the main window's pane. */
    public CustomerEditorViewModel editor() {
        return window.viewModel().editor();
    }

    /** What this operator's client knows and the database does not record: its reads, its refused saves. */
    ClientLog clientLog() {
        return log;
    }

    /** The client's live updates (its change feed), on the FX thread. */
    org.lockstep.ui.live.LiveUpdates live() {
        return client.live();
    }

    /** Stops the client before its calls reach the database, or lets them go on. */
    public Freeze freeze() {
        return freeze;
    }

    /** Shows what the operator is doing now, beside their name ("types 1100.00 into Credit limit"); empty clears it. */
    public void say(String text) {
        caption.setText(text == null ? "" : text);
    }

    /**
     * Ends the operator's client without waiting: thaws it first (a frozen call would hold up the end), queues the
     * release of its leases and presence, stops its feed and timers, and closes the window. FX thread.
     */
    public void close() {
        freeze.thaw();
        client.stop();
        if (stage() != null) {
            stage().close();
        }
    }

    /** Waits up to {@code wait} for what {@link #close()} queued (lease releases); blocks, so off the FX thread. */
    boolean awaitClosed(Duration wait) {
        return client.awaitStopped(wait);
    }
}
