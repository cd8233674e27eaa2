package org.lockstep.ui.merge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lockstep.domain.CustomerField.CITY;
import static org.lockstep.domain.CustomerField.PHONE;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicReference;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.lockstep.domain.Customer;
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

/** Bob deletes a record Alice changed since he loaded it; the outcome is read back from the database. */
@WindowTest
@DatabaseTest
@ExtendWith(ApplicationExtension.class)
class DeleteConflictDialogTest {

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

    private record Opened(DeleteConflictViewModel vm, MergeDialogHandle page) {
    }

    private Opened bobDeletes(FxRobot robot, Customer base) {
        Customer theirs = editors.bobDeletes(base).theirs().orElseThrow();
        try {
            DeleteConflictViewModel vm =
                    WaitForAsyncUtils.asyncFx(() -> new DeleteConflictViewModel(editors.bob().customers(),
                            editors.bob().history(), executor, base, theirs)).get();
            DeleteConflictDialog dialog = WaitForAsyncUtils.asyncFx(() -> DeleteConflictDialog.open(owner, vm)).get();
            Fx.await("the history of the saves in between",
                    () -> !vm.historySummaryProperty().get().startsWith("Looking up"));
            return new Opened(vm, MergeDialogHandle.on(robot, dialog.stage()));
        } catch (InterruptedException | ExecutionException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void showsTheChangesSinceILoadedItAndDeleteAnywayDeletesTheRecord(FxRobot robot) {
        Customer base = editors.loaded(aCustomer());
        editors.saves(editors.alice(), base.id(), d -> d.with(CITY, "Campinas"));
        Opened o = bobDeletes(robot, base);
        MergeDialogHandle page = o.page();

        assertThat(page.text("delete-title")).startsWith("Changed since you loaded it: Alice saved version 2 at ");
        assertThat(page.text("historySummary")).isEqualTo("1 save since you loaded it: Alice");
        assertThat(page.has("change-city")).isTrue();
        assertThat(page.has("change-phone")).isFalse();
        assertThat(page.focused()).isEqualTo("keep");

        page.click("delete-anyway");

        page.awaitClosed();
        assertThat(editors.alice().customers().find(base.id())).isEmpty();
    }

    @Test
    void keepLeavesAlicesVersion(FxRobot robot) {
        Customer base = editors.loaded(aCustomer());
        Customer theirs = editors.saves(editors.alice(), base.id(), d -> d.with(CITY, "Campinas"));
        Opened o = bobDeletes(robot, base);
        AtomicReference<Customer> kept = new AtomicReference<>();
        o.vm().setOnDecided(ending -> {
            if (ending instanceof DeleteDecision.Kept e) {
                kept.set(e.now());
            }
        });

        o.page().click("keep");

        assertThat(o.page().isOpen()).isFalse();
        assertThat(kept.get()).isEqualTo(theirs);
        assertThat(editors.read(base.id())).isEqualTo(theirs);
    }

    @Test
    void escKeepsTheRecord(FxRobot robot) {
        Customer base = editors.loaded(aCustomer());
        Customer theirs = editors.saves(editors.alice(), base.id(), d -> d.with(CITY, "Campinas"));
        Opened o = bobDeletes(robot, base);

        o.page().push(KeyCode.ESCAPE);

        assertThat(o.page().isOpen()).isFalse();
        assertThat(editors.read(base.id())).isEqualTo(theirs);
    }

    @Test
    void aRecordChangedAgainBeforeDeleteAnywayIsShownAgainBeforeItGoes(FxRobot robot) {
        Customer base = editors.loaded(aCustomer());
        editors.saves(editors.alice(), base.id(), d -> d.with(CITY, "Campinas"));
        Opened o = bobDeletes(robot, base);
        MergeDialogHandle page = o.page();
        editors.saves(editors.carol(), base.id(), d -> d.with(PHONE, "+55 11 4000-1111"));

        page.click("delete-anyway");

        page.awaitShown("delete-notice");
        assertThat(page.text("delete-notice"))
                .isEqualTo("Carol saved version 3 while you were deciding — review the new changes");
        assertThat(page.has("change-phone")).isTrue();
        assertThat(page.has("change-city")).isFalse();
        assertThat(editors.read(base.id()).version()).isEqualTo(3);

        page.click("delete-anyway");

        page.awaitClosed();
        assertThat(editors.alice().customers().find(base.id())).isEmpty();
    }
}
