package org.lockstep.ui.editor;

import org.lockstep.domain.ConcurrencyMode;
import static org.assertj.core.api.Assertions.assertThat;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import javafx.geometry.Bounds;
import javafx.scene.Node;
import javafx.scene.control.Labeled;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.lockstep.server.Database;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.fx.WindowTest;
import org.lockstep.ui.EditorServices;
import org.lockstep.ui.TwoOperators;
import org.lockstep.ui.guihandles.EditorWindowHandle;
import org.lockstep.ui.guihandles.Fx;
import org.lockstep.ui.lock.EditLockViewModel;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

/**
 * "Last write wins (unsafe)" in editor windows (issue 6): offered only where allowed, painted red with a warning
 * while chosen, and — through two windows of two sessions — the lost update it exists to show.
 */
@WindowTest
@DatabaseTest
@Timeout(120)
class LastWriteWinsEditorWindowTest {

    static final String WARNING = "Unsafe: Save overwrites every field with no version check — another operator's "
            + "save in between is lost without any error. For teaching only.";
    static final AtomicInteger REFS = new AtomicInteger();
    @RegisterExtension
    static final TwoOperators OPERATORS = new TwoOperators();
    static Database db;
    static EditorServices alice;
    static EditorServices bob;

    final FxRobot robot = new FxRobot();
    Customer stored;

    @BeforeAll
    static void start() {
        db = OPERATORS.db();
        alice = OPERATORS.alice();
        bob = OPERATORS.bob();
    }

    @BeforeEach
    void aCustomerExists() {
        stored = alice.customers().create(aCustomer().with(CustomerField.EXTERNAL_REF, "LWW-UI-"
                + REFS.incrementAndGet()).build());
    }

    @Test
    void theUnsafeModeIsNotOfferedUnlessAllowed() {
        EditorWindowHandle editor = EditorWindowHandle.open(robot, alice, stored.id(), 0);

        assertThat(editor.shown("unsafeMode")).isFalse();
        assertThat(Fx.call(() -> node(editor, "#unsafeMode").isManaged())).as("takes no room").isFalse();
        assertThat(editor.unsafeWarning()).isNull();
        assertThat(editor.paintedUnsafe()).isFalse();
    }

    @Test
    void choosingItPaintsTheEditorRedShowsTheWarningAndDisablesLock() {
        EditorWindowHandle editor =
                EditorWindowHandle.open(robot, alice.toBuilder().lastWriteWinsAllowed().build(), stored.id(), 0);
        assertThat(editor.shown("unsafeMode")).isTrue();
        assertThat(editor.paintedUnsafe()).isFalse();
        assertThat(editor.lockButtonEnabled()).isTrue();

        editor.chooseLastWriteWins();

        assertThat(editor.viewModel().lock().modeProperty().get()).isEqualTo(ConcurrencyMode.LAST_WRITE_WINS);
        assertThat(editor.paintedUnsafe()).isTrue();
        assertThat(editor.unsafeWarning()).isEqualTo(WARNING);
        assertThat(editor.lockButtonEnabled()).isFalse();

        editor.chooseOptimistic();

        assertThat(editor.paintedUnsafe()).isFalse();
        assertThat(editor.unsafeWarning()).isNull();
        assertThat(editor.lockButtonEnabled()).isTrue();
    }

    @ParameterizedTest(name = "{0} px wide")
    @ValueSource(ints = {560, 460})
    void inANarrowEditorTheModeRowWrapsRatherThanCuttingAModesName(int width) {
        // 560 px: an editor pane when two main windows share a 1920 px screen (lockstep demo); 460 px forces a wrap.
        EditorWindowHandle editor =
                EditorWindowHandle.open(robot, alice.toBuilder().lastWriteWinsAllowed().build(), stored.id(), 0);
        editor.chooseLastWriteWins();

        Fx.run(() -> {
            editor.stage().setMinWidth(width);
            editor.stage().setWidth(width);
        });
        WaitForAsyncUtils.waitForFxEvents();

        double sceneWidth = Fx.call(() -> editor.stage().getScene().getWidth());
        for (String id : List.of("#optimisticMode", "#lockMode", "#unsafeMode", "#lockButton", "#unsafeWarning")) {
            Bounds bounds = Fx.call(() -> node(editor, id).localToScene(node(editor, id).getBoundsInLocal()));
            assertThat(bounds.getMaxX()).as(id + " inside the editor").isLessThanOrEqualTo(sceneWidth);
        }
        for (String id : List.of("#optimisticMode", "#lockMode", "#unsafeMode", "#lockButton")) {
            Labeled control = (Labeled) node(editor, id);
            assertThat(Fx.call(() -> control.getWidth())).as(id + " at its full width, not cut short")
                    .isGreaterThanOrEqualTo(Fx.call(() -> control.prefWidth(-1)) - 0.5);
        }
    }

    @Test
    void twoOperatorsInLastWriteWinsLoseTheFirstSaveWithoutAnyError() {
        EditorWindowHandle aliceEditor =
                EditorWindowHandle.open(robot, alice.toBuilder().lastWriteWinsAllowed().build(), stored.id(),
                        0);
        EditorWindowHandle bobEditor =
                EditorWindowHandle.open(robot, bob.toBuilder().lastWriteWinsAllowed().build(), stored.id(), 640);
        aliceEditor.chooseLastWriteWins().type(CustomerField.CREDIT_LIMIT, "1100"); // +100 on the 1000 read
        bobEditor.chooseLastWriteWins().type(CustomerField.CREDIT_LIMIT, "1050"); // +50 on the same 1000

        aliceEditor.clickSave().awaitVersionLine("version 2 · saved by Alice");
        bobEditor.clickSave().awaitVersionLine("version 3 · saved by Bob");

        Customer now = alice.customers().find(stored.id()).orElseThrow();
        assertThat(now.version()).isEqualTo(3);
        assertThat(now.data().creditLimit()).as("Alice's +100 is lost").isEqualByComparingTo("1050");
        assertThat(bobEditor.mergeShowing()).isFalse();
        // No error: at most the news of one's own save, which fades.
        assertThat(bobEditor.notice()).isIn(null, "Saved version 3");
        assertThat(aliceEditor.notice()).isIn(null, "Saved version 2");
    }

    private Node node(EditorWindowHandle editor, String query) {
        return robot.from(editor.stage().getScene().getRoot()).lookup(query).query();
    }
}
