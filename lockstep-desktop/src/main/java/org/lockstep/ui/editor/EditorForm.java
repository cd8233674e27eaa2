package org.lockstep.ui.editor;

import static org.lockstep.text.Texts.tr;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javafx.animation.PauseTransition;
import javafx.css.PseudoClass;
import javafx.geometry.VPos;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.scene.control.Label;
import javafx.scene.control.TextArea;
import javafx.scene.control.TextField;
import javafx.scene.control.TextFormatter;
import javafx.scene.control.TextInputControl;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.VBox;
import javafx.util.Duration;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.LineRule;

/**
 * Lays out one labelled control per {@link CustomerField} in the editor's grid and binds each to the view model:
 * contact details on the left, the address on the right, notes across the bottom. A control's id is the field's
 * column name ({@code #email}); its error line's id adds {@code -error}, its warning line's {@code -warning} (a rule
 * the stored value breaks though the operator left it alone: shown, but it does not block Save).
 */
final class EditorForm {

    private static final PseudoClass INVALID = PseudoClass.getPseudoClass("invalid");
    private static final PseudoClass CHANGED = PseudoClass.getPseudoClass("changed");
    /** How long a field another operator just changed stays highlighted. */
    static final Duration HIGHLIGHT = Duration.seconds(2);
    /** How long the note "Line breaks became spaces" stays under a field after a paste. */
    static final Duration NOTE = Duration.seconds(4);
    /** In reading order: the two columns left first, then right (focus order follows), then notes. */
    private static final List<CustomerField> LEFT = List.of(CustomerField.COMPANY, CustomerField.CONTACT_NAME,
            CustomerField.CONTACT_TITLE, CustomerField.EMAIL, CustomerField.PHONE, CustomerField.FAX,
            CustomerField.CREDIT_LIMIT, CustomerField.EXTERNAL_REF);
    private static final List<CustomerField> RIGHT = List.of(CustomerField.ADDRESS, CustomerField.CITY,
            CustomerField.REGION, CustomerField.POSTAL_CODE, CustomerField.COUNTRY);
    private static final List<CustomerField> WIDE = List.of(CustomerField.NOTES);

    /**
     * From this width on (pixels) the fields stand in two columns, below it in one: two columns in a narrower editor
     * gave each field ~125 px, and "François Tremblay" or an email address was cut.
     */
    static final double TWO_COLUMNS_FROM = 700;
    /** Back to one column only below this width, so that a scroll bar coming and going does not flip the layout. */
    static final double ONE_COLUMN_BELOW = 660;

    private final Map<CustomerField, TextInputControl> controls = new EnumMap<>(CustomerField.class);
    private final Map<CustomerField, Label> labels = new EnumMap<>(CustomerField.class);
    private final Map<CustomerField, VBox> cells = new EnumMap<>(CustomerField.class);
    private final PauseTransition highlightEnds = new PauseTransition(HIGHLIGHT);
    private boolean twoColumns = true;
    private final GridPane grid;
    private final EditBuffer buffer;
    private final ReadOnlyBooleanProperty editable;

    /**
     * @param buffer   the edits each control is bound to
     * @param editable whether the fields take edits now (errors and warnings show only then)
     */
    EditorForm(GridPane grid, EditBuffer buffer, ReadOnlyBooleanProperty editable) {
        this.grid = grid;
        this.buffer = buffer;
        this.editable = editable;
        // Children in reading order: Tab moves down the left column, then the right one, then to the notes.
        java.util.stream.Stream.of(LEFT, RIGHT, WIDE).flatMap(List::stream).forEach(f -> add(grid, f));
        layOut(true);
        grid.widthProperty().addListener((obs, was, now) -> {
            double width = now.doubleValue();
            if (width > 0 && (twoColumns ? width < ONE_COLUMN_BELOW : width >= TWO_COLUMNS_FROM)) {
                layOut(!twoColumns);
            }
        });
    }

    /** Puts the keyboard in the first field in reading order (the company). */
    void focusFirst() {
        controls.get(LEFT.get(0)).requestFocus();
    }

    /** Whether the fields stand in two columns now. */
    boolean twoColumns() {
        return twoColumns;
    }

    /**
     * Puts contact details on the left and the address on the right ({@code two}), or all of them one under the other
     * in the same order, the notes last either way. Focus order follows: the grid's children are in reading order.
     */
    private void layOut(boolean two) {
        twoColumns = two;
        // In one column the right control column holds no field of its own: its minimum (120 px) only widened the
        // form past the narrow editor beside the list, which then scrolled sideways with every field cut.
        if (grid.getColumnConstraints().size() == 4) {
            grid.getColumnConstraints().get(3).setMinWidth(two ? 120 : 0);
        }
        int row = 0;
        for (CustomerField field : LEFT) {
            put(field, 0, row++, two ? 1 : 3);
        }
        int right = two ? 0 : row;
        for (CustomerField field : RIGHT) {
            put(field, two ? 2 : 0, right++, two ? 1 : 3);
        }
        row = Math.max(row, right);
        for (CustomerField field : WIDE) {
            put(field, 0, row++, 3);
        }
    }

    private void put(CustomerField field, int column, int row, int span) {
        GridPane.setConstraints(labels.get(field), column, row);
        GridPane.setConstraints(cells.get(field), column + 1, row, span, 1);
    }

    /** Marks the controls of {@code changed} with {@code :changed} for {@link #HIGHLIGHT}, then clears the mark. */
    void highlight(Set<CustomerField> changed) {
        highlightEnds.stop();
        controls.forEach((field, control) -> control.pseudoClassStateChanged(CHANGED, changed.contains(field)));
        highlightEnds.setOnFinished(e -> controls.values().forEach(c -> c.pseudoClassStateChanged(CHANGED, false)));
        highlightEnds.playFromStart();
    }

    /**
     * Pushes every control's text into the edit buffer: a value still being typed is saved too. A control whose text
     * is only the buffer's value as the control can show it is left alone: JavaFX drops control characters from
     * a text control's content, so a value another tool stored with one (a warning under the field) would otherwise
     * be rewritten without them though the operator never touched it.
     */
    void commit() {
        controls.forEach((field, control) -> {
            String mine = buffer.text(field).get();
            if (!control.getText().equals(shownAs(mine, control instanceof TextArea))) {
                buffer.text(field).set(control.getText());
            }
        });
    }

    /**
     * The text a control shows for {@code text}: what JavaFX's {@code TextInputControl.filterInput} keeps, i.e.
     * without DEL and C0 control characters, except line breaks and tabs in a text area.
     */
    static String shownAs(String text, boolean area) {
        if (text == null) {
            return "";
        }
        StringBuilder shown = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean kept = (c == '\n' || c == '\t') ? area : (c >= 0x20 && c != 0x7f);
            if (kept) {
                shown.append(c);
            }
        }
        return shown.toString();
    }

    private void add(GridPane grid, CustomerField field) {
        TextInputControl control = control(field);
        control.setId(EditorIds.field(field));
        control.textProperty().bindBidirectional(buffer.text(field));
        control.editableProperty().bind(editable);
        controls.put(field, control);

        Label error = new Label();
        error.setId(EditorIds.fieldError(field));
        error.getStyleClass().add("field-error");
        error.setWrapText(true);
        error.textProperty().bind(buffer.error(field));
        // Only where the operator can act on it: not on the blank form shown before anything is selected.
        error.visibleProperty().bind(buffer.error(field).isNotNull()
                .and(editable));
        error.managedProperty().bind(error.visibleProperty());
        error.visibleProperty().addListener((obs, was, shown) -> control.pseudoClassStateChanged(INVALID, shown));
        control.pseudoClassStateChanged(INVALID, error.isVisible());

        Label warning = new Label();
        warning.setId(EditorIds.fieldWarning(field));
        warning.getStyleClass().add("field-warning");
        warning.setWrapText(true);
        warning.textProperty().bind(buffer.warning(field));
        warning.visibleProperty().bind(buffer.warning(field).isNotNull()
                .and(editable));
        warning.managedProperty().bind(warning.visibleProperty());

        Label label = new Label(field.label());
        label.getStyleClass().add("field-label");
        label.setLabelFor(control);
        GridPane.setValignment(label, VPos.TOP);
        VBox cell = new VBox(2, control, error, warning);
        if (control instanceof TextField line) {
            cell.getChildren().add(oneLine(field, line));
        }
        labels.put(field, label);
        cells.put(field, cell);
        grid.getChildren().addAll(label, cell);
    }

    /**
     * Folds what is typed or pasted into a one-line field with the domain's {@link LineRule#toOneLine}, and says so
     * under the field for a moment. Without it JavaFX's text field silently drops line breaks and tabs, so "Maria⏎da
     * Silva" was saved as "Mariada Silva" while the command line refuses the same value.
     */
    private static Label oneLine(CustomerField field, TextField line) {
        Label note = new Label(tr("Line breaks became spaces"));
        note.setId(EditorIds.fieldNote(field));
        note.getStyleClass().add("field-note");
        note.setVisible(false);
        note.managedProperty().bind(note.visibleProperty());
        PauseTransition hide = new PauseTransition(NOTE);
        hide.setOnFinished(e -> note.setVisible(false));
        line.setTextFormatter(new TextFormatter<String>(change -> {
            if (change.isContentChange() && LineRule.hasBreaks(change.getText())) {
                change.setText(LineRule.toOneLine(change.getText()));
                note.setVisible(true);
                hide.playFromStart();
            }
            return change;
        }));
        return note;
    }

    private static TextInputControl control(CustomerField field) {
        // Equal preferred widths, so that the two control columns share the window's width evenly.
        if (!field.multiLine()) {
            TextField text = new TextField();
            text.setPrefColumnCount(10);
            return text;
        }
        TextArea area = new TextArea();
        area.setPrefColumnCount(10);
        area.setWrapText(true);
        area.setPrefRowCount(field == CustomerField.NOTES ? 5 : 3);
        return area;
    }
}
