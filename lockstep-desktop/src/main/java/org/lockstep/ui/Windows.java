package org.lockstep.ui;

import javafx.geometry.Bounds;
import javafx.geometry.Insets;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressBar;
import javafx.scene.control.ScrollPane;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import javafx.scene.text.Font;
import javafx.stage.Stage;
import javafx.stage.StageStyle;

/** Showing Lockstep's windows, and what is in them, the same way everywhere. */
public final class Windows {

    private Windows() {
    }

    /**
     * Shows a stage at its intended size. The size is applied again once the stage is shown: some window managers
     * (seen with Openbox) map a new stage at its minimum size, whatever the scene asked for.
     *
     * @param width  the width in pixels
     * @param height the height in pixels
     */
    public static void showAtSize(Stage stage, double width, double height) {
        stage.show();
        stage.setWidth(width);
        stage.setHeight(height);
    }

    /**
     * Scrolls the nearest scroll pane around {@code node} just enough that the node shows; does nothing when it
     * already does or no scroll pane encloses it. Call once the node has been laid out.
     */
    public static void reveal(Node node) {
        for (Node n = node.getParent(); n != null; n = n.getParent()) {
            if (n instanceof ScrollPane scroll && scroll.getContent() != null) {
                Node content = scroll.getContent();
                Bounds inContent = content.sceneToLocal(node.localToScene(node.getBoundsInLocal()));
                double viewport = scroll.getViewportBounds().getHeight();
                double hidden = content.getBoundsInLocal().getHeight() - viewport;
                if (inContent == null || hidden <= 0) {
                    return;
                }
                double top = scroll.getVvalue() * hidden;
                if (inContent.getMinY() < top) {
                    scroll.setVvalue(inContent.getMinY() / hidden);
                } else if (inContent.getMaxY() > top + viewport) {
                    scroll.setVvalue(Math.min(1, (inContent.getMaxY() - viewport) / hidden));
                }
                return;
            }
        }
    }

    /**
     * Styles and lays out {@code stage}'s scene before it is shown, so that the window's first frame is its content:
     * shown first, a window stayed blank white on screen until the first pulse had styled its whole scene (issue 30:
     * 2 s and more for the main window, under Xvfb on a busy 2-core machine). Call it after the scene is set and
     * before {@code show()}; FX thread.
     */
    public static void styleBeforeShowing(Stage stage) {
        Parent root = stage.getScene().getRoot();
        root.applyCss();
        root.layout();
    }

    /**
     * The small window shown while the database starts: a title, what is happening, and a progress bar that runs
     * until the caller closes it.
     *
     * @param title the window's title
     * @param text  e.g. "Starting database…"
     */
    public static Stage startingWindow(String title, String text) {
        Label what = new Label(text);
        what.setId("starting-database");
        what.setWrapText(true);
        ProgressBar progress = new ProgressBar();
        progress.setMaxWidth(Double.MAX_VALUE);
        Label heading = new Label("Lockstep");
        heading.setId("starting-heading");
        heading.setStyle("-fx-font-size: 1.6em; -fx-font-weight: bold;");
        heading.setMinWidth(Region.USE_PREF_SIZE); // never "Locks…"
        VBox box = new VBox(12, heading, what, progress);
        box.setPadding(new Insets(20));
        // Wide enough for the window's title in the title bar too: a utility window's narrow bar cut it.
        box.setPrefWidth(Math.max(420, ColumnWidths.textWidth(title, Font.getDefault()) + 160));
        Stage stage = new Stage(StageStyle.DECORATED);
        stage.setTitle(title);
        stage.setScene(new Scene(box));
        stage.setResizable(false);
        return stage;
    }
}
