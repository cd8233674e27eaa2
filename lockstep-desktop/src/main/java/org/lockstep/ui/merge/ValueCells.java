package org.lockstep.ui.merge;

import static org.lockstep.text.Texts.tr;

import javafx.event.Event;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.control.TextArea;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyEvent;

/**
 * The read-only cells of the merge and delete-conflict dialogs, and the keyboard rule for their text areas. A value
 * is a wrapping label, or for multi-line text a read-only text area with a sensible number of rows (scrollable by
 * keyboard, so reachable without a mouse); an absent value reads "(empty)".
 */
final class ValueCells {

    /** Text areas never grow beyond this many rows; longer text scrolls inside its cell. */
    static final int MAX_ROWS = 12;

    private ValueCells() {
    }

    /**
     * A read-only cell for a value.
     *
     * @param text      the value as text; empty when absent
     * @param multiLine whether the field may span lines (address, notes)
     * @param rows      the preferred number of rows of a text area
     * @param name      what a screen reader says, e.g. "Mine: City"
     */
    static Node value(String text, boolean multiLine, int rows, String name) {
        if (text.isEmpty()) {
            Label empty = new Label(tr("(empty)"));
            empty.getStyleClass().add("empty-value");
            empty.setAccessibleText(tr("{0}: empty", name));
            return empty;
        }
        if (multiLine) {
            TextArea area = new TextArea(text);
            area.setEditable(false);
            area.setWrapText(true);
            area.setPrefRowCount(rows);
            area.getStyleClass().add("value-area");
            area.setAccessibleText(name);
            tabMovesFocus(area);
            return area;
        }
        Label label = new Label(text);
        label.setWrapText(true);
        label.getStyleClass().add("value");
        label.setAccessibleText(tr("{0}: {1}", name, text));
        return label;
    }

    /** Lines of text, for sizing a text area: at least 1. */
    static int lines(String text) {
        return text == null || text.isEmpty() ? 1 : (int) text.chars().filter(c -> c == '\n').count() + 1;
    }

    /**
     * Makes Tab and Shift+Tab leave a text area like any other control instead of typing a tab, so that every control
     * stays reachable by keyboard. The area's own behaviour moves focus on Ctrl+Tab, so the key is re-sent as that.
     */
    static void tabMovesFocus(TextArea area) {
        area.addEventFilter(KeyEvent.KEY_PRESSED, e -> {
            if (e.getCode() == KeyCode.TAB && !e.isControlDown() && !e.isAltDown() && !e.isMetaDown()) {
                e.consume();
                KeyEvent asCtrlTab = new KeyEvent(e.getSource(), e.getTarget(), e.getEventType(), e.getCharacter(),
                        e.getText(), e.getCode(), e.isShiftDown(), true, false, false);
                Event.fireEvent(area, asCtrlTab);
            }
        });
    }
}
