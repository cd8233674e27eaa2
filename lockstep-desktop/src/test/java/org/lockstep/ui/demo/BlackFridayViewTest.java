package org.lockstep.ui.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javafx.scene.Scene;
import javafx.scene.chart.BarChart;
import javafx.scene.image.WritableImage;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.lockstep.server.Database;
import org.lockstep.server.LabConnections;
import org.lockstep.concurrency.TaskExecutor;
import org.lockstep.lab.Strategy;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.FreshDatabase;
import org.lockstep.testing.fx.WindowTest;
import org.lockstep.ui.report.ConflictReportScreenshots;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * Scenario 7's results as the Trainer panel shows them, on a real database: the classic race under every strategy
 * fills the table and the chart; a snapshot goes to {@code target/screenshots/black-friday.png} to look at.
 */
@WindowTest
@DatabaseTest
@ExtendWith(ApplicationExtension.class)
class BlackFridayViewTest {

    @FreshDatabase
    static Database db;
    BlackFridayViewModel vm;
    Stage stage;

    @Start
    void start(Stage s) {
        stage = s;
        vm = new BlackFridayViewModel(LabConnections.runner(db), TaskExecutor.sameThread());
        s.setScene(new Scene(new BlackFridayView(vm).root(), 900, 440));
        s.show();
    }

    @Test
    @SuppressWarnings("unchecked")
    void theRaceFillsTheTableAndTheChart(FxRobot robot) throws Exception {
        robot.interact(() -> vm.race(List.of(Strategy.values())).join());

        assertThat(vm.results()).extracting(r -> r.strategy().id()).containsExactly("none", "optimistic",
                "pessimistic", "conditional", "lease");
        assertThat(vm.results().subList(1, 5)).allSatisfy(r -> assertThat(r.finalStock()).isZero());
        BarChart<String, Number> chart = robot.lookup("#black-friday-chart").queryAs(BarChart.class);
        assertThat(chart.getData()).extracting(javafx.scene.chart.XYChart.Series::getName)
                .containsExactly("Confirmed purchases", "Units taken from stock");
        assertThat(chart.getData().get(1).getData().get(1).getYValue().intValue()).isEqualTo(5);

        WaitForAsyncUtils.waitForFxEvents();
        WritableImage image = WaitForAsyncUtils.asyncFx(() -> stage.getScene().snapshot(null)).get(30,
                TimeUnit.SECONDS);
        Path file = Path.of("target", "screenshots", "black-friday.png");
        Files.createDirectories(file.getParent());
        ConflictReportScreenshots.write(image, file);
        assertThat(Files.size(file)).isPositive();
    }
}
