package org.lockstep.ui.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneId;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javafx.application.Platform;
import javafx.scene.chart.StackedBarChart;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.TableView;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.lockstep.server.Database;
import org.lockstep.ui.guihandles.Fx;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.SaveOutcome;
import org.lockstep.editing.CustomerEditing;
import org.lockstep.report.ConflictReport;
import org.lockstep.store.JdbiConflictReports;
import org.lockstep.store.JdbiCustomerRepository;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.FreshDatabase;
import org.lockstep.testing.fx.WindowTest;
import org.lockstep.ui.Sessions;
import org.lockstep.ui.FxTaskExecutor;
import org.lockstep.ui.main.MainWindow;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * Tools → Conflict report, headless, on a real database with a seeded history: the window opens from the main
 * window's menu and shows the seeded numbers (the day's row, the customer and who met its conflicts, the hot-record
 * alert, the chart), and exports what it shows.
 */
@WindowTest
@DatabaseTest
@ExtendWith(ApplicationExtension.class)
class ConflictReportWindowTest {

    @FreshDatabase
    static Database db;
    static FxTaskExecutor executor;
    static Customer hot;

    @BeforeAll
    static void seed() {
        executor = new FxTaskExecutor(1);
        JdbiCustomerRepository alice = new JdbiCustomerRepository(db.jdbi(), "Alice", "alice-report");
        JdbiCustomerRepository bob = new JdbiCustomerRepository(db.jdbi(), "Bob", "bob-report");
        hot = alice.create(aCustomer().with(CustomerField.COMPANY, "Hot Harbour Ltd").build());
        Customer v2 = ((SaveOutcome.Saved) alice.save(hot.id(), 1, hot.data().with(CustomerField.CITY, "Leith")))
                .saved();
        bob.save(hot.id(), 1, hot.data().with(CustomerField.PHONE, "+44 131 496 0000"));
        new CustomerEditing(bob).mergeAndSave(hot, hot.data().with(CustomerField.PHONE, "+44 131 496 0000"), v2, 1);
        for (int i = 0; i < 2; i++) {
            bob.save(hot.id(), 1, hot.data().with(CustomerField.EMAIL, "b" + i + "@example.com"));
        }
    }

    @AfterAll
    static void close() {
        executor.closeAndWait(java.time.Duration.ofSeconds(10)); // in-flight calls end before the database closes
    }

    @Start
    void start(Stage stage) {
        MainWindow window = MainWindow.show(stage, Sessions.services(db, "Zoë", executor, Platform::runLater,
                Sessions.quickLocks()));
        ConflictReportWindow.offer(window, new JdbiConflictReports(db.jdbi()), executor);
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
    @SuppressWarnings("unchecked")
    void toolsConflictReportOpensAndShowsTheSeededNumbers(FxRobot robot, @TempDir Path dir) throws Exception {
        robot.clickOn("Tools").clickOn("Conflict report…");

        await(() -> robot.lookup("#conflict-report-table").tryQuery().isPresent()
                && !robot.lookup("#conflict-report-table").queryAs(TableView.class).getItems().isEmpty());
        TableView<ConflictReport.Day> days = robot.lookup("#conflict-report-table").queryAs(TableView.class);
        assertThat(days.getItems()).hasSize(30);
        ConflictReport.Day today = days.getItems().get(0);
        assertThat(today).isEqualTo(new ConflictReport.Day(today.day(), 2, 3, 1, 0, 0, 0, 0, 0));
        assertThat(robot.lookup("#conflict-report-summary").queryAs(Label.class).getText()).isEqualTo(
                "In 30 days: 2 saves, 3 conflicts (60.0 %), 1 merge saved, 0 abandoned, 0 waits for a lock, 0 locks"
                        + " broken, 0 lapsed, 0 lab retries exhausted.");
        TableView<ConflictReport.CustomerConflicts> customers = robot.lookup("#conflict-report-customers")
                .queryAs(TableView.class);
        assertThat(customers.getItems()).containsExactly(new ConflictReport.CustomerConflicts(hot.id(),
                "Hot Harbour Ltd", 3, 2, List.of("Bob")));
        ListView<String> alerts = robot.lookup("#conflict-report-alerts").queryAs(ListView.class);
        assertThat(alerts.getItems()).containsExactly("Hot record: customer " + hot.id() + " (Hot Harbour Ltd) — 3"
                + " conflicts on this customer in the last 7 days — consider Lock for editing");
        StackedBarChart<String, Number> chart = robot.lookup("#conflict-report-chart").queryAs(StackedBarChart.class);
        assertThat(chart.getData()).hasSize(7);
        assertThat(chart.getData().get(0).getName()).isEqualTo("Saves that met a newer version");
        assertThat(chart.getData().get(0).getData().get(29).getYValue().doubleValue()).isEqualTo(3.0);

        Stage report = (Stage) days.getScene().getWindow();
        ConflictReportViewModel vm = new ConflictReportViewModel(new JdbiConflictReports(db.jdbi()),
                org.lockstep.concurrency.TaskExecutor.sameThread(), ZoneId.systemDefault());
        vm.refresh();
        vm.exportCsv(dir.resolve("report.csv"));
        vm.exportJson(dir.resolve("report.json"));
        List<String> csv = Files.readAllLines(dir.resolve("report.csv"));
        assertThat(csv).hasSize(32);
        assertThat(csv.get(0)).isEqualTo("day,saves,zero_row_saves,conflict_rate,merges_saved,merges_abandoned,"
                + "lease_waits,leases_broken,leases_lapsed,lab_retries_exhausted");
        assertThat(csv.get(31)).isEqualTo("total,2,3,0.6000,1,0,0,0,0,0");
        assertThat(Files.readString(dir.resolve("report.json"))).contains("\"merges_saved\" : 1");
        assertThat(report.getTitle()).isEqualTo("Lockstep — conflict report");
    }
}
