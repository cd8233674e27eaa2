package org.lockstep.ui.main;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.TextInputControl;
import javafx.stage.Stage;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.fx.WindowSessions;
import org.lockstep.testing.fx.WindowTest;
import org.lockstep.ui.EditorServices;
import org.lockstep.ui.FxTaskExecutor;
import org.lockstep.ui.editor.CustomerEditorWindow;
import org.lockstep.ui.editor.EditorIds;
import org.lockstep.ui.guihandles.Fx;
import org.lockstep.ui.presence.PresenceBoard;
import org.testfx.api.FxRobot;

/**
 * Issue 5 on screen, two operators through the real LISTEN/NOTIFY feed: Alice opens a customer in an editor window
 * and saves; Bob's main window shows her there (presence) and, with no action of his, his list row and his clean
 * editor pane move to her version.
 */
@WindowTest(closeWindowsAfterEachTest = false)
@DatabaseTest
@Timeout(120)
class TwoOperatorsLiveTest {

    @RegisterExtension
    static final WindowSessions SESSIONS = new WindowSessions();
    final FxRobot robot = new FxRobot();

    /** An operator as the application wires one: services on an executor of their own, feed, presence board. */
    static EditorServices operator(String user) {
        FxTaskExecutor executor = SESSIONS.executor(2);
        return SESSIONS.present(SESSIONS.live(SESSIONS.operator(user, executor)), executor);
    }

    static EditorServices bob;
    static EditorServices alice;

    /** The operators, their feeds and boards are the class's: {@link #SESSIONS} ends them after it. */
    @BeforeAll
    static void signIn() {
        bob = operator("Bob");
        alice = operator("Alice");
    }

    @Test
    void aliceSavesAndBobsListRowAndCleanEditorFollowWithNoActionWhilePresenceShowsHer() {
        Customer c = SESSIONS.repository("Setup").create(aCustomer()
                .with(CustomerField.EXTERNAL_REF, "TWO-LIVE").with(CustomerField.CITY, "Kraków").build());
        PresenceBoard bobBoard = bob.presence().orElseThrow();
        MainWindow bobs = Fx.call(() -> MainWindow.show(new Stage(), bob, bob.live(), null));
        Fx.await("Bob's list", () -> Fx.call(() -> bobs.viewModel().list().rows().stream()
                .anyMatch(r -> r.id() == c.id())));
        Fx.run(() -> bobs.viewModel().list().select(c.id()));
        Fx.await("Bob's editor pane on the customer", () -> Fx.call(() -> bobs.viewModel().editor().buffer()
                .baseProperty().get() != null
                && bobs.viewModel().editor().buffer().baseProperty().get().id() == c.id()));

        Stage alicesWindow = Fx.call(() -> CustomerEditorWindow.open(alice, c.id()));
        Fx.await("Alice's editor to load", () -> Fx.call(() -> ((TextInputControl) alicesWindow.getScene()
                .lookup("#" + EditorIds.field(CustomerField.CITY))).getText().equals("Kraków")));
        Fx.await("Bob to see Alice here", () -> Fx.call(() -> bobBoard.others(c.id()).stream()
                .anyMatch(p -> p.user().equals("Alice"))));
        Fx.await("the Here badge in Bob's list", () -> robot.lookup(".presence-badge").tryQuery()
                .map(n -> ((Label) n).getText().equals("AL")).orElse(false));

        Fx.run(() -> {
            ((TextInputControl) alicesWindow.getScene().lookup("#" + EditorIds.field(CustomerField.CITY)))
                    .setText("Gdańsk");
            ((Button) alicesWindow.getScene().lookup("#saveButton")).fire();
        });

        Fx.await("Bob's list row to show Alice's save", () -> Fx.call(() -> bobs.viewModel().list().rows().stream()
                .anyMatch(r -> r.id() == c.id() && r.version() == 2 && "Gdańsk".equals(r.data().city()))));
        Fx.await("Bob's clean editor to move to version 2", () -> Fx.call(() -> bobs.viewModel().editor()
                .buffer().baseProperty().get().version() == 2));
        Customer inBobsEditor = Fx.call(() -> bobs.viewModel().editor().buffer().baseProperty().get());
        assertThat(inBobsEditor.data().city()).isEqualTo("Gdańsk");
        assertThat(inBobsEditor.updatedBy()).isEqualTo("Alice");
        assertThat(Fx.call(() -> bobs.viewModel().editor().buffer().dirtyProperty().get())).isFalse();
        assertThat(SESSIONS.repository("Reader").find(c.id()).orElseThrow().version()).isEqualTo(2);
    }
}
