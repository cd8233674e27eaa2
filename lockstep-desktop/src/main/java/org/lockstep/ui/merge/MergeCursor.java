package org.lockstep.ui.merge;

import java.util.List;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.collections.ObservableList;

/**
 * The merge dialog's current row — where focus is, or where F7 went — and the moves between conflicts that act on
 * it (F7, Shift+F7, Alt+M, Alt+T). Confined to the FX thread.
 */
public final class MergeCursor {

    private final ObservableList<MergeRowViewModel> visibleRows;
    private final ReadOnlyObjectWrapper<MergeRowViewModel> current = new ReadOnlyObjectWrapper<>(this, "current");

    MergeCursor(ObservableList<MergeRowViewModel> visibleRows) {
        this.visibleRows = visibleRows;
    }

    /** The row the operator works on, or {@code null} before focus entered a row. */
    public ReadOnlyObjectProperty<MergeRowViewModel> currentProperty() {
        return current.getReadOnlyProperty();
    }

    /** Makes a row the current one (the view calls this when focus enters a row); {@code null}: none. */
    public void setCurrent(MergeRowViewModel row) {
        current.set(row);
    }

    /**
     * F7: moves to the next conflict after the current row among the rows shown, wrapping around.
     *
     * @return whether there was a conflict to go to
     */
    public boolean nextConflict() {
        return moveToConflict(1);
    }

    /** Shift+F7: moves to the previous conflict, wrapping around; whether there was one. */
    public boolean previousConflict() {
        return moveToConflict(-1);
    }

    /** Alt+M: Use mine on the current row, when it conflicts. */
    public void useMine() {
        MergeRowViewModel row = current.get();
        if (row != null && row.isConflict()) {
            row.useMine();
        }
    }

    /** Alt+T: Use theirs on the current row, when it conflicts. */
    public void useTheirs() {
        MergeRowViewModel row = current.get();
        if (row != null && row.isConflict()) {
            row.useTheirs();
        }
    }

    private boolean moveToConflict(int step) {
        List<MergeRowViewModel> list = List.copyOf(visibleRows);
        int n = list.size();
        int from = current.get() == null ? (step > 0 ? -1 : n) : list.indexOf(current.get());
        for (int k = 1; k <= n; k++) {
            int i = Math.floorMod(from + k * step, n);
            if (list.get(i).isConflict()) {
                current.set(list.get(i));
                return true;
            }
        }
        return false;
    }
}
