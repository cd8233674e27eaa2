package org.lockstep.ui.timeline;

import static org.lockstep.text.Texts.tr;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.geometry.VPos;
import javafx.scene.Group;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.control.Button;
import javafx.scene.control.ContextMenu;
import javafx.scene.control.Label;
import javafx.scene.control.MenuItem;
import javafx.scene.control.ScrollPane;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.FlowPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Pane;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.paint.Color;
import javafx.scene.shape.Line;
import javafx.scene.shape.Polygon;
import javafx.scene.shape.Rectangle;
import javafx.scene.text.Font;
import javafx.scene.text.FontPosture;
import javafx.scene.text.FontWeight;
import javafx.scene.text.Text;
import javafx.scene.text.TextAlignment;
import javafx.stage.FileChooser;
import org.lockstep.editing.timeline.TimelineEvent;
import org.lockstep.editing.timeline.TimelineLayout;
import org.lockstep.editing.timeline.TimelineLayout.Lane;
import org.lockstep.editing.timeline.TimelineLayout.Mark;
import org.lockstep.editing.timeline.TimelineLayout.Palette;
import org.lockstep.ui.theme.Themes;

/**
 * Draws a {@link TimelineViewModel}'s timeline as a sequence diagram — lanes as vertical lines under their headers,
 * events as arrows to or from the database with a short label and a detail line, time down the page — in a scroll
 * pane that keeps the step just run in view. Events only a client knows are dashed; lost updates, conflicts and
 * refusals are red; the step just run has a yellow band, and its text and "what to notice" stand under the title.
 * Export as PNG or SVG from the buttons or the drawing's context menu; "Open in a window" shows it large. Node ids:
 * {@link #ID}, {@code #timeline-window},
 * {@code #timeline-drawing}, {@code #timeline-status}, {@code #timeline-export-png},
 * {@code #timeline-export-svg}; each event is a {@code .timeline-event} group, its label a {@code .timeline-label}.
 */
public final class TimelinePane {

    /** The pane's node id. */
    public static final String ID = "timeline-pane";

    private final TimelineViewModel viewModel;
    private final BorderPane root = new BorderPane();
    private final Pane drawing = new Pane();
    /** The drawing's scale on screen: 1 unless {@link #fitLanesToWidth()} shrinks it to show every lane. */
    private final javafx.scene.transform.Scale zoom = new javafx.scene.transform.Scale(1, 1);
    // The drawing is scaled inside a group of its own, so that a PNG export (a snapshot of the drawing) keeps
    // full size whatever the zoom on screen.
    private final ScrollPane scroll = new ScrollPane(new Group(zoomed(drawing, zoom)));
    private javafx.stage.Stage window;
    /** A white sheet in the light theme, a dark one in the dark theme (issue 16); the SVG file is always white. */
    private SheetColours sheet = SheetColours.LIGHT;
    // Held here so that the theme, which lives as long as the process, does not keep a closed pane alive.
    private final javafx.beans.value.ChangeListener<Boolean> onTheme = (o, was, dark) -> {
        sheet = SheetColours.forTheme(dark);
        draw();
    };

    /** A pane over {@code viewModel}; it draws whenever the timeline or the highlighted step changes. */
    public TimelinePane(TimelineViewModel viewModel) {
        this.viewModel = viewModel;
        root.setId(ID);
        drawing.setId("timeline-drawing");
        Label status = new Label();
        status.setId("timeline-status");
        status.textProperty().bind(viewModel.statusProperty());
        Button png = new Button(tr("PNG…"));
        png.setId("timeline-export-png");
        png.setOnAction(e -> exportPng());
        Button svg = new Button(tr("SVG…"));
        svg.setId("timeline-export-svg");
        svg.setOnAction(e -> exportSvg());
        png.disableProperty().bind(viewModel.timelineProperty().isNull());
        svg.disableProperty().bind(viewModel.timelineProperty().isNull());
        Button large = new Button(tr("Open in a window"));
        large.setId("timeline-window");
        large.setOnAction(e -> openWindow());
        // A narrow Trainer panel (or a longer language) wraps the buttons onto a second row and the status onto
        // more lines; nothing is ever elided to "…" or cut at the window's edge (issue 16).
        FlowPane buttons = new FlowPane(8, 4, large, new Label(tr("Export:")), png, svg);
        buttons.setAlignment(Pos.CENTER_RIGHT);
        buttons.getChildren().forEach(n -> ((Region) n).setMinWidth(Region.USE_PREF_SIZE));
        HBox.setHgrow(buttons, Priority.ALWAYS);
        HBox bar = new HBox(8, status, buttons);
        bar.setAlignment(Pos.CENTER_LEFT);
        status.setWrapText(true);
        status.setMinWidth(60);
        status.setMinHeight(Region.USE_PREF_SIZE);
        bar.setPadding(new Insets(4, 6, 4, 6));
        root.setTop(bar);
        MenuItem asPng = new MenuItem(tr("Export as PNG…"));
        asPng.setOnAction(e -> exportPng());
        MenuItem asSvg = new MenuItem(tr("Export as SVG…"));
        asSvg.setOnAction(e -> exportSvg());
        scroll.setContextMenu(new ContextMenu(asPng, asSvg));
        scroll.setPannable(true);
        root.setCenter(scroll);
        viewModel.timelineProperty().addListener(o -> draw());
        viewModel.highlightFromProperty().addListener(o -> draw());
        viewModel.captionProperty().addListener(o -> draw());
        javafx.beans.value.ObservableBooleanValue dark = Themes.current().darkProperty();
        sheet = SheetColours.forTheme(dark.get());
        dark.addListener(new javafx.beans.value.WeakChangeListener<>(onTheme));
        draw();
    }

    /** The pane's node. */
    public Parent root() {
        return root;
    }

    /**
     * Scales the drawing down, never up, so that every lane shows side by side in the pane's width: the Trainer
     * panel's strip is narrower than three lanes, and a trainer who sees one lane cannot show the race (issue 27).
     */
    public void fitLanesToWidth() {
        Runnable fit = () -> {
            double width = drawing.prefWidth(-1);
            double viewport = scroll.getViewportBounds().getWidth();
            double s = width <= 0 || viewport <= 0 ? 1 : Math.min(1, (viewport - 2) / width);
            zoom.setX(s);
            zoom.setY(s);
        };
        scroll.viewportBoundsProperty().addListener(o -> fit.run());
        drawing.prefWidthProperty().addListener(o -> fit.run());
        fit.run();
    }

    /** The drawing's scale on screen, 1 at full size. */
    public double zoom() {
        return zoom.getX();
    }

    private static Group zoomed(Node node, javafx.scene.transform.Scale scale) {
        Group g = new Group(node);
        g.getTransforms().add(scale);
        return g;
    }

    /**
     * Shows the same timeline in a window of its own, e.g. on the projector: the Trainer panel's strip is short, and a
     * sequence diagram reads best tall. Both panes follow the one view model; the window is made once and raised
     * again.
     */
    private void openWindow() {
        if (window == null) {
            window = new javafx.stage.Stage();
            window.setTitle(tr("Timeline — Lockstep"));
            window.setScene(new javafx.scene.Scene(new TimelinePane(viewModel).root(), 1280, 800));
            if (root.getScene() != null) {
                window.initOwner(root.getScene().getWindow());
            }
        }
        window.show();
        window.toFront();
    }

    /** The drawing itself (what a PNG export shows: the sheet of the theme on screen). */
    public Node drawing() {
        return drawing;
    }

    private void draw() {
        drawing.getChildren().clear();
        viewModel.layout().ifPresentOrElse(this::draw, () -> {
            // The minimum too: kept at the last customer's width, it gave an empty pane a horizontal scroll bar.
            drawing.setMinSize(10, 10);
            drawing.setPrefSize(10, 10);
        });
    }

    private void draw(TimelineLayout layout) {
        drawing.setPrefSize(layout.width(), layout.height());
        drawing.setMinSize(layout.width(), layout.height());
        Rectangle paper = new Rectangle(layout.width(), layout.height(), sheet.of(Palette.PAPER));
        drawing.getChildren().add(paper);
        Text title = text(TimelineLayout.MARGIN, TimelineLayout.MARGIN + 16, layout.timeline().title(), Palette.INK,
                Font.font(null, FontWeight.BOLD, 15), false);
        drawing.getChildren().add(title);
        for (int i = 0; i < layout.caption().size(); i++) {
            Text line = text(TimelineLayout.MARGIN, TimelineLayout.MARGIN + TimelineLayout.TITLE_HEIGHT + 2
                    + i * TimelineLayout.CAPTION_LINE, layout.caption().get(i), Palette.INK,
                    Font.font(null, FontPosture.ITALIC, 12.5), false);
            line.getStyleClass().add("timeline-caption");
            drawing.getChildren().add(line);
        }
        for (Mark m : layout.marks()) {
            if (m.highlighted()) {
                Rectangle band = new Rectangle(TimelineLayout.MARGIN / 2, m.top(), layout.width()
                        - TimelineLayout.MARGIN, TimelineLayout.ROW_HEIGHT - 2);
                band.setFill(sheet.of(Palette.HIGHLIGHT));
                band.getStyleClass().add("timeline-highlight");
                drawing.getChildren().add(band);
            }
        }
        for (Lane lane : layout.lanes()) {
            drawing.getChildren().add(lane(lane, layout));
        }
        Mark firstHighlighted = null;
        for (Mark m : layout.marks()) {
            drawing.getChildren().add(event(m));
            if (m.highlighted() && firstHighlighted == null) {
                firstHighlighted = m;
            }
        }
        if (firstHighlighted != null) {
            double top = firstHighlighted.top();
            // Once laid out: the viewport's height is known only then.
            javafx.application.Platform.runLater(() -> reveal(top, layout.height()));
        }
    }

    private void reveal(double top, double height) {
        double viewport = scroll.getViewportBounds().getHeight();
        double s = zoom.getY();
        if (height * s > viewport) {
            scroll.setVvalue(Math.min(1,
                    Math.max(0, (top - TimelineLayout.ROW_HEIGHT) * s / (height * s - viewport))));
        }
    }

    private Group lane(Lane lane, TimelineLayout layout) {
        double half = TimelineLayout.LANE_WIDTH / 2 - 12;
        double top = layout.headerTop();
        Rectangle header = new Rectangle(lane.x() - half, top, half * 2, 28);
        header.setArcWidth(8);
        header.setArcHeight(8);
        header.setFill(sheet.of(Palette.HEADER));
        header.setStroke(sheet.of(lane.colour()));
        Text name =
                text(lane.x(), top + 19, lane.shownName(), lane.colour(), Font.font(null, FontWeight.BOLD, 13), true);
        Line life = new Line(lane.x(), top + 28, lane.x(), layout.height() - TimelineLayout.MARGIN);
        life.setStroke(sheet.of(lane.colour()));
        life.setStrokeWidth(1.5);
        life.getStrokeDashArray().setAll(2.0, 4.0);
        Group g = new Group(header, name, life);
        g.getStyleClass().add("timeline-lane");
        return g;
    }

    private Group event(Mark m) {
        TimelineEvent e = m.event();
        Color colour = sheet.of(m.colour());
        Group g = new Group();
        g.getStyleClass().add("timeline-event");
        g.getProperties().put(TimelineEvent.class, e);
        g.getChildren().add(text(TimelineLayout.MARGIN, m.y() + 4, m.time(), Palette.INK,
                Font.font("Monospaced", 12), false));
        g.getChildren().add(text(TimelineLayout.MARGIN, m.y() + 18, m.clock(), Palette.INK, Font.font(10), false));
        double mid = (m.fromX() + m.toX()) / 2;
        Text label;
        if (e.kind().shape() == TimelineEvent.Shape.ON_DATABASE) {
            Rectangle box = new Rectangle(mid - 90, m.y() - 14, 180, 20);
            box.setArcWidth(6);
            box.setArcHeight(6);
            box.setFill(sheet.of(Palette.PAPER));
            box.setStroke(colour);
            label = text(mid, m.y() + 1, m.label(), m.colour(), Font.font(12), true);
            g.getChildren().addAll(box, halo(label, m), label);
        } else {
            Line line = new Line(m.fromX(), m.y(), m.toX(), m.y());
            line.setStroke(colour);
            line.setStrokeWidth(2);
            if (m.dashed()) {
                line.getStrokeDashArray().setAll(6.0, 4.0);
            }
            double dir = Math.signum(m.toX() - m.fromX());
            Polygon head = new Polygon(m.toX(), m.y(), m.toX() - 10 * dir, m.y() - 5, m.toX() - 10 * dir, m.y() + 5);
            head.setFill(colour);
            label = text(mid, m.y() - 5, m.label(), m.colour(), e.alarm() ? Font.font(null, FontWeight.BOLD, 12)
                    : Font.font(12), true);
            g.getChildren().addAll(line, head, halo(label, m), label);
        }
        label.getStyleClass().add("timeline-label");
        for (int i = 0; i < m.details().size(); i++) {
            Text detail = text(mid, m.y() + 17 + i * TimelineLayout.DETAIL_LINE, m.details().get(i), Palette.INK,
                    Font.font(10.5), true);
            detail.getStyleClass().add("timeline-detail");
            g.getChildren().addAll(halo(detail, m), detail);
        }
        Tooltip.install(g, new Tooltip(e.label() + (e.detail().isEmpty() ? "" : "\n" + e.detail()) + "\n"
                + (e.source() == TimelineEvent.Source.CLIENT
                        ? tr("Known to the client only: the database keeps no row of it.")
                        : tr("Recorded by the database."))));
        return g;
    }

    /** A band of the row's background behind a text, so that a lifeline it crosses does not strike it through. */
    private Rectangle halo(Text t, Mark m) {
        javafx.geometry.Bounds b = t.getBoundsInParent();
        Rectangle r = new Rectangle(b.getMinX() - 2, b.getMinY(), b.getWidth() + 4, b.getHeight());
        r.setFill(sheet.of(m.background(), 0.9));
        return r;
    }

    private Text text(double x, double y, String s, String colour, Font font, boolean centred) {
        Text t = new Text(s);
        t.setFont(font);
        t.setFill(sheet.of(colour));
        t.setTextOrigin(VPos.BASELINE);
        if (centred) {
            t.setTextAlignment(TextAlignment.CENTER);
            t.setX(x - t.getLayoutBounds().getWidth() / 2);
        } else {
            t.setX(x);
        }
        t.setY(y);
        return t;
    }

    private void exportPng() {
        File file = choose(tr("PNG image"), "*.png", "timeline.png");
        if (file != null) {
            report(() -> TimelineExport.png(drawing, file.toPath()), file.toPath());
        }
    }

    private void exportSvg() {
        File file = choose(tr("SVG drawing"), "*.svg", "timeline.svg");
        if (file != null) {
            viewModel.layout().ifPresent(layout -> report(() -> TimelineExport.svg(layout, file.toPath()),
                    file.toPath()));
        }
    }

    private File choose(String kind, String pattern, String name) {
        FileChooser chooser = new FileChooser();
        chooser.setTitle(tr("Export the timeline"));
        chooser.getExtensionFilters().add(new FileChooser.ExtensionFilter(kind, pattern));
        chooser.setInitialFileName(name);
        return chooser.showSaveDialog(root.getScene() == null ? null : root.getScene().getWindow());
    }

    private static void report(TimelineExport.Write write, Path file) {
        try {
            write.run();
        } catch (IOException e) {
            TimelineExport.LOG.warn("Could not export the timeline", e);
            new javafx.scene.control.Alert(javafx.scene.control.Alert.AlertType.ERROR,
                    tr("Could not write {0}: {1}", file.getFileName().toString(), e.getMessage())).show();
        }
    }
}
