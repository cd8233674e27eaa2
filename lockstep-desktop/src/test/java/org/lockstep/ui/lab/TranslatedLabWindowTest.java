package org.lockstep.ui.lab;

import static org.assertj.core.api.Assertions.assertThat;

import javafx.scene.Scene;
import javafx.scene.chart.Chart;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.Label;
import javafx.scene.control.TableView;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.lockstep.server.Database;
import org.lockstep.server.LabConnections;
import org.lockstep.lab.StrategyResult;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.FreshDatabase;
import org.lockstep.testing.fx.WindowTest;
import org.lockstep.text.Language;
import org.lockstep.text.Texts;
import org.lockstep.ui.FxTaskExecutor;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The Lab window in Brazilian Portuguese (issue 16), on a real database: its labels, columns, charts and tooltips,
 * and after a run the status with the language's plural, read back from the window. Strategy ids stay the command
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
        executor.close();
    }

    @Start
    void start(Stage stage) {
        stage.setScene(new Scene(new Label("Lockstep"), 300, 200));
        stage.show();
    }

    @BeforeEach
    void portuguese() {
        Texts.use(Language.PORTUGUESE_BRAZIL);
    }

    @AfterEach
    void english() throws Exception {
        Texts.use(Language.ENGLISH);
    }

    @Test
    @SuppressWarnings("unchecked")
    void theLabSpeaksPortuguese(FxRobot robot) throws Exception {
        Stage lab = WaitForAsyncUtils.asyncFx(() -> LabWindow.open(null, LabConnections.runner(db), executor)).get();
        WaitForAsyncUtils.waitForFxEvents();

        assertThat(lab.getTitle()).isEqualTo("Lockstep — laboratório de contenção");
        assertThat(robot.lookup("#lab-run").queryAs(Button.class).getText()).isEqualTo("E_xecutar");
        assertThat(robot.lookup("#lab-status").queryAs(Label.class).getText())
                .isEqualTo("Escolha os parâmetros e pressione Executar.");
        TableView<StrategyResult> table = robot.lookup("#lab-results").queryAs(TableView.class);
        assertThat(table.getColumns().get(0).getText()).isEqualTo("Estratégia");
        assertThat(table.getColumns().get(3).getText()).isEqualTo("Atualizações perdidas");
        CheckBox none = robot.lookup("#lab-strategy-none").queryAs(CheckBox.class);
        assertThat(none.getText()).isEqualTo("none");
        assertThat(none.getTooltip().getText()).isEqualTo("grava às cegas o estoque que leu (a atualização perdida)");
        assertThat(robot.lookup(".chart").queryAllAs(Chart.class)).extracting(Chart::getTitle)
                .contains("Vazão (tentativas/s)", "Atualizações perdidas", "Repetições", "Vazão por número de workers");

        LabWindowTest.set(robot, "#lab-workers", 3);
        LabWindowTest.set(robot, "#lab-stock", 1);
        robot.clickOn("#lab-run");

        LabWindowTest.await(() -> table.getItems().size() == 5
                && !robot.lookup("#lab-run").queryAs(Button.class).isDisabled());
        assertThat(robot.lookup("#lab-status").queryAs(Label.class).getText())
                .startsWith("Concluído: none perdeu 2 atualizações (");
    }
}
