package org.lockstep.ui.merge;

import static org.lockstep.text.Texts.tr;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.IdentityHashMap;
import java.util.Map;
import javafx.beans.binding.Bindings;
import javafx.beans.value.ObservableStringValue;
import javafx.collections.ListChangeListener;
import javafx.fxml.FXML;
import javafx.fxml.FXMLLoader;
import javafx.geometry.Bounds;
import javafx.geometry.Insets;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressIndicator;
import javafx.scene.control.ScrollPane;
import javafx.scene.input.ClipboardContent;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyCodeCombination;
import javafx.scene.input.KeyCombination;
import javafx.scene.input.KeyEvent;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.VBox;
import javafx.stage.Modality;
import javafx.stage.Stage;
import org.lockstep.text.Texts;
import org.lockstep.ui.WindowPlaces;
import javafx.stage.Window;
import org.lockstep.ui.theme.Themes;

/**
 * The merge dialog: a modal window owned by the editor's window, showing a {@link MergeViewModel}. It binds and
 * forwards; the view model decides. Keys: F7 / Shift+F7 next / previous conflict (focus goes to its Result), Alt+M
 * use mine and Alt+T use theirs on the conflict in focus, Ctrl+S save merged, Esc back to the editor with mine
 * intact. Closes itself when the view model finishes.
 */
public final class MergeDialog {

    private static final KeyCombination USE_MINE = new KeyCodeCombination(KeyCode.M, KeyCombination.ALT_DOWN);
    private static final KeyCombination USE_THEIRS = new KeyCodeCombination(KeyCode.T, KeyCombination.ALT_DOWN);
    private static final KeyCombination SAVE = new KeyCodeCombination(KeyCode.S, KeyCombination.SHORTCUT_DOWN);

    private final MergeViewModel viewModel;
    /** The first width of the dialog, in pixels, where the screen has room. */
    static final double WIDTH = 1240;
    /** The first height in pixels. */
    static final double HEIGHT = 780;

    private final Stage stage = new Stage();
    private final IdentityHashMap<MergeRowViewModel, MergeRowView> rowViews = new IdentityHashMap<>();
    private boolean refocus;

    // The injected controls, one per line as the FXML lists their ids (kept so by the formatter tags).
    // @formatter:off
    @FXML private Label title;
    @FXML private Label historySummary;
    @FXML private Label notice;
    @FXML private Label error;
    @FXML private GridPane headings;
    @FXML private Label baseHeading;
    @FXML private Label mineHeading;
    @FXML private Label theirsHeading;
    @FXML private Label resultHeading;
    @FXML private ScrollPane scroll;
    @FXML private VBox rowsBox;
    @FXML private Label problems;
    @FXML private Label progress;
    @FXML private CheckBox showAll;
    @FXML private Button useMineForAll;
    @FXML private Button useTheirsForAll;
    @FXML private ProgressIndicator busy;
    @FXML private Button discard;
    @FXML private Button recreate;
    @FXML private Button saveMerged;
    // @formatter:on

    private MergeDialog(Window owner, MergeViewModel viewModel) {
        this.viewModel = viewModel;
        FXMLLoader loader = new FXMLLoader(MergeDialog.class.getResource("MergeDialog.fxml"), Texts.bundle());
        loader.setController(this);
        Parent root;
        try {
            root = loader.load();
        } catch (IOException e) {
            throw new UncheckedIOException("MergeDialog.fxml is missing or broken", e);
        }
        Scene scene = new Scene(root);
        Themes.ensureInstalled();
        scene.getStylesheets().add(MergeDialog.class.getResource("MergeDialog.css").toExternalForm());
        scene.addEventFilter(KeyEvent.KEY_PRESSED, this::keys);
        scene.focusOwnerProperty().addListener((obs, was, now) -> viewModel.cursor().setCurrent(rowOf(now)));
        stage.initOwner(owner);
        stage.initModality(Modality.WINDOW_MODAL);
        stage.setScene(scene);
        stage.setOnCloseRequest(e -> viewModel.cancel());
        bind();
    }

    /**
     * Opens the dialog over the editor's window and returns at once; the view model's listeners report how it ended.
     *
     * @param owner     the editor's window; the dialog is modal to it
     * @param viewModel the merge to show
     */
    public static MergeDialog open(Window owner, MergeViewModel viewModel) {
        return open(owner, viewModel, WindowPlaces.none());
    }

    /**
     * As {@link #open(Window, MergeViewModel)}, where the operator last left the dialog when that still fits a screen
     * ({@code places}), or else at most {@value #WIDTH} × {@value #HEIGHT} px, centred on the owner's screen.
     */
    public static MergeDialog open(Window owner, MergeViewModel viewModel, WindowPlaces places) {
        MergeDialog dialog = new MergeDialog(owner, viewModel);
        places.show(dialog.stage, "merge", owner, 0, WIDTH, HEIGHT);
        dialog.focusFirst();
        return dialog;
    }

    /** The dialog's window. */
    public Stage stage() {
        return stage;
    }

    private void bind() {
        stage.titleProperty().bind(Bindings.createStringBinding(viewModel::windowTitle, viewModel.deletedProperty()));
        title.textProperty().bind(viewModel.titleProperty());
        historySummary.textProperty().bind(viewModel.historySummaryProperty());
        showWhenSet(notice, viewModel.noticeProperty());
        showWhenSet(error, viewModel.errorProperty());
        showWhenSet(problems, viewModel.problemsProperty());
        baseHeading.textProperty().bind(viewModel.headings().baseHeadingProperty());
        mineHeading.textProperty().bind(viewModel.headings().mineHeadingProperty());
        theirsHeading.textProperty().bind(viewModel.headings().theirsHeadingProperty());
        resultHeading.textProperty().bind(viewModel.headings().resultHeadingProperty());
        MergeRowView.columns(headings);
        // Line the headings up with the rows, which are narrower by the scroll bar.
        headings.paddingProperty().bind(Bindings.createObjectBinding(() -> new Insets(0,
                scroll.getWidth() - scroll.getViewportBounds().getWidth(), 0, 0),
                scroll.widthProperty(), scroll.viewportBoundsProperty()));

        progress.textProperty().bind(viewModel.progressProperty());
        showAll.selectedProperty().bindBidirectional(viewModel.showAllProperty());
        var merging = viewModel.deletedProperty().not();
        var noneOpen = viewModel.resolvedProperty().isEqualTo(viewModel.conflictsProperty());
        for (Node n : new Node[]{progress, useMineForAll, useTheirsForAll, saveMerged}) {
            n.visibleProperty().bind(merging);
            n.managedProperty().bind(merging);
        }
        recreate.visibleProperty().bind(viewModel.deletedProperty());
        recreate.managedProperty().bind(viewModel.deletedProperty());
        useMineForAll.disableProperty().bind(noneOpen.or(viewModel.busyProperty()));
        useTheirsForAll.disableProperty().bind(noneOpen.or(viewModel.busyProperty()));
        saveMerged.disableProperty().bind(viewModel.canSaveProperty().not());
        recreate.disableProperty().bind(viewModel.canRecreateProperty().not());
        discard.textProperty().bind(Bindings.when(viewModel.deletedProperty()).then(tr("_Discard"))
                .otherwise(tr("_Discard my changes")));
        discard.disableProperty().bind(viewModel.busyProperty());
        busy.visibleProperty().bind(viewModel.busyProperty());
        // While a save runs the Result must not change: what was sent is what a refresh shows as mine.
        rowsBox.disableProperty().bind(viewModel.busyProperty());

        // A refresh replaces every row: forget their views, and once the new rows show, focus the first conflict.
        viewModel.rows().addListener((ListChangeListener<MergeRowViewModel>) c -> {
            rowViews.clear();
            refocus = true;
        });
        viewModel.visibleRows().addListener((ListChangeListener<MergeRowViewModel>) c -> {
            showRows();
            if (refocus) {
                refocus = false;
                focusFirst();
            }
        });
        viewModel.finishedProperty().addListener((obs, was, now) -> {
            if (now) {
                stage.close();
            }
        });
        showRows();
    }

    private static void showWhenSet(Label label, ObservableStringValue text) {
        label.textProperty().bind(text);
        label.visibleProperty().bind(Bindings.isNotEmpty(text));
        label.managedProperty().bind(label.visibleProperty());
    }

    private void showRows() {
        rowsBox.getChildren().setAll(viewModel.visibleRows().stream().map(r -> view(r).node()).toList());
    }

    private MergeRowView view(MergeRowViewModel row) {
        return rowViews.computeIfAbsent(row, r -> new MergeRowView(r, viewModel.deletedProperty().get()));
    }

    private void keys(KeyEvent e) {
        if (e.getCode() == KeyCode.F7) {
            boolean moved = e.isShiftDown() ? viewModel.cursor().previousConflict() : viewModel.cursor().nextConflict();
            if (moved) {
                focus(viewModel.cursor().currentProperty().get());
            }
        } else if (e.getCode() == KeyCode.ESCAPE) {
            viewModel.cancel();
        } else if (USE_MINE.match(e)) {
            viewModel.cursor().useMine();
        } else if (USE_THEIRS.match(e)) {
            viewModel.cursor().useTheirs();
        } else if (SAVE.match(e)) {
            viewModel.saveMerged();
        } else {
            return;
        }
        e.consume();
    }

    /** Focus on the first conflict's Result, else on the main action. */
    private void focusFirst() {
        viewModel.cursor().setCurrent(null);
        if (viewModel.cursor().nextConflict()) {
            focus(viewModel.cursor().currentProperty().get());
        } else if (viewModel.deletedProperty().get()) {
            recreate.requestFocus();
        } else {
            saveMerged.requestFocus();
        }
    }

    private void focus(MergeRowViewModel row) {
        MergeRowView view = view(row);
        view.result().requestFocus();
        scrollIntoView(view.node());
    }

    private void scrollIntoView(Node node) {
        rowsBox.applyCss();
        rowsBox.layout();
        Bounds b = node.getBoundsInParent();
        double content = rowsBox.getHeight();
        double viewport = scroll.getViewportBounds().getHeight();
        if (content <= viewport) {
            return;
        }
        double top = scroll.getVvalue() * (content - viewport);
        if (b.getMinY() < top || b.getMaxY() > top + viewport) {
            scroll.setVvalue(Math.max(0, Math.min(1, b.getMinY() / (content - viewport))));
        }
    }

    private static MergeRowViewModel rowOf(Node node) {
        for (Node n = node; n != null; n = n.getParent()) {
            Object row = n.getProperties().get(MergeRowView.ROW_KEY);
            if (row instanceof MergeRowViewModel r) {
                return r;
            }
        }
        return null;
    }

    @FXML
    private void useMineForAll() {
        viewModel.useMineForAll();
    }

    @FXML
    private void useTheirsForAll() {
        viewModel.useTheirsForAll();
    }

    @FXML
    private void copyMine() {
        ClipboardContent content = new ClipboardContent();
        content.putString(viewModel.mineAsText());
        javafx.scene.input.Clipboard.getSystemClipboard().setContent(content);
    }

    @FXML
    private void discard() {
        viewModel.discardMyChanges();
    }

    @FXML
    private void back() {
        viewModel.cancel();
    }

    @FXML
    private void recreate() {
        viewModel.recreate();
    }

    @FXML
    private void saveMerged() {
        viewModel.saveMerged();
    }
}
