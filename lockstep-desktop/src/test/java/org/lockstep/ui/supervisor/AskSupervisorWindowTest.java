package org.lockstep.ui.supervisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import javafx.application.Platform;
import javafx.scene.control.Button;
import javafx.scene.control.DialogPane;
import javafx.scene.control.Label;
import javafx.scene.control.TextArea;
import javafx.stage.Stage;
import javafx.stage.Window;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.lockstep.domain.ChangeFeed;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.LeaseEvent;
import org.lockstep.server.Database;
import org.lockstep.store.JdbiLeaseRepository;
import org.lockstep.store.JdbiMessageRepository;
import org.lockstep.store.Operators;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.TeamServer;
import org.lockstep.testing.fx.WindowTest;
import org.lockstep.ui.EditorServices;
import org.lockstep.ui.FxTaskExecutor;
import org.lockstep.ui.Sessions;
import org.lockstep.ui.editor.CustomerEditorView;
import org.lockstep.ui.editor.EditorIds;
import org.lockstep.ui.guihandles.EditorWindowHandle;
import org.lockstep.ui.guihandles.Fx;
import org.lockstep.ui.live.LiveUpdates;
import org.lockstep.ui.lock.AskSupervisorDialog;
import org.lockstep.ui.main.MainWindow;
import org.testfx.api.FxRobot;

/**
 * Issue 26 on screen, on a team server's real logins: Alice holds a customer; Bob, an operator, is offered Ask a
 * supervisor… (not Break lock…) and sends the prefilled request; Sam, a supervisor, sees it in his main window with
 * Bob's login and the text, opens the customer, and breaks the lock. Who may break, and who reads the requests, the
 * database decides ({@code lockstep_whoami}, {@code lockstep_is_supervisor()}).
 */
@WindowTest
@DatabaseTest
@Timeout(180)
class AskSupervisorWindowTest {

    static TeamServer team;
    static final List<Database> DATABASES = new ArrayList<>();
    static final List<ChangeFeed> FEEDS = new ArrayList<>();
    static FxTaskExecutor executor;
    static EditorServices alice;
    static EditorServices bob;
    static EditorServices sam;
    final FxRobot robot = new FxRobot();

    @BeforeAll
    static void setUp() throws Exception {
        team = TeamServer.create();
        executor = new FxTaskExecutor(4);
        // Signed in for the class: their databases and feeds are the class's, ended after it.
        alice = signIn(team.alice());
        bob = signIn(team.bob());
        sam = signIn(team.sam());
    }

    @AfterAll
    static void tearDown() throws Exception {
        FEEDS.forEach(ChangeFeed::close);
        executor.closeAndWait(java.time.Duration.ofSeconds(10)); // in-flight calls end before the database closes
        for (Database db : DATABASES) {
            db.close();
        }
        if (team != null) {
            team.close();
        }
    }

    /** {@code login}'s client as the application wires it: its feed, its messages, breaking locks if a supervisor. */
    static EditorServices signIn(String login) {
        Database db = team.open(login);
        DATABASES.add(db);
        String session = login + "-" + UUID.randomUUID();
        // Locks of a minute, renewed every 20 s: the test is about a break, and on a loaded machine a 3 s lock can
        // lapse between two renewals, so that Sam's "break" finds nothing to break and he simply takes it.
        EditorServices plain = Sessions.services(db, login, executor, Platform::runLater,
                new org.lockstep.editing.LeaseSettings(java.time.Duration.ofMinutes(1),
                        java.time.Duration.ofMinutes(15),
                        java.time.Duration.ofMinutes(1), java.time.Duration.ofMillis(200)));
        LiveUpdates live = new LiveUpdates(Platform::runLater, plain.customers().sessionId());
        ChangeFeed feed = db.changeFeed(live);
        FEEDS.add(feed);
        feed.start();
        Fx.await(login + "'s feed to be live", () -> feed.status() == ChangeFeed.Status.LIVE);
        return plain.toBuilder().live(live)
                .messages(new JdbiMessageRepository(db.jdbi(), login, plain.customers().sessionId()))
                .mayBreakLocks(Operators.whoami(db.jdbi(), login).supervisor()).build();
    }

    @Test
    void bobAsksASupervisorAndSamSeesItOpensTheCustomerAndBreaksTheLock() {
        assertThat(bob.mayBreakLocks()).isFalse();
        assertThat(sam.mayBreakLocks()).isTrue();
        Customer stored = alice.customers().create(aCustomer().with(CustomerField.COMPANY, "Alfreds Futterkiste")
                .with(CustomerField.EXTERNAL_REF, "ASK-1").build());
        MainWindow samsWindow = Fx.call(() -> MainWindow.show(new Stage(), sam, sam.live(), null));
        SupervisorInboxViewModel inbox = samsWindow.supervisorInbox().orElseThrow();

        EditorWindowHandle alicesEditor = EditorWindowHandle.open(robot, alice, stored.id(), 0);
        alicesEditor.clickLock().awaitLockMessage("Locked for you until ");
        EditorWindowHandle bobsEditor = EditorWindowHandle.open(robot, bob, stored.id(), 640);
        bobsEditor.awaitLockMessage(team.alice() + " is editing this customer");
        Fx.await("Ask a supervisor… in Bob's lock bar", () -> bobsEditor.shown(EditorIds.ASK_SUPERVISOR_BUTTON));
        assertThat(bobsEditor.shown(EditorIds.BREAK_LOCK_BUTTON)).isFalse();
        assertThat(bobsEditor.shown("supervisorOnly")).isFalse();

        bobsEditor.clickLockBar(EditorIds.ASK_SUPERVISOR_BUTTON);
        Fx.await("the dialog", () -> robot.lookup("#" + AskSupervisorDialog.ID).tryQuery().isPresent());
        DialogPane dialog = robot.lookup("#" + AskSupervisorDialog.ID).queryAs(DialogPane.class);
        TextArea text = (TextArea) Fx.call(() -> dialog.lookup("#" + AskSupervisorDialog.TEXT_ID));
        String expected = "Please break " + team.alice() + "'s lock on customer " + stored.id() + " ("
                + stored.data().displayName() + ")";
        String prefilled = Fx.call(() -> text.getText());
        assertThat(prefilled).isEqualTo(expected);
        robot.clickOn(text).write(" — a caller is waiting");
        robot.clickOn((Button) Fx.call(() -> dialog.lookupButton(dialog.getButtonTypes().get(0))));

        Fx.await("the dialog to close once sent", () -> dialog.getScene() == null
                || !dialog.getScene().getWindow().isShowing());
        Fx.await("Bob's bar to say it was sent", () -> bobsEditor.shown(EditorIds.ASKED_SUPERVISORS));
        String asked = Fx.call(() -> ((Label) bobsEditor.stage().getScene().lookup("#" + EditorIds.ASKED_SUPERVISORS))
                .getText());
        assertThat(asked).matches("Asked the supervisors at \\d\\d:\\d\\d");

        Fx.await("the request in Sam's window", () -> Fx.call(() -> !inbox.requests().isEmpty()));
        SupervisorInboxViewModel.Request request = Fx.call(() -> inbox.requests().get(0));
        assertThat(request.message().fromUser()).isEqualTo(team.bob());
        assertThat(request.message().text()).isEqualTo(expected + " — a caller is waiting");
        assertThat(request.heading()).startsWith(team.bob() + " asked at ").endsWith(" about customer " + stored.id());
        assertThat(robot.lookup("#" + SupervisorInboxView.ID).query().isVisible()).isTrue();
        String shownText = request.message().text();
        assertThat(robot.lookup((javafx.scene.Node n) -> n instanceof Label l && shownText.equals(l.getText()))
                .tryQuery()).as("the text on Sam's screen").isPresent();

        List<Window> before = Fx.call(() -> List.copyOf(Window.getWindows()));
        Fx.run(() -> samsWindow.stage().toFront()); // the editors stand beside it: a click must land on it
        robot.clickOn("#" + SupervisorInboxView.OPEN_PREFIX + request.message().id());
        Fx.await("Sam's editor window", () -> samsEditor(before).isPresent());
        EditorWindowHandle samsEditor = EditorWindowHandle.of(robot, samsEditor(before).orElseThrow());
        samsEditor.awaitLockMessage(team.alice() + " is editing this customer");
        Fx.await("Break lock… in Sam's lock bar", () -> samsEditor.shown(EditorIds.BREAK_LOCK_BUTTON));
        assertThat(samsEditor.shown(EditorIds.ASK_SUPERVISOR_BUTTON)).isFalse();

        samsEditor.clickBreakLock().awaitQuestion().answer("Break lock");
        samsEditor.awaitLockMessage("Locked for you until ");
        alicesEditor.awaitLockMessage("Edit lock lost — " + team.sam() + " broke your lock at ");
        assertThat(new JdbiLeaseRepository(DATABASES.get(0).jdbi(), team.alice(), "reader").events(stored.id())
                .stream().map(LeaseEvent::kind)).contains(LeaseEvent.Kind.BROKEN);
    }

    private static Optional<Stage> samsEditor(List<Window> before) {
        return Fx.call(() -> Window.getWindows().stream().filter(w -> !before.contains(w))
                .filter(w -> w instanceof Stage s && s.getUserData() instanceof CustomerEditorView)
                .map(w -> (Stage) w).findFirst());
    }
}
