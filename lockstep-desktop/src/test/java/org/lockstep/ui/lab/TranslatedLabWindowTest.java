package org.lockstep.ui.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lockstep.testing.Translations.expect;

import javafx.scene.Scene;
import javafx.scene.chart.Chart;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.Label;
import javafx.scene.control.TableView;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.lockstep.server.Database;
import org.lockstep.server.LabConnections;
import org.lockstep.lab.StrategyResult;
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
 * The Lab window in each language besides English (issue 16), on a real database: its labels, columns, charts and
 * tooltips, and after a run the status with the language's plural, read back from the window. Strategy ids stay the command
 * line's words.
 */
@WindowTest
@DatabaseTest
@ExtendWith(ApplicationExtension.class)
class TranslatedLabWindowTest {

    @FreshDatabase
    static Database db;
    static FxTaskExecutor executor;

    @BeforeAll
    static void open() {
        executor = new FxTaskExecutor(1);
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

    @InEveryTranslation
    @SuppressWarnings("unchecked")
    void theLabSpeaksTheLanguage(Language lang, FxRobot robot) throws Exception {
        Stage lab = WaitForAsyncUtils.asyncFx(() -> LabWindow.open(null, LabConnections.runner(db), executor)).get();
        WaitForAsyncUtils.waitForFxEvents();

        assertThat(lab.getTitle()).isEqualTo(expect(lang, "Lockstep — laboratório de contenção",
                "Lockstep — laboratorio de contención"));
        assertThat(robot.lookup("#lab-run").queryAs(Button.class).getText()).isEqualTo(expect(lang, "E_xecutar",
                "E_jecutar"));
        assertThat(robot.lookup("#lab-status").queryAs(Label.class).getText()).isEqualTo(expect(lang,
                "Escolha os parâmetros e pressione Executar.", "Elige los parámetros y pulsa Ejecutar."));
        TableView<StrategyResult> table = robot.lookup("#lab-results").queryAs(TableView.class);
        assertThat(table.getColumns().get(0).getText()).isEqualTo(expect(lang, "Estratégia", "Estrategia"));
        assertThat(table.getColumns().get(3).getText()).isEqualTo(expect(lang, "Atualizações perdidas",
                "Actualizaciones perdidas"));
        CheckBox none = robot.lookup("#lab-strategy-none").queryAs(CheckBox.class);
        assertThat(none.getText()).isEqualTo(expect(lang, "Sem proteção", "Sin protección"));
        assertThat(none.getTooltip().getText()).isEqualTo(expect(lang,
                "grava às cegas o estoque que leu (a atualização perdida)",
                "escribe a ciegas el stock que leyó (la actualización perdida)"));
        assertThat(robot.lookup(".chart").queryAllAs(Chart.class)).extracting(Chart::getTitle).contains(expect(lang,
                new String[]{"Vazão (tentativas/s)", "Atualizações perdidas", "Repetições",
                        "Vazão por número de compradores"},
                new String[]{"Rendimiento (intentos/s)", "Actualizaciones perdidas", "Reintentos",
                        "Rendimiento por número de compradores"}));

        LabWindowTest.set(robot, "#lab-workers", 3);
        LabWindowTest.set(robot, "#lab-stock", 1);
        robot.clickOn("#lab-run");

        LabWindowTest.await(() -> table.getItems().size() == 5
                && !robot.lookup("#lab-run").queryAs(Button.class).isDisabled());
        assertThat(robot.lookup("#lab-status").queryAs(Label.class).getText()).startsWith(expect(lang,
                "Concluído: Sem proteção perdeu 2 atualizações (",
                "Terminado: Sin protección perdió 2 actualizaciones ("));
    }
}
