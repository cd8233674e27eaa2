package org.lockstep.ui.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javafx.css.PseudoClass;
import javafx.scene.Node;
import javafx.scene.chart.LineChart;
import javafx.scene.control.Button;
import javafx.scene.control.ChoiceBox;
import javafx.scene.control.Label;
import javafx.scene.control.Spinner;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.lockstep.server.Database;
import org.lockstep.ui.guihandles.Fx;
import org.lockstep.server.LabConnections;
import org.lockstep.lab.StrategyResult;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.FreshDatabase;
import org.lockstep.testing.fx.WindowTest;
import org.lockstep.ui.FxTaskExecutor;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/** The Lab window, headless, on a real database: Run fills the table (lost updates marked), Sweep the chart. */
@WindowTest
@DatabaseTest
@ExtendWith(ApplicationExtension.class)
class LabWindowTest {

    @FreshDatabase
    static Database db;
    static FxTaskExecutor executor;

    Stage lab;

    @BeforeAll
    static void open() {
        executor = new FxTaskExecutor(1);
    }

    @AfterAll
    static void close() {
        executor.closeAndWait(java.time.Duration.ofSeconds(10)); // in-flight calls end before the database closes
    }

    @Start
    void start(Stage owner) {
        lab = LabWindow.open(owner, LabConnections.runner(db), executor);
    }

    @SuppressWarnings("unchecked")
    static <T> void set(FxRobot robot, String id, T value) {
        Node node = robot.lookup(id).query();
        robot.interact(() -> {
            if (node instanceof Spinner<?> spinner) {
                ((Spinner<T>) spinner).getValueFactory().setValue(value);
            } else {
                ((ChoiceBox<T>) node).setValue(value);
            }
        });
    }

    static void await(Callable<Boolean> condition) {
        try {
            // Evaluated on the FX thread: the scene graph is its own, and a lookup from the test thread while a page arrives
            // walked a child list as it changed (IndexOutOfBoundsException, seen on CI in LockstepApplicationTest).
            WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> Fx.call(condition));
        } catch (TimeoutException e) {
            throw new AssertionError("Condition not met within 30 s", e);
        }
        WaitForAsyncUtils.waitForFxEvents();
    }

    @Test
    void runShowsEveryStrategyAndMarksTheOneThatLostUpdates(FxRobot robot) {
        set(robot, "#lab-workers", 3);
        set(robot, "#lab-stock", 1);
        @SuppressWarnings("unchecked") TableView<StrategyResult> table =
                robot.lookup("#lab-results").queryAs(TableView.class);

        robot.clickOn("#lab-run");

        await(() -> table.getItems().size() == 5 && !robot.lookup("#lab-run").queryAs(Button.class).isDisabled());
        assertThat(table.getItems().get(0).lostUpdates()).isEqualTo(2);
        assertThat(robot.lookup("#lab-status").queryAs(Label.class).getText()).contains("No protection lost 2 updates");
        assertThat(robot.from(table).lookup(".table-row-cell").queryAllAs(TableRow.class))
                .filteredOn(row -> row.getItem() != null)
                .allSatisfy(row -> assertThat(row.getPseudoClassStates().contains(PseudoClass.getPseudoClass("lost")))
                        .isEqualTo(((StrategyResult) row.getItem()).lostUpdates() != 0))
                .hasSize(5);
        assertThat(lab.getWidth()).isLessThanOrEqualTo(1280);
        assertThat(lab.getHeight()).isLessThanOrEqualTo(800);
    }

    @Test
    void sweepDrawsOneLinePerStrategy(FxRobot robot) {
        set(robot, "#lab-sweep-workers", 2);
        set(robot, "#lab-sweep-ops", 1);
        set(robot, "#lab-think", 0);
        @SuppressWarnings("unchecked") LineChart<String, Number> chart =
                robot.lookup("#lab-sweep-chart").queryAs(LineChart.class);

        robot.clickOn("#lab-sweep");

        await(() -> chart.getData().size() == 5 && !robot.lookup("#lab-sweep").queryAs(Button.class).isDisabled());
        assertThat(chart.getData()).allSatisfy(line -> assertThat(line.getData()).hasSize(2));
        assertThat(chart.isVisible()).isTrue();
    }
}
