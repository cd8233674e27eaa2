package org.lockstep.ui;

import java.util.List;
import java.util.Optional;
import java.util.prefs.Preferences;
import javafx.application.Platform;
import javafx.event.EventType;
import javafx.geometry.Rectangle2D;
import javafx.scene.Node;
import javafx.scene.control.SplitPane;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.stage.Screen;
import javafx.stage.Stage;
import javafx.stage.Window;
import javafx.stage.WindowEvent;

/**
 * Where the operator put Lockstep's windows, kept per operator with {@link java.util.prefs.Preferences} as the
 * editing preferences are ({@link EditingPreferences}): under {@code org/lockstep/windows/<operator>}, for each kind of
 * window ({@code main}, {@code editor}, {@code merge}) its bounds ({@code main.x}, {@code main.y}, {@code main.width},
 * {@code main.height}, in pixels) and whether it was maximized, the split between the list and the editor
 * ({@code main.split}, 0 to 1) and the list's column widths ({@code list.column.<id>}, pixels). A window opens where
 * it was left only while those bounds still fit a current screen (a laptop away from its second monitor opens the
 * window on the primary screen instead); otherwise, and the first time, it takes a share of the screen's visual bounds,
 * centred. {@link #none()} remembers nothing (tests).
 */
public final class WindowPlaces {

    /** The preference node under which each operator's node is kept. */
    public static final String NODE = "org/lockstep/windows";
    /** How far a saved window may stick out of a screen's visual bounds, in pixels (the window manager's frame). */
    static final double SLACK = 16;

    private static final String KEPT = "lockstep.keptWidth";

    private final Optional<Preferences> node;

    private WindowPlaces(Optional<Preferences> node) {
        this.node = node;
    }

    /**
     * The places of {@code operator}'s windows, kept under {@code root}.
     *
     * @param root e.g. {@code Preferences.userRoot()}
     */
    public static WindowPlaces forOperator(Preferences root, String operator) {
        return new WindowPlaces(Optional.of(root.node(NODE).node(nodeName(operator))));
    }

    /**
     * The operator's own preference node, where other things the windows remember are kept too (the list's order);
     * empty for {@link #none()}.
     */
    public Optional<Preferences> preferences() {
        return node;
    }

    /** Places that remember nothing: every window opens at its first size. */
    public static WindowPlaces none() {
        return new WindowPlaces(Optional.empty());
    }

    /** A preference node's name for an operator: no slash, at most {@link Preferences#MAX_NAME_LENGTH} chars. */
    static String nodeName(String operator) {
        String name = operator.isBlank() ? "_" : operator.replace('/', '_');
        return name.length() <= Preferences.MAX_NAME_LENGTH ? name
                : name.substring(0, 60) + "#" + Integer.toHexString(name.hashCode());
    }

    /**
     * The bounds a window first opens at: {@code share} of the screen's visual bounds (the screen less the desktop's
     * panels), at least {@code minWidth} × {@code minHeight} where the screen has room, centred.
     */
    public static Rectangle2D firstBounds(Rectangle2D visual, double share, double minWidth, double minHeight) {
        double w = Math.min(visual.getWidth(), Math.max(minWidth, Math.round(visual.getWidth() * share)));
        double h = Math.min(visual.getHeight(), Math.max(minHeight, Math.round(visual.getHeight() * share)));
        return new Rectangle2D(visual.getMinX() + Math.round((visual.getWidth() - w) / 2),
                visual.getMinY() + Math.round((visual.getHeight() - h) / 2), w, h);
    }

    /** Whether {@code saved} lies within one of {@code screens} (visual bounds), give or take {@link #SLACK}. */
    static boolean fits(Rectangle2D saved, List<Rectangle2D> screens) {
        return saved.getWidth() > 0 && saved.getHeight() > 0 && screens.stream().anyMatch(s -> s.getMinX() - SLACK
                <= saved.getMinX() && s.getMinY() - SLACK <= saved.getMinY() && saved.getMaxX() <= s.getMaxX() + SLACK
                && saved.getMaxY() <= s.getMaxY() + SLACK);
    }

    /** The saved bounds of window {@code key}, when there are some. */
    Optional<Rectangle2D> saved(String key) {
        return node.flatMap(n -> {
            double w = n.getDouble(key + ".width", -1);
            double h = n.getDouble(key + ".height", -1);
            if (w <= 0 || h <= 0) {
                return Optional.empty();
            }
            return Optional.of(new Rectangle2D(n.getDouble(key + ".x", 0), n.getDouble(key + ".y", 0), w, h));
        });
    }

    /**
     * Shows {@code stage} where window {@code key} was left, when that still fits a screen, or else at its
     * {@linkplain #firstBounds first bounds} on the screen of {@code owner} (the primary screen without one); from
     * then on the bounds are saved whenever the stage is hidden. The bounds are applied again once the stage shows:
     * some window managers (seen with Openbox) map a new stage at its minimum size.
     *
     * @param share the share of the screen a first window takes, e.g. 0.8
     */
    public void show(Stage stage, String key, Window owner, double share, double minWidth, double minHeight) {
        List<Rectangle2D> screens = Screen.getScreens().stream().map(Screen::getVisualBounds).toList();
        Optional<Rectangle2D> saved = saved(key).filter(b -> fits(b, screens));
        Rectangle2D visual = owner == null ? Screen.getPrimary().getVisualBounds()
                : Screen.getScreensForRectangle(owner.getX(), owner.getY(), owner.getWidth(), owner.getHeight())
                        .stream().findFirst().orElse(Screen.getPrimary()).getVisualBounds();
        Rectangle2D bounds = saved.orElseGet(() -> firstBounds(visual, share, minWidth, minHeight));
        boolean maximized = saved.isPresent() && node.map(n -> n.getBoolean(key + ".maximized", false)).orElse(false);
        apply(stage, bounds);
        stage.show();
        apply(stage, bounds);
        stage.setMaximized(maximized);
        stage.addEventHandler(WindowEvent.WINDOW_HIDING, e -> write(n -> save(n, stage, key)));
    }

    private static void apply(Stage stage, Rectangle2D bounds) {
        stage.setX(bounds.getMinX());
        stage.setY(bounds.getMinY());
        stage.setWidth(bounds.getWidth());
        stage.setHeight(bounds.getHeight());
    }

    /** Saves the bounds of {@code stage} as window {@code key}'s (a maximized one keeps its unmaximized bounds). */
    private static void save(Preferences n, Stage stage, String key) {
        n.putBoolean(key + ".maximized", stage.isMaximized());
        if (stage.isMaximized() || stage.isIconified()) {
            return;
        }
        n.putDouble(key + ".x", stage.getX());
        n.putDouble(key + ".y", stage.getY());
        n.putDouble(key + ".width", stage.getWidth());
        n.putDouble(key + ".height", stage.getHeight());
    }

    /**
     * Writes to the operator's node, if any. A node removed meanwhile (by another Lockstep, or by hand) loses the
     * write: where a window was is not worth an error when it closes.
     */
    private void write(java.util.function.Consumer<Preferences> change) {
        node.ifPresent(n -> {
            try {
                change.accept(n);
            } catch (IllegalStateException removed) {
                // the node was removed: nothing to keep the places in
            }
        });
    }

    /**
     * Puts the first divider of {@code split} where the operator left it ({@code fallback} the first time), again once
     * its window shows at its size (a split laid out at another width first moves a divider to fit its panes' minimum
     * widths), and saves it when the window is hidden.
     *
     * @param fallback between 0 and 1
     */
    public void rememberDivider(SplitPane split, String key, double fallback) {
        double stored = node.map(n -> n.getDouble(key + ".split", fallback)).orElse(fallback);
        double position = stored > 0.05 && stored < 0.95 ? stored : fallback;
        split.setDividerPositions(position);
        onWindow(split, WindowEvent.WINDOW_SHOWN, () -> Platform.runLater(() -> split.setDividerPositions(position)));
        onWindow(split, WindowEvent.WINDOW_HIDING,
                () -> write(n -> n.putDouble(key + ".split", split.getDividerPositions()[0])));
    }

    /** Runs {@code action} on each {@code type} event of the window {@code node} is (or will be) shown in. */
    private static void onWindow(Node node, EventType<WindowEvent> type, Runnable action) {
        node.sceneProperty().addListener((o, oldScene, scene) -> {
            if (scene != null) {
                scene.windowProperty().addListener((w, oldWindow, window) -> {
                    if (window != null) {
                        window.addEventHandler(type, e -> action.run());
                    }
                });
            }
        });
    }

    /** Whether {@link #rememberColumns} gave {@code column} the width the operator had left it at. */
    public static boolean isKept(TableColumn<?, ?> column) {
        return Boolean.TRUE.equals(column.getProperties().get(KEPT));
    }

    /**
     * Gives each column of {@code table} that has an id the width the operator last left it at
     * ({@link #saveColumns}).
     */
    public void rememberColumns(TableView<?> table, String key) {
        node.ifPresent(n -> {
            for (TableColumn<?, ?> column : table.getColumns()) {
                double width = column.getId() == null ? -1 : n.getDouble(key + ".column." + column.getId(), -1);
                if (width > 0 && column.isResizable()) {
                    column.setPrefWidth(Math.max(column.getMinWidth(), width));
                    column.getProperties().put(KEPT, Boolean.TRUE);
                }
            }
        });
    }

    /**
     * Saves the width of each resizable column of {@code table} that has an id. Call when the operator has resized
     * one: widths the table gave itself when the window or the divider moved are not the operator's choice.
     */
    public void saveColumns(TableView<?> table, String key) {
        write(n -> table.getColumns().stream().filter(c -> c.getId() != null && c.isResizable())
                .forEach(c -> n.putDouble(key + ".column." + c.getId(), c.getWidth())));
    }
}
