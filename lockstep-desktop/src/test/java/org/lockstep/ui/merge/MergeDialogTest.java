package org.lockstep.ui.merge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lockstep.domain.CustomerField.CITY;
import static org.lockstep.domain.CustomerField.EMAIL;
import static org.lockstep.domain.CustomerField.FAX;
import static org.lockstep.domain.CustomerField.NOTES;
import static org.lockstep.domain.CustomerField.PHONE;
import static org.lockstep.domain.CustomerField.POSTAL_CODE;
import static org.lockstep.domain.CustomerField.REGION;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicReference;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.scene.input.Clipboard;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerData;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.fx.WindowTest;
import org.lockstep.ui.FxTaskExecutor;
import org.lockstep.ui.TwoOperators;
import org.lockstep.ui.guihandles.Fx;
import org.lockstep.ui.guihandles.MergeDialogHandle;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The merge dialog on a real database: Alice saves first through her own repository, then Bob's save on his stale
 * base hits zero rows and his dialog opens; the values are read back from the database.
 */
@WindowTest
@DatabaseTest
@ExtendWith(ApplicationExtension.class)
class MergeDialogTest {

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

    /** Bob's zero-row save, then his merge dialog, with the history loaded. */
    private Opened bobMerges(FxRobot robot, Customer base, CustomerData mine) {
        var conflict = editors.bobSaves(base, mine);
        MergeViewModel vm = call(() -> MergeViewModel.forConflict(editors.bob().customers(), editors.bob().history(),
                executor, base, mine,
                conflict));
        MergeDialog dialog = call(() -> MergeDialog.open(owner, vm));
        Fx.await("the history of the saves in between",
                () -> !vm.historySummaryProperty().get().startsWith("Looking up"));
        return new Opened(vm, MergeDialogHandle.on(robot, dialog.stage()));
    }

    private record Opened(MergeViewModel vm, MergeDialogHandle page) {
    }

    private static <T> T call(java.util.concurrent.Callable<T> onFxThread) {
        try {
            return WaitForAsyncUtils.asyncFx(onFxThread).get();
        } catch (InterruptedException | ExecutionException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void phoneAndEmailEditedApartAreBothAutoResolvedAndSaveMergedWritesBoth(FxRobot robot) {
        Customer base = editors.loaded(aCustomer());
        editors.saves(editors.alice(), base.id(), d -> d.with(PHONE, "+55 11 4000-1111"));
        Opened o = bobMerges(robot, base, base.data().with(EMAIL, "bob@embraer.com.br"));
        MergeDialogHandle page = o.page();

        assertThat(page.text("title")).startsWith("Alice saved version 2 at ")
                .endsWith("while you were editing version 1");
        assertThat(page.text("historySummary")).isEqualTo("1 save since you loaded it: Alice");
        assertThat(page.status(PHONE)).isEqualTo("theirs");
        assertThat(page.status(EMAIL)).isEqualTo("mine");
        assertThat(page.has("row-city")).isFalse();
        assertThat(page.text("merge-progress")).isEqualTo("No conflicts: every change merged on its own");
        assertThat(page.enabled("save-merged")).isTrue();
        assertThat(page.focused()).isEqualTo("save-merged");

        page.click("save-merged");

        page.awaitClosed();
        Customer read = editors.read(base.id());
        assertThat(read.version()).isEqualTo(base.version() + 2);
        assertThat(read.data().phone()).isEqualTo("+55 11 4000-1111");
        assertThat(read.data().email()).isEqualTo("bob@embraer.com.br");
    }

    @Test
    void aCityConflictStandsOutAndUseTheirsSavesAlicesCity(FxRobot robot) {
        Customer base = editors.loaded(aCustomer());
        editors.saves(editors.alice(), base.id(), d -> d.with(CITY, "Campinas").with(PHONE, "+55 11 4000-1111"));
        Opened o = bobMerges(robot, base, base.data().with(CITY, "Jundiaí"));
        MergeDialogHandle page = o.page();

        assertThat(page.status(CITY)).isEqualTo("⚠ Conflict: choose");
        assertThat(page.rowIds().get(0)).isEqualTo("row-city");
        assertThat(page.enabled("save-merged")).isFalse();

        page.click("use-theirs-city");

        assertThat(page.status(CITY)).isEqualTo("✓ Resolved: theirs");
        assertThat(page.result(CITY)).isEqualTo("Campinas");
        page.click("save-merged");
        page.awaitClosed();
        assertThat(editors.read(base.id()).data().city()).isEqualTo("Campinas");
    }

    @Test
    void useMineOnACityConflictSavesBobsCity(FxRobot robot) {
        Customer base = editors.loaded(aCustomer());
        editors.saves(editors.alice(), base.id(), d -> d.with(CITY, "Campinas"));
        Opened o = bobMerges(robot, base, base.data().with(CITY, "Jundiaí"));

        o.page().click("use-mine-city");
        o.page().click("save-merged");

        o.page().awaitClosed();
        assertThat(editors.read(base.id()).data().city()).isEqualTo("Jundiaí");
    }

    @Test
    void editsToDifferentLinesOfTheNotesAreBothKept(FxRobot robot) {
        Customer base = editors.loaded(aCustomer().with(NOTES, "Prefers email\nInvoices quarterly\nShips from Santos"));
        editors.saves(editors.alice(), base.id(),
                d -> d.with(NOTES, "Prefers phone\nInvoices quarterly\nShips from Santos"));
        Opened o = bobMerges(robot, base,
                base.data().with(NOTES, "Prefers email\nInvoices quarterly\nShips from Itajaí"));

        assertThat(o.page().status(NOTES)).isEqualTo("lines combined");
        assertThat(o.page().result(NOTES)).isEqualTo("Prefers phone\nInvoices quarterly\nShips from Itajaí");
        o.page().click("save-merged");

        o.page().awaitClosed();
        assertThat(editors.read(base.id()).data().notes())
                .isEqualTo("Prefers phone\nInvoices quarterly\nShips from Itajaí");
    }

    @Test
    void aThirdSaveBeforeSaveMergedRefreshesTheDialogThenTheSaveSucceeds(FxRobot robot) {
        Customer base = editors.loaded(aCustomer());
        editors.saves(editors.alice(), base.id(), d -> d.with(PHONE, "+55 11 4000-1111"));
        Opened o = bobMerges(robot, base, base.data().with(EMAIL, "bob@embraer.com.br"));
        MergeDialogHandle page = o.page();
        editors.saves(editors.carol(), base.id(), d -> d.with(CITY, "Sorocaba"));

        page.click("save-merged");

        page.awaitShown("merge-notice");
        assertThat(page.text("merge-notice"))
                .isEqualTo("Carol saved version 3 while you were merging — review the new changes");
        assertThat(page.text("baseHeading")).isEqualTo("Base: version 2, what you merged against");
        assertThat(page.text("mineHeading")).isEqualTo("Mine: your merge");
        assertThat(page.text("theirsHeading")).isEqualTo("Theirs: version 3 by Carol");
        assertThat(page.status(CITY)).isEqualTo("theirs");
        assertThat(page.result(CITY)).isEqualTo("Sorocaba");
        assertThat(page.has("row-phone")).isFalse();
        assertThat(editors.read(base.id()).version()).isEqualTo(3);

        page.click("save-merged");

        page.awaitClosed();
        Customer read = editors.read(base.id());
        assertThat(read.version()).isEqualTo(4);
        assertThat(read.data().phone()).isEqualTo("+55 11 4000-1111");
        assertThat(read.data().email()).isEqualTo("bob@embraer.com.br");
        assertThat(read.data().city()).isEqualTo("Sorocaba");
    }

    @Test
    void savingARecordAliceDeletedOffersToRecreateItWithBobsValuesAndItsExternalRef(FxRobot robot) {
        Customer base = editors.loaded(aCustomer());
        editors.alice().customers().delete(base.id(), base.version());
        AtomicReference<Customer> recreated = new AtomicReference<>();
        Opened o = bobMerges(robot, base, base.data().with(EMAIL, "bob@embraer.com.br"));
        o.vm().setOnFinished(ending -> {
            if (ending instanceof MergeOutcome.Recreated e) {
                recreated.set(e.created());
            }
        });
        MergeDialogHandle page = o.page();

        assertThat(page.text("title")).startsWith("This customer was deleted by Alice at ");
        assertThat(page.text("theirsHeading")).isEqualTo("Theirs: deleted by Alice");
        assertThat(page.shown("save-merged")).isFalse();
        assertThat(page.text("discard")).isEqualTo("_Discard");
        assertThat(page.focused()).isEqualTo("recreate");

        page.click("recreate");

        page.awaitClosed();
        Customer read = editors.read(recreated.get().id());
        assertThat(read.id()).isNotEqualTo(base.id());
        assertThat(read.data().externalRef()).isEqualTo(base.data().externalRef());
        assertThat(read.data().email()).isEqualTo("bob@embraer.com.br");
    }

    @Test
    void f7FindsTheConflictsAltTAndAltMResolveThemAndCtrlSSaves(FxRobot robot) {
        Customer base = editors.loaded(aCustomer());
        editors.saves(editors.alice(), base.id(), d -> d.with(CITY, "Campinas").with(REGION, "RJ")
                .with(PHONE, "+55 11 4000-1111"));
        Opened o = bobMerges(robot, base, base.data().with(CITY, "Jundiaí").with(REGION, "MG"));
        MergeDialogHandle page = o.page();
        assertThat(page.focused()).isEqualTo("result-city");

        page.push(KeyCode.F7);
        assertThat(page.focused()).isEqualTo("result-region");
        page.push(KeyCode.ALT, KeyCode.T);
        assertThat(page.result(REGION)).isEqualTo("RJ");
        page.push(KeyCode.SHIFT, KeyCode.F7);
        assertThat(page.focused()).isEqualTo("result-city");
        page.push(KeyCode.ALT, KeyCode.M);
        assertThat(page.text("merge-progress")).isEqualTo("2 of 2 conflicts resolved");
        page.push(KeyCode.CONTROL, KeyCode.S);

        page.awaitClosed();
        CustomerData read = editors.read(base.id()).data();
        assertThat(read.city()).isEqualTo("Jundiaí");
        assertThat(read.region()).isEqualTo("RJ");
        assertThat(read.phone()).isEqualTo("+55 11 4000-1111");
    }

    @Test
    void countsResolvedConflictsAndTypingAResultResolvesOne(FxRobot robot) {
        Customer base = editors.loaded(aCustomer());
        editors.saves(editors.alice(), base.id(), d -> d.with(CITY, "Campinas").with(REGION, "RJ")
                .with(POSTAL_CODE, "13010-000"));
        Opened o = bobMerges(robot, base, base.data().with(CITY, "Jundiaí").with(REGION, "MG")
                .with(POSTAL_CODE, "13201-000"));
        MergeDialogHandle page = o.page();

        page.click("use-mine-city");
        page.click("use-theirs-region");
        assertThat(page.text("merge-progress")).isEqualTo("2 of 3 conflicts resolved");
        assertThat(page.enabled("save-merged")).isFalse();

        page.type(POSTAL_CODE, "13200-000");

        assertThat(page.text("merge-progress")).isEqualTo("3 of 3 conflicts resolved");
        assertThat(page.enabled("save-merged")).isTrue();
        page.click("save-merged");
        page.awaitClosed();
        assertThat(editors.read(base.id()).data().postalCode()).isEqualTo("13200-000");
    }

    @Test
    void anInvalidResultIsMarkedWithTheReasonAndBlocksSaveMerged(FxRobot robot) {
        Customer base = editors.loaded(aCustomer());
        editors.saves(editors.alice(), base.id(), d -> d.with(EMAIL, "alice@embraer.com.br"));
        Opened o = bobMerges(robot, base, base.data().with(EMAIL, "bob@embraer.com.br"));
        MergeDialogHandle page = o.page();

        page.type(EMAIL, "bob at embraer");

        assertThat(page.shown("error-email")).isTrue();
        assertThat(page.text("error-email")).isEqualTo("✗ Email must look like name@example.com");
        assertThat(page.text("merge-problems")).contains("Email must look like name@example.com");
        assertThat(page.enabled("save-merged")).isFalse();
        page.push(KeyCode.CONTROL, KeyCode.S);
        assertThat(page.isOpen()).isTrue();
        assertThat(editors.read(base.id()).version()).isEqualTo(2);
    }

    @Test
    void escReturnsToTheEditorWithMineIntact(FxRobot robot) {
        Customer base = editors.loaded(aCustomer());
        editors.saves(editors.alice(), base.id(), d -> d.with(CITY, "Campinas"));
        CustomerData mine = base.data().with(CITY, "Jundiaí");
        Opened o = bobMerges(robot, base, mine);
        AtomicReference<CustomerData> back = new AtomicReference<>();
        o.vm().setOnFinished(ending -> {
            if (ending instanceof MergeOutcome.Cancelled e) {
                back.set(e.mine());
            }
        });
        o.page().click("use-theirs-city");

        o.page().push(KeyCode.ESCAPE);

        assertThat(o.page().isOpen()).isFalse();
        assertThat(back.get()).isSameAs(mine);
        assertThat(editors.read(base.id()).data().city()).isEqualTo("Campinas");
    }

    @Test
    void discardMyChangesHandsTheirsToTheEditor(FxRobot robot) {
        Customer base = editors.loaded(aCustomer());
        Customer theirs = editors.saves(editors.alice(), base.id(), d -> d.with(CITY, "Campinas"));
        Opened o = bobMerges(robot, base, base.data().with(CITY, "Jundiaí"));
        AtomicReference<Customer> discarded = new AtomicReference<>();
        o.vm().setOnFinished(ending -> {
            if (ending instanceof MergeOutcome.Discarded e) {
                discarded.set(e.theirs());
            }
        });

        o.page().click("discard");

        assertThat(o.page().isOpen()).isFalse();
        assertThat(discarded.get()).isEqualTo(theirs);
    }

    @Test
    void copyMinePutsMyValuesOnTheClipboardAsText(FxRobot robot) {
        Customer base = editors.loaded(aCustomer());
        editors.saves(editors.alice(), base.id(), d -> d.with(CITY, "Campinas"));
        Opened o = bobMerges(robot, base, base.data().with(CITY, "Jundiaí"));

        o.page().click("copy-mine");

        String copied = call(() -> Clipboard.getSystemClipboard().getString());
        assertThat(copied).isEqualTo(o.vm().mineAsText()).contains("\nCity: Jundiaí\n");
    }

    @Test
    void hunksAreChosenOneByOneWithBothPuttingMineFirst(FxRobot robot) {
        Customer base = editors.loaded(aCustomer().with(NOTES, "Call Mon\nKeep\nShip by sea"));
        editors.saves(editors.alice(), base.id(), d -> d.with(NOTES, "Call Tue\nKeep\nShip by air"));
        Opened o = bobMerges(robot, base, base.data().with(NOTES, "Call Wed\nKeep\nShip by rail"));
        MergeDialogHandle page = o.page();

        page.click("hunk-notes-0-theirs");
        assertThat(page.status(NOTES)).isEqualTo("⚠ Both changed: 1 of 2 parts chosen");
        page.click("hunk-notes-1-both");

        assertThat(page.status(NOTES)).isEqualTo("✓ Resolved: chosen part by part");
        assertThat(page.result(NOTES)).isEqualTo("Call Tue\nKeep\nShip by rail\nShip by air");
        page.click("save-merged");
        page.awaitClosed();
        assertThat(editors.read(base.id()).data().notes()).isEqualTo("Call Tue\nKeep\nShip by rail\nShip by air");
    }

    @Test
    void showAllRevealsTheUnchangedFields(FxRobot robot) {
        Customer base = editors.loaded(aCustomer());
        editors.saves(editors.alice(), base.id(), d -> d.with(CITY, "Campinas"));
        Opened o = bobMerges(robot, base, base.data().with(CITY, "Jundiaí"));

        o.page().click("show-all");

        assertThat(o.page().has("row-fax")).isTrue();
        assertThat(o.page().status(FAX)).isEqualTo("unchanged");
    }

    @Test
    void everyControlIsReachableWithTabIncludingOutOfTextAreas(FxRobot robot) {
        Customer base = editors.loaded(aCustomer().with(NOTES, "Call Mon\nKeep"));
        editors.saves(editors.alice(), base.id(), d -> d.with(CITY, "Campinas").with(NOTES, "Call Tue\nKeep"));
        Opened o = bobMerges(robot, base, base.data().with(CITY, "Jundiaí").with(NOTES, "Call Wed\nKeep"));
        MergeDialogHandle page = o.page();
        Set<String> reached = new LinkedHashSet<>();

        for (int i = 0; i < 40; i++) {
            reached.add(page.focused());
            page.push(KeyCode.TAB);
        }

        assertThat(reached).contains("result-city", "use-mine-city", "use-theirs-city", "result-notes",
                "use-mine-notes", "use-theirs-notes", "hunk-notes-0-mine", "hunk-notes-0-theirs", "hunk-notes-0-both",
                "show-all", "use-mine-for-all", "use-theirs-for-all", "copy-mine", "discard", "back");
        assertThat(page.result(NOTES)).doesNotContain("\t");
    }

    @Test
    void aDatabaseErrorIsExplainedAndSaveMergedCanBeRetried(FxRobot robot) {
        Customer base = editors.loaded(aCustomer());
        editors.saves(editors.alice(), base.id(), d -> d.with(CITY, "Campinas"));
        Opened o = bobMerges(robot, base, base.data().with(CITY, "Jundiaí"));
        MergeDialogHandle page = o.page();
        page.click("use-mine-city");
        // A real failure of the database: updates of this customer are refused until the trigger goes.
        editors.db().jdbi().useHandle(h -> h.execute("""
                CREATE FUNCTION refuse_ui() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN RAISE EXCEPTION 'out of memory' USING ERRCODE = 'out_of_memory'; END $$;
                CREATE TRIGGER refuse_ui BEFORE UPDATE ON customer FOR EACH ROW
                    WHEN (OLD.id = %d) EXECUTE FUNCTION refuse_ui();
                """.formatted(base.id())));
        try {
            page.click("save-merged");
            page.awaitShown("merge-error");
        } finally {
            editors.db().jdbi()
                    .useHandle(h -> h.execute("DROP TRIGGER refuse_ui ON customer; DROP FUNCTION refuse_ui()"));
        }

        assertThat(page.text("merge-error")).startsWith("Not saved: ").contains("out of memory")
                .endsWith("Nothing is lost: your merge is still here; try Save merged again.");
        assertThat(page.result(CITY)).isEqualTo("Jundiaí");
        page.awaitEnabled("save-merged");

        page.click("save-merged");

        page.awaitClosed();
        assertThat(editors.read(base.id()).data().city()).isEqualTo("Jundiaí");
    }
}
