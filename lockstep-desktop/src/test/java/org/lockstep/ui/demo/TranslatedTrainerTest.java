package org.lockstep.ui.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lockstep.testing.Translations.expect;

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
import org.junit.jupiter.api.Timeout;
import org.lockstep.server.Database;
import org.lockstep.testing.InEveryTranslation;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.FreshDatabase;
import org.lockstep.testing.fx.WindowTest;
import org.lockstep.text.Language;
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
    void closeDemo() throws Exception {
        OpenDemo.close(demo);
    }

    @AfterAll
    static void closeDatabase() throws Exception {
        FxToolkit.cleanupStages();
        executor.closeAndWait(java.time.Duration.ofSeconds(10)); // in-flight calls end before the database closes
    }

    @InEveryTranslation
    void theTrainerSpeaksTheLanguage(Language lang) throws Exception {
        demo = OpenDemo.open(db, executor, Duration.ofSeconds(30));
        Scene trainer = Fx.call(() -> demo.trainerStage().getScene());

        assertThat(Fx.call(() -> demo.trainerStage().getTitle())).isEqualTo(expect(lang,
                "Instrutor — demonstração do Lockstep", "Formador — demostración de Lockstep"));
        assertThat(Fx.call(() -> demo.alice().stage().getTitle())).isEqualTo(expect(lang,
                "Alice — demonstração do Lockstep", "Alice — demostración de Lockstep"));
        assertThat(Fx.call(() -> demo.bob().stage().getTitle())).isEqualTo(expect(lang,
                "Bob — demonstração do Lockstep", "Bob — demostración de Lockstep"));
        assertThat(Fx.call(() -> text(trainer, "#scenarioTitle"))).isEqualTo(expect(lang,
                "1. A atualização perdida", "1. La actualización perdida"));
        assertThat(Fx.call(() -> scenarioList(trainer).getItems().get(3).toString())).isEqualTo(expect(lang,
                "4. Bloquear para edição", "4. Bloquear para editar"));
        assertThat(Fx.call(() -> scenarioList(trainer).getItems().get(4).toString())).isEqualTo(expect(lang,
                "5. Queda: o bloqueio expira, o salvamento é barrado",
                "5. Caída: el bloqueo vence, el guardado se rechaza"));
        assertThat(Fx.call(() -> text(trainer, "#step-1"))).endsWith(expect(lang,
                "1. Alice e Bob abrem Harbour Lights Trading: os dois leem a versão 1, limite de crédito 1.000,00.",
                "1. Alice y Bob abren Harbour Lights Trading: los dos leen la versión 1, límite de crédito 1.000,00."));
        assertThat(Fx.call(() -> text(trainer, "#step-2"))).endsWith(expect(lang,
                "2. Os dois mudam para \"Última gravação vence (inseguro)\": os editores ficam vermelhos.",
                "2. Los dos cambian a \"Gana la última escritura (inseguro)\": los editores se ponen rojos."));
        assertThat(Fx.call(() -> button(trainer, "#nextStep"))).isEqualTo(expect(lang, "Próximo passo",
                "Siguiente paso"));
        assertThat(Fx.call(() -> button(trainer, "#runAll"))).isEqualTo(expect(lang, "Executar tudo",
                "Ejecutar todo"));
        assertThat(Fx.call(() -> button(trainer, "#resetData"))).isEqualTo(expect(lang, "Redefinir dados",
                "Restablecer datos"));

        runStep1();
        assertThat(Fx.call(() -> demo.trainer().noticeProperty().get())).isEqualTo(expect(lang,
                "Cada janela é um cliente à parte: seu próprio pool de conexões e sua própria sessão.",
                "Cada ventana es un cliente aparte: su propio pool de conexiones y su propia sesión."));
        assertThat(Fx.call(() -> text(demo.bob().stage().getScene(), "#operator-caption"))).isEqualTo(expect(lang,
                "procura Harbour Lights Trading", "busca Harbour Lights Trading"));
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
