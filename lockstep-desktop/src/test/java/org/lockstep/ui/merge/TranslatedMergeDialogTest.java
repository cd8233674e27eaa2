package org.lockstep.ui.merge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lockstep.domain.CustomerField.CITY;
import static org.lockstep.domain.CustomerField.PHONE;
import static org.lockstep.domain.CustomerField.POSTAL_CODE;
import static org.lockstep.domain.CustomerField.REGION;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.util.concurrent.ExecutionException;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerData;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.fx.WindowTest;
import org.lockstep.text.Language;
import org.lockstep.text.Texts;
import org.lockstep.ui.FxTaskExecutor;
import org.lockstep.ui.TwoOperators;
import org.lockstep.ui.guihandles.Fx;
import org.lockstep.ui.guihandles.MergeDialogHandle;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The merge dialog in Brazilian Portuguese and in Spanish (issue 16), on a real database: the header's sentences,
 * the counts with the language's plural for one conflict and for several, the column headings and the buttons, read
 * back from the dialog's scene.
 */
@WindowTest
@DatabaseTest
@ExtendWith(ApplicationExtension.class)
class TranslatedMergeDialogTest {

    @RegisterExtension
    static final TwoOperators editors = new TwoOperators();
    static FxTaskExecutor executor;
    Stage owner;

    @BeforeAll
    static void open() {
        executor = new FxTaskExecutor(2);
    }

    @AfterAll
    static void close() {
        executor.close();
    }

    @Start
    void start(Stage stage) {
        owner = stage;
        stage.setScene(new Scene(new Label("Bob's editor"), 300, 200));
        stage.show();
    }

    @AfterEach
    void backToEnglish() throws Exception {
        Texts.use(Language.ENGLISH);
    }

    /** Bob's zero-row save on {@code base}, then his merge dialog in {@code lang}, once the history is read. */
    private MergeDialogHandle bobMerges(FxRobot robot, Language lang, Customer base, CustomerData mine) {
        Texts.use(lang);
        var conflict = editors.bobSaves(base, mine);
        MergeViewModel vm = call(() -> MergeViewModel.forConflict(editors.bob().customers(), editors.bob().history(),
                executor, base, mine,
                conflict));
        MergeDialog dialog = call(() -> MergeDialog.open(owner, vm));
        String lookingUp = Texts.tr("Looking up who saved in between…");
        Fx.await("the history of the saves in between", () -> !vm.historySummaryProperty().get().equals(lookingUp));
        return MergeDialogHandle.on(robot, dialog.stage());
    }

    private static <T> T call(java.util.concurrent.Callable<T> onFxThread) {
        try {
            return WaitForAsyncUtils.asyncFx(onFxThread).get();
        } catch (InterruptedException | ExecutionException e) {
            throw new AssertionError(e);
        }
    }

    private static String windowTitle(MergeDialogHandle page) {
        return page.title();
    }

    @Test
    void oneConflictInPortuguese(FxRobot robot) {
        Customer base = editors.loaded(aCustomer());
        editors.saves(editors.alice(), base.id(), d -> d.with(CITY, "Campinas").with(PHONE, "+55 11 4000-1111"));
        MergeDialogHandle page = bobMerges(robot, Language.PORTUGUESE_BRAZIL, base, base.data().with(CITY, "Jundiaí"));

        assertThat(page.text("title")).startsWith("Alice salvou a versão 2 às ")
                .endsWith(" enquanto você editava a versão 1");
        assertThat(page.text("historySummary")).isEqualTo("1 salvamento desde que você o carregou: Alice");
        assertThat(page.text("merge-progress")).isEqualTo("0 de 1 conflito resolvido");
        assertThat(page.text("baseHeading")).isEqualTo("Base: versão 1, quando você o carregou");
        assertThat(page.text("mineHeading")).isEqualTo("Meu: suas edições");
        assertThat(page.text("theirsHeading")).isEqualTo("Deles: versão 2 de Alice");
        assertThat(page.text("resultHeading")).isEqualTo("Resultado: o que Salvar mesclagem grava");
        assertThat(page.status(CITY)).isEqualTo("⚠ Conflito: escolha");
        assertThat(page.status(PHONE)).isEqualTo("deles");
        assertThat(page.text("use-theirs-city")).isEqualTo("Usar o deles");
        assertThat(page.text("save-merged")).isEqualTo("Salvar mesclagem (Ctrl+S)");
        assertThat(page.text("discard")).isEqualTo("_Descartar minhas alterações");
        assertThat(page.text("back")).isEqualTo("Voltar ao editor (Esc)");
        assertThat(page.isOpen()).isTrue();
        assertThat(windowTitle(page)).startsWith("Mesclagem: ");

        page.click("use-theirs-city");

        assertThat(page.text("merge-progress")).isEqualTo("1 de 1 conflito resolvido");
        assertThat(page.status(CITY)).isEqualTo("✓ Resolvido: deles");
    }

    @Test
    void severalConflictsAndSavesInPortuguese(FxRobot robot) {
        Customer base = editors.loaded(aCustomer());
        editors.saves(editors.alice(), base.id(), d -> d.with(CITY, "Campinas").with(REGION, "RJ"));
        editors.saves(editors.alice(), base.id(), d -> d.with(POSTAL_CODE, "13010-000"));
        MergeDialogHandle page = bobMerges(robot, Language.PORTUGUESE_BRAZIL, base, base.data().with(CITY, "Jundiaí")
                .with(REGION, "MG").with(POSTAL_CODE, "13201-000"));

        assertThat(page.text("title")).startsWith("Alice salvou a versão 3 às ");
        assertThat(page.text("historySummary")).isEqualTo("2 salvamentos desde que você o carregou: Alice (2)");
        assertThat(page.text("merge-progress")).isEqualTo("0 de 3 conflitos resolvidos");

        page.click("use-mine-city");
        page.click("use-theirs-region");

        assertThat(page.text("merge-progress")).isEqualTo("2 de 3 conflitos resolvidos");
        assertThat(page.status(CITY)).isEqualTo("✓ Resolvido: meu");
    }

    @Test
    void oneConflictInSpanish(FxRobot robot) {
        Customer base = editors.loaded(aCustomer());
        editors.saves(editors.alice(), base.id(), d -> d.with(CITY, "Campinas"));
        MergeDialogHandle page = bobMerges(robot, Language.SPANISH, base, base.data().with(CITY, "Jundiaí"));

        assertThat(page.text("title")).startsWith("Alice guardó la versión 2 a las ")
                .endsWith(" mientras editabas la versión 1");
        assertThat(page.text("historySummary")).isEqualTo("1 guardado desde que lo cargaste: Alice");
        assertThat(page.text("merge-progress")).isEqualTo("0 de 1 conflicto resuelto");
        assertThat(page.text("mineHeading")).isEqualTo("Mío: tus ediciones");
        assertThat(page.text("theirsHeading")).isEqualTo("Suyo: versión 2 de Alice");
        assertThat(page.status(CITY)).isEqualTo("⚠ Conflicto: elige");
        assertThat(page.text("use-mine-city")).isEqualTo("Usar el mío");
        assertThat(page.text("save-merged")).isEqualTo("Guardar fusión (Ctrl+S)");
        assertThat(windowTitle(page)).startsWith("Fusión: ");
    }

    @Test
    void severalConflictsAndSavesInSpanish(FxRobot robot) {
        Customer base = editors.loaded(aCustomer());
        editors.saves(editors.alice(), base.id(), d -> d.with(CITY, "Campinas").with(REGION, "RJ"));
        editors.saves(editors.carol(), base.id(), d -> d.with(POSTAL_CODE, "13010-000"));
        editors.saves(editors.alice(), base.id(), d -> d.with(PHONE, "+55 11 4000-1111"));
        MergeDialogHandle page = bobMerges(robot, Language.SPANISH, base, base.data().with(CITY, "Jundiaí")
                .with(REGION, "MG").with(POSTAL_CODE, "13201-000"));

        assertThat(page.text("historySummary")).isEqualTo("3 guardados desde que lo cargaste: Alice (2), Carol (1)");
        assertThat(page.text("merge-progress")).isEqualTo("0 de 3 conflictos resueltos");

        page.click("use-mine-city");

        assertThat(page.text("merge-progress")).isEqualTo("1 de 3 conflictos resueltos");
        assertThat(page.status(CITY)).isEqualTo("✓ Resuelto: mío");
    }

    @Test
    void theDeleteConflictInPortuguese(FxRobot robot) throws Exception {
        Texts.use(Language.PORTUGUESE_BRAZIL);
        Customer base = editors.loaded(aCustomer());
        editors.saves(editors.alice(), base.id(), d -> d.with(CITY, "Campinas"));
        Customer theirs = editors.bobDeletes(base).theirs().orElseThrow();
        DeleteConflictViewModel vm =
                call(() -> new DeleteConflictViewModel(editors.bob().customers(), editors.bob().history(), executor,
                        base, theirs));
        DeleteConflictDialog dialog = call(() -> DeleteConflictDialog.open(owner, vm));
        String lookingUp = Texts.tr("Looking up who saved in between…");
        Fx.await("the history of the saves in between", () -> !vm.historySummaryProperty().get().equals(lookingUp));
        MergeDialogHandle page = MergeDialogHandle.on(robot, dialog.stage());

        assertThat(page.text("delete-title"))
                .startsWith("Alterado desde que você o carregou: Alice salvou a versão 2 às ")
                .endsWith("; você carregou a versão 1");
        assertThat(page.text("historySummary")).isEqualTo("1 salvamento desde que você o carregou: Alice");
        assertThat(page.text("delete-anyway")).isEqualTo("_Excluir mesmo assim");
        assertThat(page.text("keep")).isEqualTo("_Manter (Esc)");
        assertThat(windowTitle(page)).startsWith("Alterado desde que você o carregou: ");
    }
}
