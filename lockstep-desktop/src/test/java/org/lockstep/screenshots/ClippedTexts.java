package org.lockstep.screenshots;

import java.util.ArrayList;
import java.util.List;
import javafx.geometry.Bounds;
import javafx.geometry.Orientation;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.control.ContentDisplay;
import javafx.scene.control.Labeled;
import javafx.scene.control.ListView;
import javafx.scene.control.ScrollPane;
import javafx.scene.control.ScrollBar;
import javafx.scene.control.TableView;
import javafx.scene.layout.Region;
import javafx.scene.text.Text;

/**
 * Finds the labels of a window that do not show their whole text: a Labeled too narrow for its words draws them
 * elided ("Bloquear para ed…"), and its inner text node then holds less than its text; and a label or button that a
 * row too wide for its window pushes past the window's edge is cut there; a scroll pane made to fit its width
 * whose content needs more (a longer label in Portuguese) scrolls sideways and cuts every field's right edge. Data
 * cells (table, list and tree cells) are left out: a long company name in a narrow column is cut on purpose; the labels, buttons, tabs and
 * column headers a language makes longer are what must fit.
 */
final class ClippedTexts {

    private ClippedTexts() {
    }

    /** "Button#save: "Salvar alterações" shows as "Salvar alt…"" for every clipped label under {@code root}. */
    static List<String> in(Parent root) {
        List<String> clipped = new ArrayList<>();
        collect(root, false, clipped);
        return clipped;
    }

    /** @param scrolls whether {@code node} is inside something that scrolls: it may lie beyond the edge on purpose */
    private static void collect(Node node, boolean scrolls, List<String> clipped) {
        if (!node.isVisible() || isDataCell(node)) {
            return;
        }
        boolean inside = scrolls || node instanceof ScrollPane || node instanceof TableView
                || node instanceof ListView;
        if (!inside && node instanceof Labeled labeled && labeled.getScene() != null && labeled.getWidth() > 0) {
            Bounds b = labeled.localToScene(labeled.getLayoutBounds());
            if (b.getMaxX() > labeled.getScene().getWidth() + 1 || b.getMaxY() > labeled.getScene().getHeight() + 1) {
                clipped.add(labeled.getClass().getSimpleName() + (labeled.getId() == null ? "" : "#"
                        + labeled.getId()) + ": \"" + labeled.getText() + "\" runs off the window's edge");
            }
        }
        if (node instanceof Labeled labeled && labeled.getText() != null && !labeled.getText().isBlank()
                && labeled.getWidth() > 0 && labeled.getContentDisplay() != ContentDisplay.GRAPHIC_ONLY) {
            Node inner = labeled.lookup(".text");
            String whole = labeled.isMnemonicParsing() ? withoutMnemonic(labeled.getText()) : labeled.getText();
            if (inner instanceof Text shown && shown.getParent() == labeled && !whole.equals(shown.getText())) {
                clipped.add(labeled.getClass().getSimpleName() + (labeled.getId() == null ? "" : "#" + labeled.getId())
                        + ": \"" + labeled.getText() + "\" shows as \"" + shown.getText() + "\" (" + Math.round(
                                labeled.getWidth())
                        + " px)");
            }
        }
        if (node instanceof ScrollPane pane && pane.isFitToWidth() && pane.getContent() instanceof Region content
                && pane.getViewportBounds().getWidth() > 0
                && (content.minWidth(-1) > pane.getViewportBounds().getWidth() + 1
                        || pane.getChildrenUnmodifiable().stream().anyMatch(c -> c instanceof ScrollBar bar
                                && bar.getOrientation() == Orientation.HORIZONTAL && bar.isVisible()))) {
            clipped.add("ScrollPane" + (pane.getId() == null ? "" : "#" + pane.getId()) + pane.getStyleClass()
                    + ": made to fit its width, it scrolls sideways and cuts its fields (needs "
                    + Math.round(content.minWidth(-1)) + " px of " + Math.round(pane.getViewportBounds().getWidth())
                    + ")");
        }
        if (node instanceof Labeled labeled && labeled.isWrapText() && labeled.getWidth() > 0
                && labeled.getText() != null && !labeled.getText().isBlank()) {
            double room = labeled.getWidth() - labeled.getInsets().getLeft() - labeled.getInsets().getRight()
                    - (labeled.getGraphic() == null ? 0 : labeled.getGraphic().prefWidth(-1)
                            + labeled.getGraphicTextGap());
            for (String word : labeled.getText().split("\\s+")) {
                Text measure = new Text(word);
                measure.setFont(labeled.getFont());
                if (measure.getLayoutBounds().getWidth() > room + 1) {
                    clipped.add(labeled.getClass().getSimpleName() + (labeled.getId() == null ? "" : "#"
                            + labeled.getId()) + ": \"" + labeled.getText() + "\" breaks the word \"" + word
                            + "\" (" + Math.round(room) + " px for it)");
                    break;
                }
            }
        }
        if (node instanceof Parent parent) {
            for (Node child : parent.getChildrenUnmodifiable()) {
                collect(child, inside, clipped);
            }
        }
    }

    /** "_Save" as it shows, "Save": the first lone underscore marks the mnemonic; "__" is one underscore. */
    private static String withoutMnemonic(String text) {
        int at = text.indexOf('_');
        while (at >= 0 && at + 1 < text.length() && text.charAt(at + 1) == '_') {
            at = text.indexOf('_', at + 2);
        }
        String shown = at >= 0 ? text.substring(0, at) + text.substring(at + 1) : text;
        return shown.replace("__", "_");
    }

    private static boolean isDataCell(Node node) {
        return node.getStyleClass().contains("table-cell") || node.getStyleClass().contains("list-cell")
                || node.getStyleClass().contains("tree-table-cell") || node.getStyleClass().contains("table-row-cell");
    }
}
