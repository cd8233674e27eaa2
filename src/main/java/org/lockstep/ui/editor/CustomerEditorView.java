package org.lockstep.ui.editor;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Optional;
import javafx.fxml.FXML;
import javafx.fxml.FXMLLoader;
import javafx.scene.Parent;
import javafx.scene.control.Alert;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.ButtonType;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressIndicator;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyCodeCombination;
import javafx.scene.input.KeyCombination;
import javafx.scene.input.KeyEvent;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.stage.Stage;
import javafx.stage.Window;
import org.lockstep.ui.conflict.ConflictView;
import org.lockstep.ui.conflict.ConflictViewModel;

/**
 * The customer editor's node, built from {@code CustomerEditorView.fxml} and styled by {@code CustomerEditorView.css}.
 * It binds controls to the {@link CustomerEditorViewModel} and forwards actions; the view model decides. Ctrl+S
 * (Cmd+S on macOS) saves from anywhere inside the editor. A conflict opens the {@link ConflictView} as a dialog
 * owned by the editor's window.
 */
public final class CustomerEditorView {

    private static final KeyCombination SAVE = new KeyCodeCombination(KeyCode.S, KeyCombination.SHORTCUT_DOWN);

    private final CustomerEditorViewModel viewModel;
    private final Parent root;
    private EditorForm form;
    private Stage conflictDialog;

    @FXML private Label nameLabel;
    @FXML private ProgressIndicator busyIndicator;
    @FXML private Label versionLine;
    @FXML private HBox noticeBar;
    @FXML private Label noticeText;
    @FXML private Label noticeDetail;
    @FXML private Button reloadButton;
    @FXML private GridPane fields;
    @FXML private Label saveBlockedReason;
    @FXML private Button deleteButton;
    @FXML private Button revertButton;
    @FXML private Button saveButton;

    /** Builds the editor's node for a view model; the caller loads a record or starts a new one. */
    public CustomerEditorView(CustomerEditorViewModel viewModel) {
        this.viewModel = viewModel;
        FXMLLoader loader = new FXMLLoader(CustomerEditorView.class.getResource("CustomerEditorView.fxml"));
        loader.setController(this);
        try {
            root = loader.load();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot load CustomerEditorView.fxml", e);
        }
        root.getStylesheets().add(CustomerEditorView.class.getResource("CustomerEditorView.css").toExternalForm());
        // A filter, not a handler: it sees Ctrl+S before the focused text control does, wherever the caret is.
        root.addEventFilter(KeyEvent.KEY_PRESSED, e -> {
            if (SAVE.match(e)) {
                e.consume();
                viewModel.save();
            }
        });
    }

    /** The editor's node, to put in a window or a pane. */
    public Parent root() {
        return root;
    }

    /** The view model behind this view. */
    public CustomerEditorViewModel viewModel() {
        return viewModel;
    }

    @FXML
    private void initialize() {
        form = new EditorForm(fields, viewModel);
        viewModel.setControlCommitter(() -> form.commit(viewModel));
        nameLabel.textProperty().bind(viewModel.displayNameProperty());
        versionLine.textProperty().bind(viewModel.versionLineProperty());
        busyIndicator.visibleProperty().bind(viewModel.busyProperty());
        saveBlockedReason.textProperty().bind(viewModel.saveBlockedReasonProperty());
        saveButton.disableProperty().bind(viewModel.canSaveProperty().not());
        revertButton.disableProperty().bind(viewModel.canRevertProperty().not());
        deleteButton.disableProperty().bind(viewModel.canDeleteProperty().not());
        viewModel.noticeProperty().addListener((obs, was, now) -> showNotice(now));
        showNotice(viewModel.noticeProperty().get());
        viewModel.conflictProperty().addListener((obs, was, now) -> showConflict(now));
    }

    private void showNotice(EditorNotice notice) {
        noticeBar.setVisible(notice != null);
        noticeBar.setManaged(notice != null);
        noticeBar.getStyleClass().removeAll("error", "info");
        if (notice == null) {
            return;
        }
        noticeBar.getStyleClass().add(notice.kind() == EditorNotice.Kind.ERROR ? "error" : "info");
        noticeText.setText(notice.text());
        noticeDetail.setText(notice.detail());
        noticeDetail.setVisible(!notice.detail().isEmpty());
        noticeDetail.setManaged(!notice.detail().isEmpty());
        reloadButton.setVisible(notice.offerReload());
        reloadButton.setManaged(notice.offerReload());
    }

    private void showConflict(ConflictViewModel conflict) {
        if (conflictDialog != null) {
            conflictDialog.close();
            conflictDialog = null;
        }
        if (conflict != null) {
            // Without a window (e.g. the editor sits in a tab not shown) the dialog has no owner but still opens:
            // the editor takes no edits until the conflict is resolved, so it must never stay hidden.
            Window owner = root.getScene() == null ? null : root.getScene().getWindow();
            conflictDialog = new ConflictView(conflict).showOver(owner);
        }
    }

    @FXML
    private void save() {
        viewModel.save();
    }

    @FXML
    private void revert() {
        viewModel.revert();
    }

    @FXML
    private void reload() {
        if (!viewModel.dirtyProperty().get()
                || confirm("Reload and drop your unsaved changes?", "Reload", "Keep editing")) {
            viewModel.reload();
        }
    }

    @FXML
    private void delete() {
        if (confirm(viewModel.deleteQuestion(), "Delete", "Cancel")) {
            viewModel.requestDelete();
        }
    }

    private boolean confirm(String question, String yes, String no) {
        ButtonType confirm = new ButtonType(yes, ButtonBar.ButtonData.OK_DONE);
        ButtonType cancel = new ButtonType(no, ButtonBar.ButtonData.CANCEL_CLOSE);
        Alert alert = new Alert(Alert.AlertType.CONFIRMATION, question, confirm, cancel);
        alert.setHeaderText(null);
        alert.setTitle("Lockstep");
        Window owner = root.getScene() == null ? null : root.getScene().getWindow();
        alert.initOwner(owner);
        Optional<ButtonType> answer = alert.showAndWait();
        return answer.isPresent() && answer.get() == confirm;
    }
}
