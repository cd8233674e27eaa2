package org.lockstep.ui.merge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lockstep.domain.CustomerField.CITY;
import static org.lockstep.domain.CustomerField.PHONE;
import static org.lockstep.domain.CustomerField.POSTAL_CODE;
import static org.lockstep.domain.CustomerField.REGION;
import static org.lockstep.testing.CustomerBuilder.aCustomer;
import static org.lockstep.testing.Translations.expect;

import java.util.concurrent.ExecutionException;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerData;
import org.lockstep.testing.InEveryTranslation;
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
        executor.closeAndWait(java.time.Duration.ofSeconds(10)); // in-flight calls end before the database closes
    }

    @Start
    void start(Stage stage) {
        owner = stage;
        stage.setScene(new Scene(new Label("Bob's editor"), 300, 200));
        stage.show();
    }

    /** Bob's zero-row save on {@code base}, then his merge dialog, once the history is read. */
    private MergeDialogHandle bobMerges(FxRobot robot, Customer base, CustomerData mine) {
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

    @InEveryTranslation
    void oneConflict(Language lang, FxRobot robot) {
        Customer base = editors.loaded(aCustomer());
        editors.saves(editors.alice(), base.id(), d -> d.with(CITY, "Campinas").with(PHONE, "+55 11 4000-1111"));
        MergeDialogHandle page = bobMerges(robot, base, base.data().with(CITY, "Jundiaí"));

        assertThat(page.text("title")).startsWith(expect(lang, "Alice salvou a versão 2 às ",
                "Alice guardó la versión 2 a las "))
                .endsWith(expect(lang, " enquanto você editava a versão 1", " mientras editabas la versión 1"));
        assertThat(page.text("historySummary")).isEqualTo(expect(lang, "1 salvamento desde que você o carregou: Alice",
                "1 guardado desde que lo cargaste: Alice"));
        assertThat(page.text("merge-progress")).isEqualTo(expect(lang, "0 de 1 conflito resolvido",
                "0 de 1 conflicto resuelto"));
        assertThat(page.text("baseHeading")).isEqualTo(expect(lang, "Base: versão 1, quando você o carregou",
                "Base: versión 1, al cargarlo"));
        assertThat(page.text("mineHeading")).isEqualTo(expect(lang, "Meu: suas edições", "Mío: tus ediciones"));
        assertThat(page.text("theirsHeading")).isEqualTo(expect(lang, "Deles: versão 2 de Alice",
                "Suyo: versión 2 de Alice"));
        assertThat(page.text("resultHeading")).isEqualTo(expect(lang, "Resultado: o que Salvar mesclagem grava",
                "Resultado: lo que escribe Guardar fusión"));
        assertThat(page.status(CITY)).isEqualTo(expect(lang, "⚠ Conflito: escolha", "⚠ Conflicto: elige"));
        assertThat(page.status(PHONE)).isEqualTo(expect(lang, "deles", "suyo"));
        assertThat(page.text("use-mine-city")).isEqualTo(expect(lang, "Usar o meu", "Usar el mío"));
        assertThat(page.text("use-theirs-city")).isEqualTo(expect(lang, "Usar o deles", "Usar el suyo"));
        assertThat(page.text("save-merged")).isEqualTo(expect(lang, "Salvar mesclagem (Ctrl+S)",
                "Guardar fusión (Ctrl+S)"));
        assertThat(page.text("discard")).isEqualTo(expect(lang, "_Descartar minhas alterações",
                "_Descartar mis cambios"));
        assertThat(page.text("back")).isEqualTo(expect(lang, "Voltar ao editor (Esc)", "Volver al editor (Esc)"));
        assertThat(page.isOpen()).isTrue();
        assertThat(page.title()).startsWith(expect(lang, "Mesclagem: ", "Fusión: "));

        page.click("use-theirs-city");

        assertThat(page.text("merge-progress")).isEqualTo(expect(lang, "1 de 1 conflito resolvido",
                "1 de 1 conflicto resuelto"));
        assertThat(page.status(CITY)).isEqualTo(expect(lang, "✓ Resolvido: deles", "✓ Resuelto: suyo"));
    }

    @InEveryTranslation
    void severalConflictsAndSaves(Language lang, FxRobot robot) {
        Customer base = editors.loaded(aCustomer());
        editors.saves(editors.alice(), base.id(), d -> d.with(CITY, "Campinas").with(REGION, "RJ"));
        editors.saves(editors.carol(), base.id(), d -> d.with(POSTAL_CODE, "13010-000"));
        editors.saves(editors.alice(), base.id(), d -> d.with(PHONE, "+55 11 4000-1111"));
        MergeDialogHandle page = bobMerges(robot, base, base.data().with(CITY, "Jundiaí")
                .with(REGION, "MG").with(POSTAL_CODE, "13201-000"));

        assertThat(page.text("title")).startsWith(expect(lang, "Alice salvou a versão 4 às ",
                "Alice guardó la versión 4 a las "));
        assertThat(page.text("historySummary")).isEqualTo(expect(lang,
                "3 salvamentos desde que você o carregou: Alice (2), Carol (1)",
                "3 guardados desde que lo cargaste: Alice (2), Carol (1)"));
        assertThat(page.text("merge-progress")).isEqualTo(expect(lang, "0 de 3 conflitos resolvidos",
                "0 de 3 conflictos resueltos"));

        page.click("use-mine-city");

        assertThat(page.text("merge-progress")).isEqualTo(expect(lang, "1 de 3 conflitos resolvidos",
                "1 de 3 conflictos resueltos"));
        assertThat(page.status(CITY)).isEqualTo(expect(lang, "✓ Resolvido: meu", "✓ Resuelto: mío"));

        page.click("use-theirs-region");

        assertThat(page.text("merge-progress")).isEqualTo(expect(lang, "2 de 3 conflitos resolvidos",
                "2 de 3 conflictos resueltos"));
    }

    @InEveryTranslation
    void theDeleteConflict(Language lang, FxRobot robot) throws Exception {
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
                .startsWith(expect(lang, "Alterado desde que você o carregou: Alice salvou a versão 2 às ",
                        "Cambiado desde que lo cargaste: Alice guardó la versión 2 a las "))
                .endsWith(expect(lang, "; você carregou a versão 1", "; cargaste la versión 1"));
        assertThat(page.text("historySummary")).isEqualTo(expect(lang, "1 salvamento desde que você o carregou: Alice",
                "1 guardado desde que lo cargaste: Alice"));
        assertThat(page.text("delete-anyway")).isEqualTo(expect(lang, "_Excluir mesmo assim",
                "_Eliminar de todos modos"));
        assertThat(page.text("keep")).isEqualTo(expect(lang, "_Manter (Esc)", "_Conservar (Esc)"));
        assertThat(page.title()).startsWith(expect(lang, "Alterado desde que você o carregou: ",
                "Cambiado desde que lo cargaste: "));
    }
}
