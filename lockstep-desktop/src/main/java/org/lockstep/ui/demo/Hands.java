package org.lockstep.ui.demo;

import static org.lockstep.text.Texts.tr;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;
import javafx.animation.PauseTransition;
import javafx.application.Platform;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.ButtonBase;
import javafx.scene.control.ButtonType;
import javafx.scene.control.DialogPane;
import javafx.scene.control.Labeled;
import javafx.scene.control.Tab;
import javafx.scene.control.TabPane;
import javafx.scene.control.TextInputControl;
import javafx.scene.effect.DropShadow;
import javafx.scene.effect.Effect;
import javafx.stage.Stage;
import javafx.stage.Window;
import javafx.util.Duration;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.FieldParser;
import org.lockstep.ui.EditorLocale;
import org.lockstep.ui.Windows;
import org.lockstep.ui.editor.EditorIds;
import org.lockstep.ui.editor.EditorState;
import org.lockstep.ui.list.ListIds;

/**
 * The trainer demo's hands in one operator window: every action goes through the real controls — the filter field,
 * the table's selection, the editor's fields, buttons and dialogs — highlighted in the operator's colour first, and
 * typed one character at a time, so that a class sees exactly what happens. Each action returns a future completed
 * on the FX thread when it is done; a control that is missing or disabled fails the future with a
 * {@link DemoStepException} saying which.
 *
 * <p>FX thread only. Timing uses JavaFX animations ({@link PauseTransition}), never a sleeping thread.
 */
public final class Hands {

    /** How long {@link #waitUntil(String, BooleanSupplier)} waits by default. */
    public static final Duration WAIT = Duration.seconds(15);
    /** The History tab's id in the editor pane ({@code fx:id} in {@code CustomerEditorView.fxml}). */
    public static final String HISTORY_TAB = "historyTab";
    private static final Duration POLL = Duration.millis(50);

    private final Operator operator;
    private final Pace pace;
    // Bumped by stop(): every action under way checks it before each keystroke, click and poll, and fails once it
    // moved, so that a step interrupted by Reset data does nothing more in the windows.
    private int epoch;

    /** Hands acting in {@code operator}'s windows at {@code pace}. */
    public Hands(Operator operator, Pace pace) {
        this.operator = operator;
        this.pace = pace;
    }

    /** Stops every action under way: each fails with a {@link DemoStepException} at its next keystroke or poll. */
    public void stop() {
        epoch++;
    }

    /** The operator these hands act for. */
    public Operator operator() {
        return operator;
    }

    /** Shows what the operator does next in their banner. */
    public CompletableFuture<Void> say(String text) {
        operator.say(text);
        return pause(pace.between());
    }

    private void checkNotStopped(int started) {
        if (epoch != started) {
            throw new DemoStepException(tr("Stopped by Reset data."));
        }
    }

    /**
     * Finds the customer through the list, as an operator would: types its company into the filter, waits for its
     * row, selects it, and waits until the editor pane shows it.
     */
    public CompletableFuture<Void> open(long customerId, String company) {
        Scene scene = operator.stage().getScene();
        return say(tr("looks up {0}", company))
                .thenCompose(v -> type(control(scene, "#" + ListIds.CUSTOMER_FILTER), company))
                .thenCompose(v -> waitUntil(tr("Waited in vain for {0} to appear in {1}''s list.", company,
                        operator.name()),
                        () -> operator.viewModel().list().rows().stream().anyMatch(c -> c.id() == customerId)))
                .thenCompose(v -> {
                    operator.viewModel().list().select(customerId);
                    return waitUntil(tr("Waited in vain for {0}''s editor to show {1}.", operator.name(), company),
                            () -> {
                                var base = operator.editor().buffer().baseProperty().get();
                                return operator.editor().stateProperty().get() == EditorState.EDITING && base != null
                                        && base.id() == customerId && !operator.editor().busyProperty().get();
                            });
                });
    }

    /**
     * Types {@code text} into a field of the editor pane, replacing what it held. An amount is given in the neutral
     * format ({@code 1100.00}) and typed as the editor's locale writes it ({@code 1100,00} in de).
     */
    public CompletableFuture<Void> type(CustomerField field, String text) {
        String typed = field.numeric()
                ? EditorLocale.fields().format(FieldParser.NEUTRAL.parse(field, text)) : text;
        return say(tr("types {0} into {1}", typed, field.label())).thenCompose(v -> {
            showDetails();
            return type(control(operator.stage().getScene(), "#" + EditorIds.field(field)), typed);
        });
    }

    /** The fields are on the Details tab: an earlier scenario may have left the History tab open. */
    void showDetails() {
        if (operator.stage().getScene().lookup("#" + EditorIds.TABS) instanceof TabPane tabs
                && !tabs.getTabs().isEmpty()) {
            tabs.getSelectionModel().select(0);
        }
    }

    /**
     * Clicks a button (or radio button, check box) of the main window, found by its id.
     *
     * @param doing what the operator does, in the current language, for their banner ("clicks Save")
     */
    public CompletableFuture<Void> click(String id, String doing) {
        return say(doing).thenCompose(v -> click(find(operator.stage().getScene(), "#" + id)));
    }

    /**
     * Clicks a button in a dialog this operator's window opened (the merge dialog, a confirmation), found by its id
     * or, for a button without one, by its text; waits for the dialog to appear first.
     */
    public CompletableFuture<Void> clickInDialog(String idOrText, String doing) {
        return say(doing).thenCompose(v -> waitUntil(dialogMissing(doing), () -> dialogButton(idOrText).isPresent()))
                .thenCompose(v -> click(dialogButton(idOrText).orElseThrow()));
    }

    /**
     * Clicks the confirming button (OK, Delete …: the one that does what the dialog asks) of a confirmation this
     * operator's window opened; found by its role, not its words, which change with the language.
     */
    public CompletableFuture<Void> confirmInDialog(String doing) {
        return say(doing).thenCompose(v -> waitUntil(dialogMissing(doing), () -> confirmButton().isPresent()))
                .thenCompose(v -> click(confirmButton().orElseThrow()));
    }

    private String dialogMissing(String doing) {
        return tr("Waited in vain for the dialog in {0}''s window where {0} {1}.", operator.name(), doing);
    }

    /** Shows a tab of the editor pane, found by its id (e.g. {@link #HISTORY_TAB}). */
    public CompletableFuture<Void> showTab(String tabId, String doing) {
        return say(doing).thenCompose(v -> {
            TabPane tabs = (TabPane) find(operator.stage().getScene(), "#" + EditorIds.TABS);
            Tab tab = tabs.getTabs().stream().filter(t -> tabId.equals(t.getId())).findFirst()
                    .orElseThrow(() -> new DemoStepException(tr("No tab {0} in {1}''s editor", tabId,
                            operator.name())));
            return point(tabs).thenRun(() -> tabs.getSelectionModel().select(tab));
        }).thenCompose(v -> pause(pace.between()));
    }

    /**
     * Waits, checking every 50 ms, until {@code condition} holds.
     *
     * @param failure the trainer's sentence when the wait runs out, in the current language ("Waited in vain for
     *                Bob's editor to show version 2.")
     */
    public CompletableFuture<Void> waitUntil(String failure, BooleanSupplier condition) {
        return waitUntil(failure, condition, WAIT);
    }

    /** As {@link #waitUntil(String, BooleanSupplier)}, waiting at most {@code timeout}. */
    public CompletableFuture<Void> waitUntil(String failure, BooleanSupplier condition, Duration timeout) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        long deadline = System.nanoTime() + (long) (timeout.toMillis() * 1_000_000);
        poll(failure, condition, deadline, done, epoch);
        return done;
    }

    private void poll(String failure, BooleanSupplier condition, long deadline, CompletableFuture<Void> done,
            int started) {
        boolean met;
        try {
            checkNotStopped(started);
            met = condition.getAsBoolean();
        } catch (RuntimeException e) {
            done.completeExceptionally(e);
            return;
        }
        if (met) {
            done.complete(null);
        } else if (System.nanoTime() > deadline) {
            done.completeExceptionally(new DemoStepException(failure));
        } else {
            PauseTransition wait = new PauseTransition(POLL);
            wait.setOnFinished(e -> poll(failure, condition, deadline, done, started));
            wait.play();
        }
    }

    /** Pauses for {@code d} on the FX thread's timeline. */
    public CompletableFuture<Void> pause(Duration d) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        PauseTransition wait = new PauseTransition(d);
        wait.setOnFinished(e -> done.complete(null));
        wait.play();
        return done;
    }

    private CompletableFuture<Void> type(TextInputControl control, String text) {
        if (!control.isEditable() || control.isDisabled()) {
            return CompletableFuture.failedFuture(new DemoStepException(tr("{0} in {1}''s window is read-only.",
                    describe(control), operator.name())));
        }
        int started = epoch;
        return point(control).thenCompose(v -> {
            checkNotStopped(started);
            control.requestFocus();
            control.clear();
            CompletableFuture<Void> typed = CompletableFuture.completedFuture(null);
            for (int i = 0; i < text.length(); i++) {
                char c = text.charAt(i);
                typed = typed.thenCompose(x -> {
                    checkNotStopped(started);
                    control.appendText(String.valueOf(c));
                    return pause(pace.keystroke());
                });
            }
            return typed;
        }).thenCompose(v -> {
            // Someone may have typed along in the same field: the step must not pass with other values.
            if (!text.equals(control.getText())) {
                throw new DemoStepException(tr("{0} in {1}''s window reads \"{2}\", not \"{3}\": someone typed into it "
                        + "meanwhile.", describe(control), operator.name(), control.getText(), text));
            }
            return pause(pace.between());
        });
    }

    private CompletableFuture<Void> click(Node node) {
        if (!(node instanceof ButtonBase button)) {
            return CompletableFuture.failedFuture(new DemoStepException(tr("{0} is not a button.", describe(node))));
        }
        if (button.isDisabled()) {
            return CompletableFuture.failedFuture(new DemoStepException(tr("{0} cannot click {1}: it is disabled.",
                    operator.name(), describe(button))));
        }
        int started = epoch;
        return point(button).thenCompose(v -> {
            checkNotStopped(started);
            CompletableFuture<Void> clicked = new CompletableFuture<>();
            // Fired from a fresh event, not from the animation that ends the highlight: a button that opens a
            // confirmation with showAndWait must not do so inside animation processing (JavaFX forbids it), and
            // the demo must go on while such a dialog waits for its answer.
            Platform.runLater(() -> {
                Platform.runLater(() -> clicked.complete(null));
                button.fire();
            });
            return clicked;
        }).thenCompose(v -> pause(pace.between()));
    }

    /** Highlights a control in the operator's colour for the pace's pointing time, scrolled into view first. */
    private CompletableFuture<Void> point(Node node) {
        Windows.reveal(node);
        Effect before = node.getEffect();
        DropShadow glow = new DropShadow(22, operator.colour());
        glow.setSpread(0.55);
        node.setEffect(glow);
        return pause(pace.point()).thenRun(() -> node.setEffect(before));
    }

    private Optional<ButtonBase> dialogButton(String idOrText) {
        for (Window w : Window.getWindows()) {
            if (w instanceof Stage s && s.isShowing() && s.getOwner() == operator.stage() && s.getScene() != null) {
                Node byId = s.getScene().lookup("#" + idOrText);
                if (byId instanceof ButtonBase b && b.isVisible()) {
                    return Optional.of(b);
                }
                Optional<ButtonBase> byText = s.getScene().getRoot().lookupAll(".button").stream()
                        .filter(n -> n instanceof ButtonBase b && idOrText.equals(b.getText()) && b.isVisible())
                        .map(n -> (ButtonBase) n).findFirst();
                if (byText.isPresent()) {
                    return byText;
                }
            }
        }
        return Optional.empty();
    }

    /** The confirming button (data OK_DONE or YES) of a dialog this operator's window opened, if one shows. */
    private Optional<ButtonBase> confirmButton() {
        for (Window w : Window.getWindows()) {
            if (w instanceof Stage s && s.isShowing() && s.getOwner() == operator.stage() && s.getScene() != null
                    && s.getScene().getRoot().lookup(".dialog-pane") instanceof DialogPane pane) {
                for (ButtonType type : pane.getButtonTypes()) {
                    ButtonBar.ButtonData data = type.getButtonData();
                    if ((data == ButtonBar.ButtonData.OK_DONE || data == ButtonBar.ButtonData.YES)
                            && pane.lookupButton(type) instanceof ButtonBase b && b.isVisible()) {
                        return Optional.of(b);
                    }
                }
            }
        }
        return Optional.empty();
    }

    private TextInputControl control(Scene scene, String selector) {
        Node node = find(scene, selector);
        if (node instanceof TextInputControl text) {
            return text;
        }
        throw new DemoStepException(tr("{0} is not a text field.", describe(node)));
    }

    private Node find(Scene scene, String selector) {
        Node node = scene.lookup(selector);
        if (node == null) {
            throw new DemoStepException(tr("Nothing called {0} in {1}''s window.", selector, operator.name()));
        }
        return node;
    }

    private static String describe(Node node) {
        if (node instanceof Labeled l && l.getText() != null && !l.getText().isEmpty()) {
            return "\"" + l.getText() + "\"";
        }
        if (ListIds.CUSTOMER_FILTER.equals(node.getId())) {
            return tr("The filter");
        }
        Optional<CustomerField> field = EditorIds.fieldOf(node.getId());
        if (field.isPresent()) {
            return tr("The {0} field", field.get().label());
        }
        return node.getId() == null ? node.getClass().getSimpleName() : node.getId();
    }
}
