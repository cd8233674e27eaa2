package org.lockstep.ui.editor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.text.Font;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.fx.WindowSessions;
import org.lockstep.testing.fx.WindowTest;
import org.lockstep.ui.ColumnWidths;
import org.lockstep.ui.EditorServices;
import org.lockstep.ui.guihandles.EditorWindowHandle;
import org.lockstep.ui.guihandles.Fx;
import org.lockstep.ui.guihandles.QuestionHandle;
import org.testfx.api.FxRobot;

/**
 * Issue 27: Restore saves at once, so the editor asks first, naming the version; Cancel does nothing, Restore saves
 * and the editor says "Saved version N" for a few seconds, then the notice fades; the History tab then lists it as
 * "Restored version 1", not as a save. Through Alice's editor window on the real database.
 */
@WindowTest
@DatabaseTest
@Timeout(120)
class RestoreConfirmWindowTest {

    @RegisterExtension
    static final WindowSessions SESSIONS = new WindowSessions();
    static EditorServices alice;

    final FxRobot robot = new FxRobot();

    @BeforeAll
    static void start() {
        alice = SESSIONS.operator("Alice", SESSIONS.executor(2));
    }

    @Test
    void restoreAsksNamingTheVersionCancelDoesNothingAndRestoreSaysSavedThenFades() {
        Customer v1 = alice.customers().create(aCustomer().with(CustomerField.EXTERNAL_REF, "RESTORE-ASK").build());
        alice.customers().save(v1.id(), v1.version(), v1.data().with(CustomerField.CITY, "Curitiba"));
        EditorWindowHandle editor = EditorWindowHandle.open(robot, alice, v1.id(), 0);
        editor.openHistory(2);

        QuestionHandle question = clickRestoreOfVersion1(editor);
        assertThat(question.text()).isEqualTo("Restore version 1? It is saved at once as a new version.");
        question.answer("Cancel");

        assertThat(alice.customers().find(v1.id()).orElseThrow().version()).isEqualTo(2);
        assertThat(editor.text(CustomerField.CITY)).isEqualTo("Curitiba");

        clickRestoreOfVersion1(editor).answer("Restore");

        Fx.await("the restore to be saved", () -> "Restored version 1 as version 3".equals(editor.notice()));
        Customer read = alice.customers().find(v1.id()).orElseThrow();
        assertThat(read.version()).isEqualTo(3);
        assertThat(read.data().sameValues(v1.data())).isTrue();
        Fx.await("the news to fade", () -> editor.notice() == null);
        assertThat(Fx.call(() -> editor.viewModel().noticeProperty().get().text()))
                .isEqualTo("Restored version 1 as version 3");
    }

    @Test
    void theHistoryTabsActionColumnSaysWhichVersionWasRestoredUncut() {
        Customer v1 = alice.customers().create(aCustomer().with(CustomerField.EXTERNAL_REF, "RESTORE-SAYS").build());
        alice.customers().save(v1.id(), v1.version(), v1.data().with(CustomerField.CITY, "Curitiba"));
        EditorWindowHandle editor = EditorWindowHandle.open(robot, alice, v1.id(), 0);
        editor.openHistory(2);

        clickRestoreOfVersion1(editor).answer("Restore");

        Fx.await("the history to list the restore", () -> actionColumn(editor).getTableView().getItems().size() == 3
                && "Restored version 1".equals(action(editor, 0)));
        assertThat(Fx.call(() -> action(editor, 1))).isEqualTo("Saved");
        assertThat(Fx.call(() -> action(editor, 2))).isEqualTo("Created");
        assertThat(Fx.call(() -> actionColumn(editor).getWidth())).as("wide enough for the whole label")
                .isGreaterThanOrEqualTo(Fx.call(() -> ColumnWidths.textWidth("Restored version 1", Font.getDefault())));
    }

    private static TableColumn<?, ?> actionColumn(EditorWindowHandle editor) {
        TableView<?> versions = (TableView<?>) editor.stage().getScene().lookup("#" + EditorIds.HISTORY_VERSIONS);
        return versions.getColumns().stream().filter(c -> "Action".equals(c.getText())).findFirst().orElseThrow();
    }

    private static Object action(EditorWindowHandle editor, int row) {
        return actionColumn(editor).getCellData(row);
    }

    private QuestionHandle clickRestoreOfVersion1(EditorWindowHandle editor) {
        Fx.run(() -> {
            TableView<?> versions = (TableView<?>) editor.stage().getScene().lookup("#" + EditorIds.HISTORY_VERSIONS);
            int row = 0;
            for (; row < versions.getItems().size(); row++) {
                if (((CustomerHistoryViewModel.Version) versions.getItems().get(row)).version() == 1) {
                    break;
                }
            }
            versions.getSelectionModel().clearAndSelect(row);
        });
        robot.clickOn(Fx.call(() -> editor.stage().getScene().lookup("#" + EditorIds.RESTORE_VERSION)));
        return editor.awaitQuestion();
    }
}
