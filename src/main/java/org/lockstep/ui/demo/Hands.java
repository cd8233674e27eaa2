package org.lockstep.ui.demo;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;
import javafx.animation.PauseTransition;
import javafx.application.Platform;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.ButtonBase;
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
            throw new DemoStepException("Stopped by Reset data.");
        }
    }

    /**
     * Finds the customer through the list, as an operator would: types its company into the filter, waits for its
     * row, selects it, and waits until the editor pane shows it.
     */
    public CompletableFuture<Void> open(long customerId, String company) {
        Scene scene = operator.stage().getScene();
        return say("looks up " + company)
                .thenCompose(v -> type(control(scene, "#" + ListIds.CUSTOMER_FILTER), company))
                .thenCompose(v -> waitUntil(company + " to appear in " + operator.name() + "'s list",
                        () -> operator.viewModel().list().rows().stream().anyMatch(c -> c.id() == customerId)))
                .thenCompose(v -> {
                    operator.viewModel().list().select(customerId);
                    return waitUntil(operator.name() + "'s editor to show " + company, () -> {
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
        return say("types " + typed + " into " + field.label()).thenCompose(v -> {
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

    /** Clicks a button (or radio button, check box) of the main window, found by its id. */
    public CompletableFuture<Void> click(String id, String doing) {
        return say(doing).thenCompose(v -> click(find(operator.stage().getScene(), "#" + id)));
    }

    /**
     * Clicks a button in a dialog this operator's window opened (the merge dialog, a confirmation), found by its id
     * or, for a button without one, by its text; waits for the dialog to appear first.
     */
    public CompletableFuture<Void> clickInDialog(String idOrText, String doing) {
        return say(doing).thenCompose(v -> waitUntil("the dialog in " + operator.name() + "'s window where "
                + operator.name() + " " + doing, () -> dialogButton(idOrText).isPresent()))
                .thenCompose(v -> click(dialogButton(idOrText).orElseThrow()));
    }

    /** Shows a tab of the editor pane (e.g. "History"). */
    public CompletableFuture<Void> showTab(String text, String doing) {
        return say(doing).thenCompose(v -> {
            TabPane tabs = (TabPane) find(operator.stage().getScene(), "#" + EditorIds.TABS);
            Tab tab = tabs.getTabs().stream().filter(t -> text.equals(t.getText())).findFirst()
                    .orElseThrow(() -> new DemoStepException("No " + text + " tab in " + operator.name()
                            + "'s editor"));
            return point(tabs).thenRun(() -> tabs.getSelectionModel().select(tab));
        }).thenCompose(v -> pause(pace.between()));
    }

    /**
     * Waits, checking every 50 ms, until {@code condition} holds.
     *
     * @param what what is awaited, for the failure message ("Bob's editor to show version 2")
     */
    public CompletableFuture<Void> waitUntil(String what, BooleanSupplier condition) {
        return waitUntil(what, condition, WAIT);
    }

    /** As {@link #waitUntil(String, BooleanSupplier)}, waiting at most {@code timeout}. */
    public CompletableFuture<Void> waitUntil(String what, BooleanSupplier condition, Duration timeout) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        long deadline = System.nanoTime() + (long) (timeout.toMillis() * 1_000_000);
        poll(what, condition, deadline, done, epoch);
        return done;
    }

    private void poll(String what, BooleanSupplier condition, long deadline, CompletableFuture<Void> done,
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
            done.completeExceptionally(new DemoStepException("Waited in vain for " + what + "."));
        } else {
            PauseTransition wait = new PauseTransition(POLL);
            wait.setOnFinished(e -> poll(what, condition, deadline, done, started));
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
            return CompletableFuture.failedFuture(new DemoStepException(describe(control) + " in "
                    + operator.name() + "'s window is read-only."));
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
                throw new DemoStepException(describe(control) + " in " + operator.name() + "'s window reads \""
                        + control.getText() + "\", not \"" + text + "\": someone typed into it meanwhile.");
            }
            return pause(pace.between());
        });
    }

    private CompletableFuture<Void> click(Node node) {
        if (!(node instanceof ButtonBase button)) {
            return CompletableFuture.failedFuture(new DemoStepException(describe(node) + " is not a button."));
        }
        if (button.isDisabled()) {
            return CompletableFuture.failedFuture(new DemoStepException(operator.name() + " cannot click "
                    + describe(button) + ": it is disabled."));
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

    private TextInputControl control(Scene scene, String selector) {
        Node node = find(scene, selector);
        if (node instanceof TextInputControl text) {
            return text;
        }
        throw new DemoStepException(describe(node) + " is not a text field.");
    }

    private Node find(Scene scene, String selector) {
        Node node = scene.lookup(selector);
        if (node == null) {
            throw new DemoStepException("Nothing called " + selector + " in " + operator.name() + "'s window.");
        }
        return node;
    }

    private static String describe(Node node) {
        if (node instanceof Labeled l && l.getText() != null && !l.getText().isEmpty()) {
            return "\"" + l.getText() + "\"";
        }
        if (ListIds.CUSTOMER_FILTER.equals(node.getId())) {
            return "The filter";
        }
        Optional<CustomerField> field = EditorIds.fieldOf(node.getId());
        if (field.isPresent()) {
            return "The " + field.get().label() + " field";
        }
        return node.getId() == null ? node.getClass().getSimpleName() : node.getId();
    }
}
