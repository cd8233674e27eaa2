package org.lockstep.ui.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javafx.geometry.Orientation;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.control.Labeled;
import javafx.scene.control.ListView;
import javafx.scene.control.ScrollBar;
import javafx.scene.control.ScrollPane;
import javafx.scene.text.Text;
import javafx.stage.Stage;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.lockstep.editing.timeline.TimelineLayout;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.fx.WindowSessions;
import org.lockstep.testing.fx.WindowTest;
import org.lockstep.ui.guihandles.Fx;
import org.lockstep.ui.timeline.TimelineExport;
import org.lockstep.ui.timeline.TimelinePane;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The Trainer panel on one projector screen (issue 27): at 1600×900 and 1366×768, placed as {@link DemoLayout} places
 * it, every scenario's title, explanation and steps show whole (no label elided to "…", each as tall as its wrapped
 * text), the scenario list has no horizontal scroll bar, the timeline shows all its lanes and scenario 7's table
 * shows every row. Its two charts do not fit the band: they need about 140 px each under or beside the table, in a
 * band of about 230 px (1366×768) or 270 px (1600×900) that also holds the title and the explanation, so the panel
 * scrolls down to them (never sideways); the band is kept that short so that Alice's and Bob's windows keep the rest
 * of the screen. Screenshots of each scenario go to {@code -Dlockstep.screenshots=DIR} (else target/screenshots)
 * as demo-WxH-N.png.
 */
@WindowTest(closeWindowsAfterEachTest = false)
@DatabaseTest
@Timeout(300)
class TrainerFitsTest {

    static final String PANE = "#" + TimelinePane.ID;

    @RegisterExtension
    static final WindowSessions SESSIONS = new WindowSessions();
    static DemoSession demo;

    @BeforeAll
    static void openDemo() {
        demo = SESSIONS.demo(Duration.ofSeconds(3));
    }

    @ParameterizedTest(name = "{0}×{1}")
    @CsvSource({"1600, 900", "1366, 768"})
    void everyScenarioFitsTheTrainerBandWithoutScrollingSideways(int width, int height) throws Exception {
        DemoLayout.Placement p = DemoLayout.place(List.of(new DemoLayout.Bounds(0, 0, width, height)), 0, 0);
        Fx.run(() -> {
            Stage s = demo.trainerStage();
            s.setX(p.trainer().x());
            s.setY(p.trainer().y());
            s.setWidth(p.trainer().width());
            s.setHeight(p.trainer().height());
            s.getScene().getRoot().setStyle(p.small() ? DemoScreens.SMALL_FONT : "");
        });
        for (int n = 1; n <= 7; n++) {
            int number = n;
            Fx.run(() -> demo.trainer().selectedProperty().set(demo.trainer().scenarios().get(number - 1)));
            if (n == 1) {
                // One step, so that the timeline has its customer and its three lanes to fit.
                Fx.call(() -> demo.trainer().runNext()).get(60, java.util.concurrent.TimeUnit.SECONDS);
                Fx.await("the timeline's lanes", () -> demo.timeline().timelineProperty().get() != null
                        && demo.timeline().timelineProperty().get().lanes().size() >= 3);
            }
            WaitForAsyncUtils.waitForFxEvents(3);
            Parent root = Fx.call(() -> demo.trainerStage().getScene().getRoot());
            ListView<?> list = Fx.call(() -> (ListView<?>) root.lookup("#scenarioList"));
            // The list's cells and the wrapped labels settle over a few pulses after the band is resized: waited
            // for, and on giving up the last check's failure says which labels are cut.
            await().atMost(Duration.ofSeconds(Fx.PATIENCE_S)).untilAsserted(() -> {
                assertThat(Fx.call(() -> horizontalBarShowing(list)))
                        .as("scenario %d: the list's horizontal bar", number).isFalse();
                assertThat(Fx.call(() -> cut(root))).as("scenario %d at %dx%d: labels cut", number, width, height)
                        .isEmpty();
            });
            assertThat(Fx.call(() -> root.getLayoutBounds().getWidth())).as("the band's width")
                    .isEqualTo(p.trainer().width(), org.assertj.core.data.Offset.offset(1.0));
            if (n == 7) {
                assertThat(Fx.call(() -> root.lookup(PANE)))
                        .as("scenario 7 has no customer: its timeline makes room for the lab").isNull();
                assertThat(Fx.call(() -> demo.timeline().statusProperty().get()))
                        .isEqualTo("No timeline: this scenario edits no customer.");
                Node table = Fx.call(() -> root.lookup("#black-friday-results"));
                assertThat(Fx.call(() -> table.getLayoutBounds().getHeight()))
                        .isGreaterThanOrEqualTo(Fx.call(() -> table.prefHeight(-1)) - 0.5);
                assertThat(Fx.call(() -> table.lookupAll(".scroll-bar").stream()
                        .anyMatch(b -> b.isVisible() && ((ScrollBar) b).getOrientation() == Orientation.VERTICAL)))
                        .as("the lab's table scrolls").isFalse();
            } else if (n == 1) {
                assertThat(Fx.call(() -> demo.timelinePane().drawing().getLayoutBounds().getWidth()))
                        .as("three lanes drawn").isGreaterThanOrEqualTo(
                                3 * TimelineLayout.LANE_WIDTH);
                assertThat(Fx.call(() -> demo.timelinePane().zoom() * demo.timelinePane().drawing()
                        .getLayoutBounds().getWidth()))
                        .as("scenario %d: the timeline's lanes fit its pane", n)
                        .isLessThanOrEqualTo(Fx.call(() -> ((ScrollPane) root
                                .lookup(PANE)
                                .lookup(".scroll-pane")).getViewportBounds().getWidth()));
            }
            if (n != 7) {
                assertThat(Fx.call(() -> horizontalBarShowing((Parent) root.lookup(PANE))))
                        .as("scenario %d: the timeline's horizontal bar", n).isFalse();
            }
            screenshot(root, "demo-" + width + "x" + height + "-" + n + ".png");
        }
    }

    private static boolean horizontalBarShowing(Parent list) {
        return list.lookupAll(".scroll-bar").stream()
                .anyMatch(b -> b.isVisible() && ((ScrollBar) b).getOrientation() == Orientation.HORIZONTAL);
    }

    /** The visible labels whose shown text is elided or which are shorter than their wrapped text needs. */
    private static List<String> cut(Parent root) {
        List<String> cut = new ArrayList<>();
        for (Node n : root.lookupAll(".label")) {
            if (!(n instanceof Labeled l) || !l.isVisible() || l.getScene() == null || !shown(l)
                    || l.getText() == null || l.getText().isEmpty()) {
                continue;
            }
            Node text = l.lookup(".text");
            String shown = text instanceof Text t ? t.getText() : l.getText();
            double needed = l.prefHeight(l.getWidth());
            if (shown.endsWith(l.getEllipsisString()) && !l.getText().endsWith(l.getEllipsisString())
                    || l.isWrapText() && l.getHeight() + 0.5 < needed) {
                cut.add(l.getText() + " (shown: " + shown + ", " + l.getHeight() + " of " + needed + " px)");
            }
            ScrollPane pane = enclosing(l);
            if (pane != null && l.localToScene(l.getLayoutBounds()).getMaxX()
                    > pane.localToScene(pane.getLayoutBounds()).getMaxX() + 1) {
                cut.add(l.getText() + " (runs past the right edge of its pane)");
            }
        }
        for (Node n : root.lookupAll(".list-cell")) {
            if (n instanceof Labeled cell && cell.getText() != null && cell.isVisible()) {
                Node text = cell.lookup(".text");
                if (text instanceof Text t && !t.getText().equals(cell.getText())) {
                    cut.add(cell.getText() + " (shown: " + t.getText() + ")");
                }
            }
        }
        return cut;
    }

    private static ScrollPane enclosing(Node n) {
        for (Node p = n.getParent(); p != null; p = p.getParent()) {
            if (p instanceof ScrollPane pane) {
                return pane;
            }
        }
        return null;
    }

    private static boolean shown(Node n) {
        for (Node p = n; p != null; p = p.getParent()) {
            if (!p.isVisible()) {
                return false;
            }
        }
        return true;
    }

    private static void screenshot(Parent root, String name) throws Exception {
        Path dir = Path.of(System.getProperty("lockstep.screenshots", "target/screenshots"));
        Files.createDirectories(dir);
        Path file = dir.resolve(name);
        Fx.run(() -> {
            try {
                TimelineExport.png(root, file);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        assertThat(Files.size(file)).isGreaterThan(10_000);
    }
}
