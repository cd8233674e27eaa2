package org.lockstep.ui.supervisor;

import static org.lockstep.text.Texts.tr;

import javafx.collections.ListChangeListener;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ScrollPane;
import javafx.scene.control.TitledPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;

/**
 * The supervisor's requests as a pane under the main window's toolbar, shown only while there is one: not a dialog,
 * so it takes no focus and stops no work; it folds away with its heading. Each request shows who asks, about which
 * customer and when, its text, and Open and Dismiss. Binds to a {@link SupervisorInboxViewModel}.
 */
public final class SupervisorInboxView {

    /** The pane's node id. */
    public static final String ID = "supervisorInbox";
    /** The style class of one request's row. */
    public static final String REQUEST_CLASS = "supervisor-request";
    /** The node id prefix of a request's Open button, followed by the message id. */
    public static final String OPEN_PREFIX = "supervisorRequestOpen-";

    private final SupervisorInboxViewModel vm;
    private final VBox rows = new VBox(6);
    private final Label error = new Label();
    private final TitledPane pane;

    /** Builds the pane over {@code vm}. */
    public SupervisorInboxView(SupervisorInboxViewModel vm) {
        this.vm = vm;
        error.textProperty().bind(vm.errorProperty());
        error.getStyleClass().add("supervisor-inbox-error");
        error.visibleProperty().bind(vm.errorProperty().isNotEmpty());
        error.managedProperty().bind(error.visibleProperty());
        ScrollPane scroll = new ScrollPane(new VBox(6, error, rows));
        scroll.setFitToWidth(true);
        scroll.setMaxHeight(220);
        pane = new TitledPane();
        pane.setId(ID);
        pane.textProperty().bind(vm.headingProperty());
        pane.setContent(scroll);
        pane.getStyleClass().add("supervisor-inbox");
        vm.requests().addListener((ListChangeListener<SupervisorInboxViewModel.Request>) c -> rebuild());
        vm.errorProperty().addListener((obs, was, now) -> rebuild());
        rebuild();
    }

    /** The pane, to put in a window. */
    public Node root() {
        return pane;
    }

    private void rebuild() {
        rows.getChildren().setAll(vm.requests().stream().map(this::row).toList());
        boolean shown = !vm.requests().isEmpty() || !vm.errorProperty().get().isEmpty();
        pane.setVisible(shown);
        pane.setManaged(shown);
    }

    private Node row(SupervisorInboxViewModel.Request request) {
        Label heading = new Label(request.heading());
        heading.getStyleClass().add("supervisor-request-heading");
        Label text = new Label(request.message().text());
        text.setWrapText(true);
        VBox words = new VBox(2, heading, text);
        HBox.setHgrow(words, Priority.ALWAYS);
        Button open = new Button(tr("Open customer"));
        open.setId(OPEN_PREFIX + request.message().id());
        open.setMinWidth(Button.USE_PREF_SIZE);
        open.setOnAction(e -> vm.open(request));
        Button dismiss = new Button(tr("Dismiss"));
        dismiss.setMinWidth(Button.USE_PREF_SIZE);
        dismiss.setOnAction(e -> vm.dismiss(request));
        HBox row = new HBox(8, words, open, dismiss);
        row.getStyleClass().add(REQUEST_CLASS);
        return row;
    }
}
