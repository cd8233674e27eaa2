package org.lockstep.ui.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.lockstep.server.Database;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.FreshDatabase;
import org.lockstep.testing.fx.WindowTest;
import org.lockstep.text.Language;
import org.lockstep.text.Texts;
import org.lockstep.ui.FxTaskExecutor;
import org.lockstep.ui.guihandles.Fx;
import org.testfx.api.FxToolkit;

/**
 * The trainer demo in Brazilian Portuguese and in Spanish (issue 16): the real demo's windows opened in that language,
 * the texts read back from the scene — window titles, a scenario's title, a step, the buttons — and step 1 run, so
 * that the operator's caption and what to notice come in the language too.
 */
@WindowTest(closeWindowsAfterEachTest = false)
@DatabaseTest
@Timeout(180)
class TranslatedTrainerTest {

    @FreshDatabase
    static Database db;
    static FxTaskExecutor executor;
    DemoSession demo;

    @BeforeAll
    static void openDatabase() throws Exception {
        executor = new FxTaskExecutor(1);
    }

    @AfterEach
    void closeDemoAndSpeakEnglish() throws Exception {
        OpenDemo.close(demo);
        Texts.use(Language.ENGLISH);
    }

    @AfterAll
    static void closeDatabase() throws Exception {
        FxToolkit.cleanupStages();
        executor.close();
    }

    @Test
    void theTrainerSpeaksBrazilianPortuguese() throws Exception {
        Texts.use(Language.PORTUGUESE_BRAZIL);
        demo = OpenDemo.open(db, executor, Duration.ofSeconds(30));
        Scene trainer = Fx.call(() -> demo.trainerStage().getScene());

        assertThat(Fx.call(() -> demo.trainerStage().getTitle())).isEqualTo("Instrutor — demonstração do Lockstep");
        assertThat(Fx.call(() -> demo.alice().stage().getTitle())).isEqualTo("Alice — demonstração do Lockstep");
        assertThat(Fx.call(() -> text(trainer, "#scenarioTitle"))).isEqualTo("1. A atualização perdida");
        assertThat(Fx.call(() -> scenarioList(trainer).getItems().get(3).toString()))
                .isEqualTo("4. Bloquear para edição");
        assertThat(Fx.call(() -> text(trainer, "#step-1")))
                .endsWith("1. Alice e Bob abrem Harbour Lights Trading: os dois leem a versão 1, limite de crédito "
                        + "1.000,00.");
        assertThat(Fx.call(() -> button(trainer, "#nextStep"))).isEqualTo("Próximo passo");
        assertThat(Fx.call(() -> button(trainer, "#runAll"))).isEqualTo("Executar tudo");
        assertThat(Fx.call(() -> button(trainer, "#resetData"))).isEqualTo("Redefinir dados");

        runStep1();
        assertThat(Fx.call(() -> demo.trainer().noticeProperty().get()))
                .isEqualTo("Cada janela é um cliente à parte: seu próprio pool de conexões e sua própria sessão.");
        assertThat(Fx.call(() -> text(demo.bob().stage().getScene(), "#operator-caption")))
                .isEqualTo("procura Harbour Lights Trading");
    }

    @Test
    void theTrainerSpeaksSpanish() throws Exception {
        Texts.use(Language.SPANISH);
        demo = OpenDemo.open(db, executor, Duration.ofSeconds(30));
        Scene trainer = Fx.call(() -> demo.trainerStage().getScene());

        assertThat(Fx.call(() -> demo.trainerStage().getTitle())).isEqualTo("Formador — demostración de Lockstep");
        assertThat(Fx.call(() -> demo.bob().stage().getTitle())).isEqualTo("Bob — demostración de Lockstep");
        assertThat(Fx.call(() -> text(trainer, "#scenarioTitle"))).isEqualTo("1. La actualización perdida");
        assertThat(Fx.call(() -> scenarioList(trainer).getItems().get(4).toString()))
                .isEqualTo("5. Caída: la concesión vence, el guardado se rechaza");
        assertThat(Fx.call(() -> text(trainer, "#step-2")))
                .endsWith("2. Los dos cambian a \"Gana la última escritura (inseguro)\": los editores se ponen rojos.");
        assertThat(Fx.call(() -> button(trainer, "#nextStep"))).isEqualTo("Siguiente paso");
        assertThat(Fx.call(() -> button(trainer, "#runAll"))).isEqualTo("Ejecutar todo");
        assertThat(Fx.call(() -> button(trainer, "#resetData"))).isEqualTo("Restablecer datos");

        runStep1();
        assertThat(Fx.call(() -> demo.trainer().noticeProperty().get()))
                .isEqualTo("Cada ventana es un cliente aparte: su propio pool de conexiones y su propia sesión.");
    }

    /** Step 1 of scenario 1, as the trainer's Next step runs it: the data reset, both windows open the customer. */
    private void runStep1() throws Exception {
        CompletableFuture<Void> step = Fx.call(() -> demo.trainer().runNext());
        step.get(60, TimeUnit.SECONDS);
        assertThat(Fx.call(() -> demo.trainer().doneProperty().get())).isEqualTo(1);
    }

    @SuppressWarnings("unchecked")
    private static ListView<Scenario> scenarioList(Scene scene) {
        return (ListView<Scenario>) scene.lookup("#scenarioList");
    }

    private static String text(Scene scene, String selector) {
        return ((Label) scene.lookup(selector)).getText();
    }

    private static String button(Scene scene, String selector) {
        return ((Button) scene.lookup(selector)).getText();
    }
}
