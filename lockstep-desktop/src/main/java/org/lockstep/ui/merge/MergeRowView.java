package org.lockstep.ui.merge;

import static org.lockstep.text.Texts.tr;

import java.util.stream.Stream;
import javafx.beans.binding.Bindings;
import javafx.css.PseudoClass;
import javafx.geometry.VPos;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.TextArea;
import javafx.scene.control.TextField;
import javafx.scene.control.TextInputControl;
import javafx.scene.layout.ColumnConstraints;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;

/**
 * One field of the merge dialog: Field | Base | Mine | Theirs | Result, then a line per conflict hunk. Binds to a
 * {@link MergeRowViewModel} and forwards the buttons; decides nothing. Children are added in reading order, which
 * is also the Tab order: the values, the Result, Use mine, Use theirs, then each hunk's choices.
 */
final class MergeRowView {

    /** Key of the row view model in the row node's properties, to find the row of a focused control. */
    static final String ROW_KEY = "lockstep.merge.row";

    private static final PseudoClass OPEN_CONFLICT = PseudoClass.getPseudoClass("open-conflict");
    private static final PseudoClass RESOLVED_CONFLICT = PseudoClass.getPseudoClass("resolved-conflict");
    private static final PseudoClass UNCHANGED = PseudoClass.getPseudoClass("unchanged");
    private static final PseudoClass INVALID = PseudoClass.getPseudoClass("invalid");

    private final MergeRowViewModel row;
    private final GridPane grid = new GridPane();
    private final TextInputControl result;

    /**
     * @param row           the field
     * @param theirsDeleted whether the record is gone, so that the Theirs column reads "(deleted)"
     */
    MergeRowView(MergeRowViewModel row, boolean theirsDeleted) {
        this.row = row;
        String id = row.field().column();
        columns(grid);
        grid.getStyleClass().add("merge-row");
        grid.setId("row-" + id);
        grid.getProperties().put(ROW_KEY, row);

        Label name = new Label(row.label());
        name.getStyleClass().add("field-name");
        Label status = new Label();
        status.setId("status-" + id);
        status.getStyleClass().add("status");
        status.setWrapText(true);
        status.textProperty().bind(Bindings.createStringBinding(() -> icon() + row.getStatus(),
                row.statusProperty(), row.resolvedProperty()));
        grid.add(new VBox(4, name, status), 0, 0);

        boolean multi = row.isMultiLine();
        int rows = Math.min(ValueCells.MAX_ROWS, Math.max(multi ? 3 : 1, Stream.of(row.baseText(), row.mineText(),
                row.theirsText(), row.getResult()).mapToInt(ValueCells::lines).max().orElse(1)));
        grid.add(ValueCells.value(row.baseText(), multi, rows, tr("Base: {0}", row.label())), 1, 0);
        grid.add(ValueCells.value(row.mineText(), multi, rows, tr("Mine: {0}", row.label())), 2, 0);
        if (theirsDeleted) {
            Label gone = new Label(tr("(deleted)"));
            gone.getStyleClass().add("empty-value");
            grid.add(gone, 3, 0);
        } else {
            grid.add(ValueCells.value(row.theirsText(), multi, rows, tr("Theirs: {0}", row.label())), 3, 0);
        }

        result = multi ? resultArea(rows) : new TextField();
        result.setId("result-" + id);
        result.getStyleClass().add("result");
        result.setAccessibleText(tr("Result: {0}", row.label()));
        if (row.isConflict()) {
            // Empty until decided (issue 16): the prompt says so where the value will go.
            result.setPromptText(tr("Not decided: use mine, use theirs, or type"));
            result.setAccessibleHelp(
                    tr("Conflict not decided yet: choose Use mine or Use theirs, or type the value"));
        }
        result.textProperty().bindBidirectional(row.resultProperty());
        name.setLabelFor(result);
        Label error = new Label();
        error.setId("error-" + id);
        error.getStyleClass().add("error-text");
        error.setWrapText(true);
        error.textProperty().bind(Bindings.createStringBinding(() -> "✗ " + row.getError(), row.errorProperty()));
        error.visibleProperty().bind(row.errorProperty().isNotEmpty());
        error.managedProperty().bind(error.visibleProperty());
        VBox resultCell = new VBox(4, result, error);
        if (row.isConflict()) {
            Button mine = button(tr("Use mine"), "use-mine-" + id, tr("Use my value (Alt+M)"));
            mine.setOnAction(e -> row.useMine());
            Button theirs = button(tr("Use theirs"), "use-theirs-" + id, tr("Use their value (Alt+T)"));
            theirs.setOnAction(e -> row.useTheirs());
            resultCell.getChildren().add(new HBox(6, mine, theirs));
        }
        grid.add(resultCell, 4, 0);

        for (HunkViewModel hunk : row.hunks()) {
            new HunkView(hunk, row.field()).addTo(grid, hunk.index() + 1);
        }

        grid.getChildren().forEach(n -> GridPane.setValignment(n, VPos.TOP));
        row.resolvedProperty().addListener((obs, was, now) -> style());
        row.errorProperty().addListener((obs, was, now) -> style());
        style();
    }

    /** The row's node. */
    Node node() {
        return grid;
    }

    /** The Result control, where F7 puts the focus. */
    TextInputControl result() {
        return result;
    }

    /**
     * The column widths shared by the rows and the headings, so that they line up: Field, Base, Mine, Theirs,
     * Result, in percent of the width.
     */
    static void columns(GridPane grid) {
        for (double percent : new double[]{12, 20, 20, 20, 28}) {
            ColumnConstraints c = new ColumnConstraints();
            c.setPercentWidth(percent);
            c.setHgrow(Priority.ALWAYS);
            c.setFillWidth(true);
            grid.getColumnConstraints().add(c);
        }
        grid.setHgap(10);
        grid.setVgap(6);
    }

    private TextArea resultArea(int rows) {
        TextArea area = new TextArea();
        area.setWrapText(true);
        area.setPrefRowCount(rows);
        ValueCells.tabMovesFocus(area);
        return area;
    }

    private static Button button(String text, String id, String tooltip) {
        Button b = new Button(text);
        b.setId(id);
        b.setTooltip(new javafx.scene.control.Tooltip(tooltip));
        return b;
    }

    private String icon() {
        if (!row.isConflict()) {
            return "";
        }
        return row.isResolved() ? "✓ " : "⚠ ";
    }

    private void style() {
        grid.pseudoClassStateChanged(OPEN_CONFLICT, row.isConflict() && !row.isResolved());
        grid.pseudoClassStateChanged(RESOLVED_CONFLICT, row.isConflict() && row.isResolved());
        grid.pseudoClassStateChanged(UNCHANGED, !row.isChanged());
        boolean invalid = !row.getError().isEmpty();
        grid.pseudoClassStateChanged(INVALID, invalid);
        result.pseudoClassStateChanged(INVALID, invalid);
    }
}
