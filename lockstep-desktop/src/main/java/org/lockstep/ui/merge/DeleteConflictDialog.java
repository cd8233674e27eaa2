package org.lockstep.ui.merge;

import static org.lockstep.text.Texts.tr;

import java.io.IOException;
import java.io.UncheckedIOException;
import javafx.beans.binding.Bindings;
import javafx.beans.value.ObservableStringValue;
import javafx.collections.ListChangeListener;
import javafx.fxml.FXML;
import javafx.fxml.FXMLLoader;
import javafx.geometry.Rectangle2D;
import javafx.geometry.VPos;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressIndicator;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyEvent;
import javafx.scene.layout.ColumnConstraints;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.Priority;
import javafx.stage.Modality;
import javafx.stage.Screen;
import javafx.stage.Stage;
import javafx.stage.Window;
import org.lockstep.text.Texts;
import org.lockstep.ui.theme.Themes;

/**
 * The dialog for my delete on a stale version: a modal window owned by the editor's window, showing a
 * {@link DeleteConflictViewModel}: "changed since you loaded it", the changes field by field (when I loaded it, now),
 * then Delete anyway or Keep. Esc and closing the window keep the record. Keep has the focus, so that Enter never
 * deletes by accident.
 */
public final class DeleteConflictDialog {

    private final DeleteConflictViewModel viewModel;
    private final Stage stage = new Stage();

    // The injected controls, one per line as the FXML lists their ids (kept so by the formatter tags).
    // @formatter:off
    @FXML private Label title;
    @FXML private Label historySummary;
    @FXML private Label notice;
    @FXML private Label error;
    @FXML private GridPane changes;
    @FXML private ProgressIndicator busy;
    @FXML private Button deleteAnyway;
    @FXML private Button keep;
    // @formatter:on

    private DeleteConflictDialog(Window owner, DeleteConflictViewModel viewModel) {
        this.viewModel = viewModel;
        FXMLLoader loader = new FXMLLoader(DeleteConflictDialog.class.getResource("DeleteConflictDialog.fxml"),
                Texts.bundle());
        loader.setController(this);
        Parent root;
        try {
            root = loader.load();
        } catch (IOException e) {
            throw new UncheckedIOException("DeleteConflictDialog.fxml is missing or broken", e);
        }
        Scene scene = new Scene(root);
        Themes.ensureInstalled();
        scene.getStylesheets().add(DeleteConflictDialog.class.getResource("DeleteConflictDialog.css").toExternalForm());
        scene.addEventFilter(KeyEvent.KEY_PRESSED, e -> {
            if (e.getCode() == KeyCode.ESCAPE) {
                e.consume();
                viewModel.keep();
            }
        });
        stage.initOwner(owner);
        stage.initModality(Modality.WINDOW_MODAL);
        stage.setScene(scene);
        Rectangle2D screen = Screen.getPrimary().getVisualBounds();
        stage.setWidth(Math.min(1000, screen.getWidth() - 20));
        stage.setHeight(Math.min(700, screen.getHeight() - 20));
        stage.setOnCloseRequest(e -> viewModel.keep());
        bind();
    }

    /**
     * Opens the dialog over the editor's window and returns at once; the view model's listeners report the choice.
     *
     * @param owner     the editor's window; the dialog is modal to it
     * @param viewModel the delete conflict to show
     */
    public static DeleteConflictDialog open(Window owner, DeleteConflictViewModel viewModel) {
        DeleteConflictDialog dialog = new DeleteConflictDialog(owner, viewModel);
        dialog.stage.show();
        dialog.keep.requestFocus();
        return dialog;
    }

    /** The dialog's window. */
    public Stage stage() {
        return stage;
    }

    private void bind() {
        stage.setTitle(viewModel.windowTitle());
        title.textProperty().bind(viewModel.titleProperty());
        historySummary.textProperty().bind(viewModel.historySummaryProperty());
        showWhenSet(notice, viewModel.noticeProperty());
        showWhenSet(error, viewModel.errorProperty());
        busy.visibleProperty().bind(viewModel.busyProperty());
        deleteAnyway.disableProperty().bind(viewModel.busyProperty());
        for (double percent : new double[]{16, 42, 42}) {
            ColumnConstraints c = new ColumnConstraints();
            c.setPercentWidth(percent);
            c.setHgrow(Priority.ALWAYS);
            changes.getColumnConstraints().add(c);
        }
        viewModel.changes().addListener((ListChangeListener<FieldChange>) c -> showChanges());
        viewModel.finishedProperty().addListener((obs, was, now) -> {
            if (now) {
                stage.close();
            }
        });
        showChanges();
    }

    private static void showWhenSet(Label label, ObservableStringValue text) {
        label.textProperty().bind(text);
        label.visibleProperty().bind(Bindings.isNotEmpty(text));
        label.managedProperty().bind(label.visibleProperty());
    }

    private void showChanges() {
        changes.getChildren().clear();
        changes.addRow(0, heading(tr("Field")), heading(viewModel.beforeHeadingProperty().get()),
                heading(viewModel.afterHeadingProperty().get()));
        int r = 1;
        for (FieldChange change : viewModel.changes()) {
            boolean multi = change.field().multiLine();
            int rows = Math.min(ValueCells.MAX_ROWS, Math.max(ValueCells.lines(change.before()),
                    ValueCells.lines(change.after())));
            Label name = new Label(change.field().label());
            name.getStyleClass().add("field-name");
            name.setId("change-" + change.field().column());
            Node before = ValueCells.value(change.before(), multi, rows, tr("When you loaded it: {0}",
                    change.field().label()));
            Node after = ValueCells.value(change.after(), multi, rows, tr("Now: {0}", change.field().label()));
            changes.addRow(r++, name, before, after);
            for (Node n : new Node[]{name, before, after}) {
                GridPane.setValignment(n, VPos.TOP);
            }
        }
    }

    private static Label heading(String text) {
        Label l = new Label(text);
        l.getStyleClass().add("heading");
        l.setWrapText(true);
        return l;
    }

    @FXML
    private void deleteAnyway() {
        viewModel.deleteAnyway();
    }

    @FXML
    private void keep() {
        viewModel.keep();
    }
}
