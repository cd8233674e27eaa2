package org.lockstep.ui;

import java.util.stream.Stream;
import javafx.application.Platform;
import javafx.collections.ListChangeListener;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableColumnBase;
import javafx.scene.control.TableView;
import javafx.scene.control.skin.TableColumnHeader;
import javafx.scene.text.Font;
import javafx.scene.text.Text;

/**
 * Table columns as wide as what they show: the width of the widest text among the header and the given cells, in
 * the table's font, plus the cell's padding.
 */
public final class ColumnWidths {

    /** A cell's left and right padding plus room for the sort arrow in the header, in pixels. */
    static final double PADDING = 24;
    /** Room for a header's sort arrow, in pixels. */
    static final double SORT_ARROW = 12;

    private ColumnWidths() {
    }

    /** The width of {@code text} in {@code font}, in pixels. */
    public static double textWidth(String text, Font font) {
        Text measure = new Text(text == null ? "" : text);
        measure.setFont(font);
        return Math.ceil(measure.getLayoutBounds().getWidth());
    }

    /**
     * The width a column needs to show its header and each of {@code texts} in full, between {@code min} and
     * {@code max} pixels.
     */
    public static double fitting(TableColumn<?, ?> column, Stream<String> texts, double min, double max) {
        Font font = Font.getDefault();
        double widest = Stream.concat(Stream.of(column.getText()), texts)
                .mapToDouble(t -> textWidth(t, font)).max().orElse(0);
        return Math.max(min, Math.min(max, widest + PADDING));
    }

    /**
     * Keeps the column at least as wide as {@code sample} (e.g. the longest date and time it shows) and its header,
     * so that a narrow table cuts the other columns instead.
     */
    public static void atLeast(TableColumn<?, ?> column, String sample) {
        double width = fitting(column, Stream.of(sample), 0, Double.MAX_VALUE);
        column.setMinWidth(width);
        column.setPrefWidth(Math.max(column.getPrefWidth(), width));
    }

    /**
     * Keeps every column of {@code table} at least as wide as its header shows its name, in the font and padding the
     * theme gives it, so that a longer word in another language (issue 16) or a narrow window squeezes the data, never
     * the header to "Vers…". Measured again whenever the table is resized or shows other columns.
     */
    public static void keepHeadersWhole(TableView<?> table) {
        table.widthProperty().addListener((o, was, now) -> measureHeaders(table));
        // A column's width is first set by the layout that made its header: measuring then finds the header, where a
        // table whose width was settled before its skin made the headers found none and never measured again.
        javafx.beans.InvalidationListener onColumnWidth = o -> measureHeaders(table);
        table.getVisibleLeafColumns().forEach(c -> c.widthProperty().addListener(onColumnWidth));
        table.getVisibleLeafColumns().addListener((ListChangeListener<TableColumn<?, ?>>) change -> {
            while (change.next()) {
                change.getAddedSubList().forEach(c -> c.widthProperty().addListener(onColumnWidth));
                change.getRemoved().forEach(c -> c.widthProperty().removeListener(onColumnWidth));
            }
            Platform.runLater(() -> measureHeaders(table));
        });
    }

    private static void measureHeaders(TableView<?> table) {
        for (Node node : table.lookupAll(".column-header")) {
            if (node instanceof TableColumnHeader header && header.getTableColumn() != null
                    && header.getTableColumn().isResizable() && header.getTableColumn().getColumns().isEmpty()
                    && header.lookup(".label") instanceof Label label) {
                keepWhole(header.getTableColumn(), label);
            }
        }
    }

    /**
     * Widens {@code column} to its header's label now, and again whenever the label's font or text changes: the
     * first measure may come before the theme's stylesheet gave the header its font (a run found "Cou…").
     */
    private static void keepWhole(TableColumnBase<?, ?> column, Label label) {
        if (label.getProperties().putIfAbsent(ColumnWidths.class, Boolean.TRUE) == null) {
            label.fontProperty().addListener(o -> keepWhole(column, label));
            label.textProperty().addListener(o -> keepWhole(column, label));
        }
        if (label.getText() == null || label.getText().isEmpty()) {
            return;
        }
        double needed = Math.ceil(label.prefWidth(-1)) + SORT_ARROW;
        if (column.getMinWidth() < needed) {
            column.setMinWidth(needed);
        }
    }
}
