package org.lockstep.ui.editor;

import javafx.scene.Parent;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ScrollPane;
import javafx.scene.control.TextArea;
import javafx.scene.control.TextField;
import javafx.scene.control.TextInputControl;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.ColumnConstraints;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import org.lockstep.domain.CustomerField;

/**
 * A form over {@link CustomerEditorViewModel}: one labelled control per field, Save and Revert, and the last
 * outcome. Controls are bound to the view model; the view holds no state of its own.
 *
 * <p>Interim version for main-window development; the ui-editor branch provides the full editor with the same API.
 */
public final class CustomerEditorView {

    private final BorderPane root = new BorderPane();

    /** Builds the form and binds it to {@code vm}. */
    public CustomerEditorView(CustomerEditorViewModel vm) {
        GridPane form = new GridPane();
        form.setHgap(8);
        form.setVgap(6);
        ColumnConstraints labels = new ColumnConstraints();
        labels.setMinWidth(javafx.scene.layout.Region.USE_PREF_SIZE);
        form.getColumnConstraints().addAll(labels, columnThatGrows());
        int row = 0;
        for (CustomerField f : CustomerField.values()) {
            TextInputControl input = f.multiLine() ? new TextArea() : new TextField();
            if (input instanceof TextArea area) {
                area.setPrefRowCount(f == CustomerField.NOTES ? 4 : 2);
                area.setWrapText(true);
            }
            input.setId("field-" + f.column());
            input.textProperty().bindBidirectional(vm.textProperty(f));
            Label label = new Label(f.label());
            label.setLabelFor(input);
            label.setMnemonicParsing(false);
            form.addRow(row++, label, input);
        }
        Button save = new Button("Save");
        save.setId("editor-save");
        save.setOnAction(e -> vm.save());
        save.disableProperty().bind(vm.busyProperty().or(vm.dirtyProperty().not()));
        Button revert = new Button("Revert");
        revert.setId("editor-revert");
        revert.setOnAction(e -> vm.revert());
        revert.disableProperty().bind(vm.busyProperty().or(vm.dirtyProperty().not()));
        Label message = new Label();
        message.setId("editor-message");
        message.textProperty().bind(vm.messageProperty());
        message.setWrapText(true);
        save.setMinWidth(javafx.scene.layout.Region.USE_PREF_SIZE);
        revert.setMinWidth(javafx.scene.layout.Region.USE_PREF_SIZE);
        HBox buttons = new HBox(8, save, revert, message);
        HBox.setHgrow(message, Priority.ALWAYS);
        ScrollPane scroll = new ScrollPane(form);
        scroll.setFitToWidth(true);
        form.setStyle("-fx-padding: 8");
        buttons.setStyle("-fx-padding: 8");
        root.setCenter(scroll);
        root.setBottom(buttons);
        root.setMinSize(320, 240);
        root.setOnKeyPressed(e -> {
            if (e.isShortcutDown() && e.getCode() == javafx.scene.input.KeyCode.S && !save.isDisabled()) {
                vm.save();
                e.consume();
            }
        });
    }

    /** The form's root node. */
    public Parent root() {
        return root;
    }

    private static ColumnConstraints columnThatGrows() {
        ColumnConstraints c = new ColumnConstraints();
        c.setHgrow(Priority.ALWAYS);
        c.setFillWidth(true);
        return c;
    }
}
