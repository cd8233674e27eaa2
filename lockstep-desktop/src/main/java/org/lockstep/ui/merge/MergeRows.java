package org.lockstep.ui.merge;

import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.merge.MergeResult;

/**
 * The merge dialog's rows: one {@link MergeRowViewModel} per field, conflicts first; which of them show; the
 * {@link MergeCursor} that moves between the conflicts shown. Confined to the FX thread.
 */
final class MergeRows {

    private final ObservableList<MergeRowViewModel> rows = FXCollections.observableArrayList();
    private final ObservableList<MergeRowViewModel> visibleRows = FXCollections.observableArrayList();
    // One read-only view each, kept: an unmodifiable list listens to its source only weakly, so a fresh wrapper per
    // call would lose its listeners to the garbage collector.
    final ObservableList<MergeRowViewModel> rowsView = FXCollections.unmodifiableObservableList(rows);
    final ObservableList<MergeRowViewModel> visibleRowsView = FXCollections.unmodifiableObservableList(visibleRows);
    final BooleanProperty showAll = new SimpleBooleanProperty(this, "showAll");
    final MergeCursor cursor = new MergeCursor(visibleRows);

    MergeRows() {
        showAll.addListener((obs, was, now) -> refreshVisible());
    }

    /** Replaces the rows by those of {@code merge}; {@code onChange} runs after any row's Result changes. */
    void show(MergeResult merge, Runnable onChange) {
        List<MergeRowViewModel> built = merge.fields().stream().map(MergeRowViewModel::new)
                .sorted(Comparator.comparingInt(MergeRows::rank)).toList();
        built.forEach(r -> r.setOnChange(onChange));
        cursor.setCurrent(null);
        rows.setAll(built);
    }

    private static int rank(MergeRowViewModel row) {
        return row.isConflict() ? 0 : row.isChanged() ? 1 : 2;
    }

    List<MergeRowViewModel> all() {
        return rows;
    }

    MergeRowViewModel row(CustomerField field) {
        return rows.stream().filter(r -> r.field() == field).findFirst().orElseThrow();
    }

    /**
     * The Result's text of every field; theirs, the stored value, for a conflict not decided yet (its Result is empty
     * until then, and would otherwise be checked as if the operator had cleared the field).
     */
    Map<CustomerField, String> resultTexts() {
        Map<CustomerField, String> texts = new EnumMap<>(CustomerField.class);
        rows.forEach(r -> texts.put(r.field(), r.isResolved() ? r.getResult() : r.theirsText()));
        return texts;
    }

    int conflicts() {
        return (int) rows.stream().filter(MergeRowViewModel::isConflict).count();
    }

    int resolved() {
        return (int) rows.stream().filter(r -> r.isConflict() && r.isResolved()).count();
    }

    /** Shows the changed fields and any invalid or edited one, or every field with {@link #showAll}. */
    void refreshVisible() {
        List<MergeRowViewModel> wanted = rows.stream()
                .filter(r -> showAll.get() || r.isChanged() || !r.getError().isEmpty() || r.editedProperty().get())
                .toList();
        if (!wanted.equals(visibleRows)) {
            visibleRows.setAll(wanted);
        }
    }
}
