package org.lockstep.ui.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lockstep.testing.CustomerBuilder.aCustomer;
import static org.lockstep.testing.Translations.expect;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneId;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javafx.scene.Scene;
import javafx.scene.chart.StackedBarChart;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.TableView;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.lockstep.server.Database;
import org.lockstep.ui.guihandles.Fx;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.SaveOutcome;
import org.lockstep.editing.CustomerEditing;
import org.lockstep.store.JdbiConflictReports;
import org.lockstep.store.JdbiCustomerRepository;
import org.lockstep.testing.InEveryTranslation;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.FreshDatabase;
import org.lockstep.testing.fx.WindowTest;
import org.lockstep.text.Language;
import org.lockstep.ui.FxTaskExecutor;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The conflict report window in each language besides English (issue 16), on a real database with the seeded history of
 * {@code ConflictReportWindowTest}: the summary's plurals and decimal comma, the hot-record alert, the headings and
 * the chart's series, read back from the window; the exported CSV keeps its English machine keys.
 */
@WindowTest
@DatabaseTest
@ExtendWith(ApplicationExtension.class)
class TranslatedConflictReportTest {

    @FreshDatabase
    static Database db;
    static FxTaskExecutor executor;
    static Customer hot;

    @BeforeAll
    static void seed() {
        executor = new FxTaskExecutor(1);
        JdbiCustomerRepository alice = new JdbiCustomerRepository(db.jdbi(), "Alice", "alice-report-es");
        JdbiCustomerRepository bob = new JdbiCustomerRepository(db.jdbi(), "Bob", "bob-report-es");
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
        stage.setScene(new Scene(new Label("Lockstep"), 300, 200));
        stage.show();
    }

    static void await(java.util.concurrent.Callable<Boolean> condition) {
        try {
            // Evaluated on the FX thread: the scene graph is its own, and a lookup from the test thread while a page arrives
            // walked a child list as it changed (IndexOutOfBoundsException, seen on CI in LockstepApplicationTest).
            WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> Fx.call(condition));
        } catch (TimeoutException e) {
            throw new AssertionError("Condition not met within 30 s", e);
        }
        WaitForAsyncUtils.waitForFxEvents();
    }

    @InEveryTranslation
    @SuppressWarnings("unchecked")
    void theReportSpeaksTheLanguage(Language lang, FxRobot robot, @TempDir Path dir) throws Exception {
        Stage report = WaitForAsyncUtils.asyncFx(() -> ConflictReportWindow.open(null,
                new JdbiConflictReports(db.jdbi()), executor)).get();
        await(() -> !robot.lookup("#conflict-report-table").queryAs(TableView.class).getItems().isEmpty());

        assertThat(report.getTitle()).isEqualTo(expect(lang, "Lockstep — relatório de conflitos",
                "Lockstep — informe de conflictos"));
        assertThat(robot.lookup("#conflict-report-summary").queryAs(Label.class).getText()).isEqualTo(expect(lang,
                // Portuguese counts 0 as one (CLDR: i = 0,1), so "0 espera", where Spanish says "0 esperas".
                "Em 30 dias: 2 salvamentos, 3 conflitos (60,0 %), 1 mesclagem salva, 0 abandonadas,"
                        + " 0 espera por bloqueio, 0 bloqueio quebrado, 0 expirados,"
                        + " 0 repetição esgotada no laboratório.",
                "En 30 días: 2 guardados, 3 conflictos (60,0 %), 1 fusión guardada, 0 abandonadas,"
                        + " 0 esperas de bloqueo, 0 bloqueos rotos, 0 vencidos,"
                        + " 0 reintentos agotados en el laboratorio."));
        ListView<String> alerts = robot.lookup("#conflict-report-alerts").queryAs(ListView.class);
        assertThat(alerts.getItems()).containsExactly(expect(lang,
                "Registro disputado: cliente " + hot.id() + " (Hot Harbour Ltd) — 3 conflitos neste cliente nos"
                        + " últimos 7 dias — considere Bloquear para edição",
                "Registro disputado: cliente " + hot.id() + " (Hot Harbour Ltd) — 3 conflictos en este cliente en"
                        + " los últimos 7 días — considera Bloquear para editar"));
        TableView<?> days = robot.lookup("#conflict-report-table").queryAs(TableView.class);
        assertThat(days.getColumns().get(0).getText()).isEqualTo(expect(lang, "Dia", "Día"));
        assertThat(days.getColumns().get(3).getText()).isEqualTo(expect(lang, "Taxa", "Tasa"));
        assertThat(days.getColumns().get(3).getCellData(0)).isEqualTo("60,0 %");
        // The day in the language's short date, never cut to "2026-1…".
        String day = String.valueOf(days.getColumns().get(0).getCellData(0));
        assertThat(day).matches("\\d\\d/\\d\\d/\\d{4}");
        double dayWidth = WaitForAsyncUtils.asyncFx(() -> org.lockstep.ui.ColumnWidths.textWidth(day,
                javafx.scene.text.Font.getDefault())).get();
        assertThat(days.getColumns().get(0).getWidth()).isGreaterThan(dayWidth);
        StackedBarChart<String, Number> chart = robot.lookup("#conflict-report-chart").queryAs(StackedBarChart.class);
        assertThat(chart.getTitle()).isEqualTo(expect(lang, "Conflitos e mesclagens por dia",
                "Conflictos y fusiones por día"));
        assertThat(chart.getData().get(0).getName())
                .isEqualTo(expect(lang, "Salvamentos que encontraram uma versão mais nova",
                        "Guardados que encontraron una versión más nueva"));
        assertThat(chart.getData().get(0).getData()).isNotEmpty()
                .allSatisfy(d -> assertThat(d.getXValue()).matches("\\d\\d/\\d\\d"));
        assertThat(robot.lookup("#conflict-report-refresh").queryAs(Button.class).getText()).isEqualTo(expect(lang,
                "A_tualizar", "Ac_tualizar"));
        assertThat(robot.lookup("#conflict-report-status").queryAs(Label.class).getText())
                .startsWith(expect(lang, "Lido às ", "Leído a las "))
                .endsWith(expect(lang, " (horário do servidor)", " (hora del servidor)"));

        ConflictReportViewModel vm = new ConflictReportViewModel(new JdbiConflictReports(db.jdbi()),
                org.lockstep.concurrency.TaskExecutor.sameThread(), ZoneId.systemDefault());
        vm.refresh();
        vm.exportCsv(dir.resolve("report.csv"));
        List<String> csv = Files.readAllLines(dir.resolve("report.csv"));
        assertThat(csv.get(0)).startsWith("day,saves,zero_row_saves,conflict_rate,");
        assertThat(csv.get(31)).isEqualTo("total,2,3,0.6000,1,0,0,0,0,0");
        assertThat(vm.statusProperty().get()).isEqualTo(expect(lang, "Relatório exportado como CSV para ",
                "Informe exportado como CSV a ") + dir.resolve("report.csv"));
    }

}
