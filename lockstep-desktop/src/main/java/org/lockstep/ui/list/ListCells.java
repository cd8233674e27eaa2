package org.lockstep.ui.list;

import static org.lockstep.text.Texts.tr;

import java.util.List;
import java.util.stream.Collectors;
import javafx.scene.AccessibleRole;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.Tooltip;
import org.lockstep.domain.Customer;
import org.lockstep.domain.Presence;
import org.lockstep.ui.theme.Icons;

/**
 * The list's two icon columns, Lock and Here: {@value #ICON_COLUMN_WIDTH} px wide, an icon in the header, and in each
 * cell an icon or badge whose tooltip and accessible text say who holds the lock or who is here (a screen reader has
 * nothing else to read in them).
 */
final class ListCells {

    /** The width of an icon column, in pixels. */
    static final double ICON_COLUMN_WIDTH = 30;

    private ListCells() {
    }

    /** Fixes {@code column} at {@link #ICON_COLUMN_WIDTH}. */
    static void fixed(TableColumn<?, ?> column) {
        column.setMinWidth(ICON_COLUMN_WIDTH);
        column.setPrefWidth(ICON_COLUMN_WIDTH);
        column.setMaxWidth(ICON_COLUMN_WIDTH);
        column.setResizable(false);
        column.setReorderable(false);
        column.getStyleClass().add("icon-column");
    }

    /** A column header's graphic: {@code icon}, with {@code what} as its tooltip and accessible text. */
    static Node header(Node icon, String what) {
        Label header = new Label();
        header.setGraphic(icon);
        header.setTooltip(new Tooltip(what));
        header.setAccessibleText(what);
        return header;
    }

    /** A padlock where someone holds a lock for editing; the holder in the tooltip and the accessible text. */
    static final class LockCell extends TableCell<Customer, String> {
        LockCell() {
            setAccessibleRole(AccessibleRole.TEXT);
        }

        @Override
        protected void updateItem(String holder, boolean empty) {
            super.updateItem(holder, empty);
            setText(null);
            if (empty || holder == null || holder.isEmpty()) {
                setGraphic(null);
                setTooltip(null);
                setAccessibleText(null);
                return;
            }
            String says = tr("{0} is editing this customer (locked for editing)", holder);
            Node padlock = Icons.padlock();
            padlock.getStyleClass().add("padlock"); // the palette's "locked" colour (CustomerListView.css)
            setGraphic(padlock);
            setTooltip(new Tooltip(says));
            setAccessibleText(says);
        }
    }

    /**
     * A badge with the initials of the other operator who has the customer open ("AL"), or how many have it open,
     * filled while one of them is editing.
     */
    static final class PresenceCell extends TableCell<Customer, List<Presence>> {
        PresenceCell() {
            setAccessibleRole(AccessibleRole.TEXT);
        }

        @Override
        protected void updateItem(List<Presence> here, boolean empty) {
            super.updateItem(here, empty);
            if (empty || here == null || here.isEmpty()) {
                setGraphic(null);
                setTooltip(null);
                setAccessibleText(null);
                return;
            }
            Label badge = new Label(here.size() == 1 ? here.get(0).initials() : Integer.toString(here.size()));
            badge.getStyleClass().add("presence-badge");
            if (here.stream().anyMatch(Presence::editing)) {
                badge.getStyleClass().add("editing");
            }
            setGraphic(badge);
            String says = tr("{0, plural, one {{1} has this customer open} other {{1} have this customer open}}",
                    here.size(), here.stream().map(Presence::describe).collect(Collectors.joining(", ")));
            setTooltip(new Tooltip(says));
            setAccessibleText(says);
        }
    }
}
