package org.lockstep.ui.editor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.lockstep.app.Database;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.CustomerRepository;
import org.lockstep.testing.Sessions;
import org.lockstep.testing.TestDatabases;
import org.lockstep.ui.FxTaskExecutor;
import org.lockstep.ui.conflict.ConflictChoice;
import org.lockstep.ui.guihandles.ConflictDialogHandle;
import org.lockstep.ui.guihandles.EditorWindowHandle;
import org.lockstep.ui.guihandles.Fx;
import org.lockstep.ui.guihandles.QuestionHandle;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;

/**
 * Editor windows driven by the robot against a real database. Alice and Bob are two sessions: each has its own
 * repository and its own background executor, as two Lockstep processes would.
 */
@Timeout(120)
class CustomerEditorWindowTest {

    static final AtomicInteger REFS = new AtomicInteger();
    static Database db;
    static CustomerRepository alice;
    static CustomerRepository bob;
    static FxTaskExecutor aliceExecutor;
    static FxTaskExecutor bobExecutor;

    final FxRobot robot = new FxRobot();
    Customer stored;

    @BeforeAll
    static void start() throws TimeoutException {
        FxToolkit.registerPrimaryStage();
        db = TestDatabases.fresh();
        alice = Sessions.repository(db, "Alice");
        bob = Sessions.repository(db, "Bob");
        aliceExecutor = new FxTaskExecutor(2);
        bobExecutor = new FxTaskExecutor(2);
    }

    @AfterAll
    static void stop() {
        aliceExecutor.close();
        bobExecutor.close();
        db.close();
    }

    @BeforeEach
    void aCustomerExists() {
        stored = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "UI-" + REFS.incrementAndGet()).build());
    }

    @AfterEach
    void closeWindows() throws TimeoutException {
        FxToolkit.cleanupStages();
    }

    EditorWindowHandle aliceWindow() {
        return EditorWindowHandle.open(robot, alice, aliceExecutor, "Alice", stored.id(), 0);
    }

    EditorWindowHandle bobWindow() {
        return EditorWindowHandle.open(robot, bob, bobExecutor, "Bob", stored.id(), 640);
    }

    @Test
    void bothSaveTheSecondSeesTheFirstsValuesAndOverwritesWithMine() {
        EditorWindowHandle aliceEditor = aliceWindow();
        EditorWindowHandle bobEditor = bobWindow();
        aliceEditor.type(CustomerField.CITY, "Curitiba");
        bobEditor.type(CustomerField.CITY, "Santos").type(CustomerField.PHONE, "+55 13 3222-0000");

        aliceEditor.clickSave().awaitVersionLine("version 2 · saved by Alice");
        bobEditor.clickSave();

        ConflictDialogHandle conflict = bobEditor.awaitConflict();
        assertThat(conflict.header()).matches("Alice saved version 2 at \\d\\d:\\d\\d while you were editing version 1");
        assertThat(conflict.theirs(CustomerField.CITY)).isEqualTo("Curitiba");
        assertThat(conflict.mine(CustomerField.CITY)).isEqualTo("Santos");
        assertThat(conflict.highlighted(CustomerField.CITY)).isTrue();
        assertThat(conflict.highlighted(CustomerField.PHONE)).isTrue();
        assertThat(conflict.highlighted(CustomerField.COMPANY)).isFalse();
        assertThat(alice.find(stored.id()).orElseThrow().data().city()).isEqualTo("Curitiba");

        conflict.choose(ConflictChoice.OVERWRITE_WITH_MINE);

        bobEditor.awaitVersionLine("version 3 · saved by Bob");
        Customer read = alice.find(stored.id()).orElseThrow();
        assertThat(read.version()).isEqualTo(3);
        assertThat(read.data().city()).isEqualTo("Santos");
        assertThat(read.data().phone()).isEqualTo("+55 13 3222-0000");
        assertThat(read.updatedBy()).isEqualTo("Bob");
        assertThat(bobEditor.title()).doesNotStartWith("•");
    }

    @Test
    void bothSaveTheSecondDiscardsMineAndSeesTheirs() {
        EditorWindowHandle aliceEditor = aliceWindow();
        EditorWindowHandle bobEditor = bobWindow();
        aliceEditor.type(CustomerField.CITY, "Curitiba");
        bobEditor.type(CustomerField.CITY, "Santos");
        assertThat(bobEditor.title()).isEqualTo("• Embraer - Empresa Brasileira de Aeronáutica S.A. — Customer #"
                + stored.id() + " — Lockstep — Bob");

        aliceEditor.clickSave().awaitVersionLine("version 2 · saved by Alice");
        bobEditor.clickSave().awaitConflict().choose(ConflictChoice.DISCARD_MINE_AND_RELOAD);

        bobEditor.awaitVersionLine("version 2 · saved by Alice");
        assertThat(bobEditor.text(CustomerField.CITY)).isEqualTo("Curitiba");
        assertThat(bobEditor.title()).doesNotStartWith("•");
        Customer read = alice.find(stored.id()).orElseThrow();
        assertThat(read.version()).isEqualTo(2);
        assertThat(read.data().city()).isEqualTo("Curitiba");
        assertThat(read.updatedBy()).isEqualTo("Alice");
    }

    @Test
    void whenTheyDeletedItMineIsSavedAsANewCustomer() {
        EditorWindowHandle bobEditor = bobWindow();
        bobEditor.type(CustomerField.CITY, "Santos");
        alice.delete(stored.id(), 1);

        ConflictDialogHandle conflict = bobEditor.clickSave().awaitConflict();
        assertThat(conflict.header()).isEqualTo("This customer was deleted by someone else");
        conflict.choose(ConflictChoice.SAVE_MINE_AS_NEW);

        bobEditor.awaitVersionLine("version 1 · saved by Bob");
        long newId = Fx.call(() -> bobEditor.viewModel().customerId().getAsLong());
        assertThat(newId).isNotEqualTo(stored.id());
        assertThat(alice.find(newId).orElseThrow().data().city()).isEqualTo("Santos");
        assertThat(bobEditor.title()).contains("Customer #" + newId);
    }

    @Test
    void ctrlSWithTheCaretStillInAFieldSavesTheTypedValue() {
        EditorWindowHandle editor = aliceWindow();

        editor.type(CustomerField.EMAIL, "compras@embraer.com.br").pressSaveShortcut();

        editor.awaitVersionLine("version 2 · saved by Alice");
        assertThat(alice.find(stored.id()).orElseThrow().data().email()).isEqualTo("compras@embraer.com.br");
    }

    @Test
    void twoQuickSavesFromOneWindowBothSucceed() {
        EditorWindowHandle editor = aliceWindow();

        editor.type(CustomerField.CITY, "Curitiba").pressSaveShortcut()
                .type(CustomerField.PHONE, "+55 41 3333-0000").pressSaveShortcut();

        editor.awaitVersionLine("version 3 · saved by Alice");
        Customer read = alice.find(stored.id()).orElseThrow();
        assertThat(read.data().city()).isEqualTo("Curitiba");
        assertThat(read.data().phone()).isEqualTo("+55 41 3333-0000");
        assertThat(editor.conflictShowing()).isFalse();
    }

    @Test
    void anInvalidEmailDisablesSaveWithTheReasonShownAndWritesNothing() {
        EditorWindowHandle editor = aliceWindow();

        editor.type(CustomerField.EMAIL, "luis at embraer");

        Fx.await("Save to be disabled", () -> !editor.saveEnabled());
        assertThat(editor.saveBlockedReason()).isEqualTo("Can't save: Email must look like name@example.com");
        assertThat(editor.error(CustomerField.EMAIL)).isEqualTo("Email must look like name@example.com");
        editor.pressSaveShortcut();
        assertThat(alice.find(stored.id()).orElseThrow().version()).isEqualTo(1);

        editor.type(CustomerField.EMAIL, "luis@embraer.com.br");
        assertThat(editor.saveEnabled()).isTrue();
        assertThat(editor.error(CustomerField.EMAIL)).isNull();
        assertThat(editor.saveBlockedReason()).isEmpty();
    }

    @Test
    void closingAWindowWithUnsavedEditsAsksAndSaveSavesThenCloses() {
        EditorWindowHandle editor = aliceWindow();
        editor.type(CustomerField.CITY, "Curitiba");

        editor.requestClose().awaitQuestion().answer("Save");

        Fx.await("the editor window to close", () -> !editor.stage().isShowing());
        assertThat(alice.find(stored.id()).orElseThrow().data().city()).isEqualTo("Curitiba");
    }

    @Test
    void deleteAsksNamingTheCustomerAndDeletesTheVersionLoaded() {
        EditorWindowHandle editor = aliceWindow();

        QuestionHandle question = editor.clickDelete().awaitQuestion();
        assertThat(question.text()).isEqualTo("Delete Embraer - Empresa Brasileira de Aeronáutica S.A. (Customer #"
                + stored.id() + ")? This cannot be undone.");
        question.answer("Delete");

        Fx.await("the editor window to close", () -> !editor.stage().isShowing());
        assertThat(alice.find(stored.id())).isEmpty();
    }

    @Test
    void deletingACustomerChangedSinceItWasLoadedDeletesNothingAndOffersToReload() {
        EditorWindowHandle editor = aliceWindow();
        bob.save(stored.id(), 1, stored.data().with(CustomerField.CITY, "Campinas"));

        editor.clickDelete().awaitQuestion().answer("Delete");

        Fx.await("the notice", () -> editor.notice() != null);
        assertThat(editor.notice()).startsWith("Not deleted: Embraer - Empresa Brasileira de Aeronáutica S.A. "
                + "changed since you loaded it (Bob saved version 2 at ");
        assertThat(alice.find(stored.id())).isPresent();
        editor.clickReload().awaitVersionLine("version 2 · saved by Bob");
        assertThat(editor.text(CustomerField.CITY)).isEqualTo("Campinas");
        assertThat(editor.notice()).isNull();
    }
}
