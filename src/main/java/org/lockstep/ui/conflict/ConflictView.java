package org.lockstep.ui.conflict;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Locale;
import javafx.fxml.FXML;
import javafx.fxml.FXMLLoader;
import javafx.scene.Parent;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.stage.Modality;
import javafx.stage.Stage;
import javafx.stage.Window;
import org.lockstep.domain.Customer;
import org.lockstep.ui.SaveStamp;

/**
 * Shows a {@link ConflictViewModel}: a header saying who saved which version, then every field with my value beside
 * theirs (the differing ones highlighted), then one button per offered choice. Built from {@code ConflictView.fxml}
 * and styled by {@code ConflictView.css}. Node ids for tests and tools: {@code #mine-<column>},
 * {@code #theirs-<column>}, and a choice's name in kebab case ({@code #overwrite-with-mine}).
 */
public final class ConflictView {

    private final ConflictViewModel viewModel;
    private final Parent root;

    @FXML private Label header;
    @FXML private Label summary;
    @FXML private GridPane rows;
    @FXML private HBox choices;

    /** Builds the view's node. */
    public ConflictView(ConflictViewModel viewModel) {
        this.viewModel = viewModel;
        FXMLLoader loader = new FXMLLoader(ConflictView.class.getResource("ConflictView.fxml"));
        loader.setController(this);
        try {
            root = loader.load();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot load ConflictView.fxml", e);
        }
        root.getStylesheets().add(ConflictView.class.getResource("ConflictView.css").toExternalForm());
    }

    /** The view's node. */
    public Parent root() {
        return root;
    }

    /**
     * Shows the view as a dialog owned by {@code owner}, which it blocks until the operator chooses. Closing the
     * dialog means "Back to my edits". Whoever resolves the conflict closes the returned stage.
     *
     * @param owner the editor's window; {@code null} opens a dialog of its own
     */
    public Stage showOver(Window owner) {
        Stage stage = new Stage();
        if (owner != null) {
            stage.initOwner(owner);
            stage.initModality(Modality.WINDOW_MODAL);
        }
        stage.setTitle("Conflict — Lockstep");
        stage.setScene(new Scene(root, 760, 560));
        stage.setOnCloseRequest(e -> {
            e.consume();
            viewModel.choose(ConflictChoice.BACK_TO_MY_EDITS);
        });
        stage.show();
        return stage;
    }

    /** A choice's node id: its name in kebab case, e.g. {@code overwrite-with-mine}. */
    public static String idOf(ConflictChoice choice) {
        return choice.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    @FXML
    private void initialize() {
        header.setText(viewModel.header());
        summary.setText(summary());
        int row = 0;
        String theirsHead = viewModel.theirs().map(t -> "Theirs — version " + t.version() + " by " + SaveStamp.who(t))
                .orElse("Theirs — deleted");
        addRow(row++, cell("Field", "column-head", null), cell("Mine — not saved", "column-head", null),
                cell(theirsHead, "column-head", null));
        for (ConflictRow r : viewModel.rows()) {
            String style = r.differs() ? "differs" : null;
            addRow(row++, cell(r.field().label(), "field-name", style),
                    cell(r.mine(), "mine", style, "mine-" + r.field().column()),
                    cell(viewModel.deleted() ? "" : r.theirs(), "theirs", style, "theirs-" + r.field().column()));
        }
        for (ConflictChoice choice : viewModel.choices()) {
            Button button = new Button(choice.label());
            button.setId(idOf(choice));
            button.setOnAction(e -> viewModel.choose(choice));
            choices.getChildren().add(button);
        }
    }

    private String summary() {
        if (viewModel.deleted()) {
            return "Your values are below. Save them as a new customer, or discard them.";
        }
        long n = viewModel.differences();
        Customer theirs = viewModel.theirs().orElseThrow();
        return (n == 1 ? "1 field differs" : n + " fields differ") + " between your values and version "
                + theirs.version() + " now in the database. Nothing has been overwritten.";
    }

    private void addRow(int row, Label... cells) {
        for (int c = 0; c < cells.length; c++) {
            rows.add(cells[c], c, row);
        }
    }

    private static Label cell(String text, String styleClass, String extraStyle) {
        return cell(text, styleClass, extraStyle, null);
    }

    private static Label cell(String text, String styleClass, String extraStyle, String id) {
        Label label = new Label(text);
        label.setWrapText(true);
        label.getStyleClass().addAll("cell-text", styleClass);
        if (extraStyle != null) {
            label.getStyleClass().add(extraStyle);
        }
        label.setId(id);
        return label;
    }
}
