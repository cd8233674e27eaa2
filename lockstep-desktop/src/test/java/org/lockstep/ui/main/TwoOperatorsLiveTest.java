package org.lockstep.ui.main;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.time.Duration;
import java.util.concurrent.TimeoutException;
import javafx.application.Platform;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.TextInputControl;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.lockstep.server.Database;
import org.lockstep.domain.ChangeFeed;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.store.JdbiCustomerRepository;
import org.lockstep.store.JdbiPresenceRepository;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.FreshDatabase;
import org.lockstep.testing.fx.WindowTest;
import org.lockstep.ui.Sessions;
import org.lockstep.ui.EditorServices;
import org.lockstep.ui.FxTaskExecutor;
import org.lockstep.ui.editor.CustomerEditorWindow;
import org.lockstep.ui.editor.EditorIds;
import org.lockstep.ui.guihandles.Fx;
import org.lockstep.ui.live.LiveUpdates;
import org.lockstep.ui.presence.PresenceBoard;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;

/**
 * Issue 5 on screen, two operators through the real LISTEN/NOTIFY feed: Alice opens a customer in an editor window
 * and saves; Bob's main window shows her there (presence) and, with no action of his, his list row and his clean
 * editor pane move to her version.
 */
@WindowTest(closeWindowsAfterEachTest = false)
@DatabaseTest
@Timeout(120)
class TwoOperatorsLiveTest {

    @FreshDatabase
    static Database db;
    static FxTaskExecutor aliceExecutor;
    static FxTaskExecutor bobExecutor;
    static ChangeFeed aliceFeed;
    static ChangeFeed bobFeed;
    static PresenceBoard aliceBoard;
    static PresenceBoard bobBoard;
    final FxRobot robot = new FxRobot();

    @BeforeAll
    static void start() throws TimeoutException {
        aliceExecutor = new FxTaskExecutor(2);
        bobExecutor = new FxTaskExecutor(2);
    }

    @AfterAll
    static void stop() throws TimeoutException {
        FxToolkit.cleanupStages();
        // Boards before executors: a heartbeat must not fire into a closed executor after this class is done.
        for (PresenceBoard b : new PresenceBoard[]{aliceBoard, bobBoard}) {
            if (b != null) {
                b.stop();
            }
        }
        for (ChangeFeed f : new ChangeFeed[]{aliceFeed, bobFeed}) {
            if (f != null) {
                f.close();
            }
        }
        aliceExecutor.closeAndWait(java.time.Duration.ofSeconds(10)); // in-flight calls end before the database closes
        bobExecutor.closeAndWait(java.time.Duration.ofSeconds(10)); // in-flight calls end before the database closes
    }

    /** An operator as the application wires one: services, live hub and feed, presence board. */
    static EditorServices operator(String user, FxTaskExecutor executor, boolean alice) {
        EditorServices plain = Sessions.services(db, user, executor, Platform::runLater, Sessions.quickLocks());
        LiveUpdates live = new LiveUpdates(Platform::runLater, plain.customers().sessionId());
        ChangeFeed feed = db.changeFeed(live);
        feed.start();
        PresenceBoard board = new PresenceBoard(new JdbiPresenceRepository(db.jdbi(), user,
                plain.customers().sessionId(), Duration.ofSeconds(30)), executor, Platform::runLater,
                Sessions.SCHEDULER, Duration.ofSeconds(1));
        board.follow(live);
        board.start();
        if (alice) {
            aliceFeed = feed;
            aliceBoard = board;
        } else {
            bobFeed = feed;
            bobBoard = board;
        }
        Fx.await(user + "'s feed to be live", () -> feed.status() == ChangeFeed.Status.LIVE);
        return plain.toBuilder().live(live).presence(board).build();
    }

    @Test
    void aliceSavesAndBobsListRowAndCleanEditorFollowWithNoActionWhilePresenceShowsHer() {
        Customer c = new JdbiCustomerRepository(db.jdbi(), "Setup").create(aCustomer()
                .with(CustomerField.EXTERNAL_REF, "TWO-LIVE").with(CustomerField.CITY, "Kraków").build());
        EditorServices bob = operator("Bob", bobExecutor, false);
        EditorServices alice = operator("Alice", aliceExecutor, true);
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
        assertThat(new JdbiCustomerRepository(db.jdbi(), "Reader").find(c.id()).orElseThrow().version()).isEqualTo(2);
    }
}
