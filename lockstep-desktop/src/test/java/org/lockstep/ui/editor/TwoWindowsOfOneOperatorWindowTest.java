package org.lockstep.ui.editor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.CustomerRepository;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.fx.WindowSessions;
import org.lockstep.testing.fx.WindowTest;
import org.lockstep.ui.EditorServices;
import org.lockstep.ui.guihandles.EditorWindowHandle;
import org.lockstep.ui.guihandles.Fx;
import org.testfx.api.FxRobot;

/**
 * One operator, two windows (issue 11), through two real editor windows of Alice's one client and the real
 * LISTEN/NOTIFY feed: window A's save reaches dirty window B as "You saved version 2 in another window"; window A's
 * lock makes window B read-only ("You are editing this customer in another window"), its save writes nothing, and Release there in
 * B lets A's lock go while A keeps its edits. A 3 s lease TTL and a 200 ms poll keep every wait short.
 */
@WindowTest
@DatabaseTest
@Timeout(120)
class TwoWindowsOfOneOperatorWindowTest {

    static final AtomicInteger REFS = new AtomicInteger();
    @RegisterExtension
    static final WindowSessions SESSIONS = new WindowSessions();
    static EditorServices alice;

    final FxRobot robot = new FxRobot();
    Customer stored;

    /** One client of Alice's, with its change feed: both windows are hers. */
    @BeforeAll
    static void start() {
        alice = SESSIONS.live(SESSIONS.operator("Alice", SESSIONS.executor(3)));
    }

    @BeforeEach
    void aCustomerExists() {
        stored = database().create(aCustomer().with(CustomerField.EXTERNAL_REF, "TWO-WINDOWS-UI-"
                + REFS.incrementAndGet()).build());
    }

    static CustomerRepository database() {
        return SESSIONS.repository("Reader");
    }

    @Test
    void aSaveInWindowAIsAnnouncedInDirtyWindowBAsYoursFromAnotherWindow() {
        EditorWindowHandle windowA = EditorWindowHandle.open(robot, alice, stored.id(), 0);
        EditorWindowHandle windowB = EditorWindowHandle.open(robot, alice, stored.id(), 640);
        windowB.type(CustomerField.CITY, "Curitiba");

        windowA.type(CustomerField.PHONE, "+55 11 4000-1111").clickSave();
        windowA.awaitVersionLine("version 2 · saved by Alice");

        Fx.await("the live banner in window B", () -> windowB.liveBanner() != null);
        assertThat(windowB.liveBanner()).isEqualTo("You saved version 2 in another window (phone) — Review");
        assertThat(windowB.versionLine()).startsWith("version 1 ");
        assertThat(windowB.text(CustomerField.CITY)).isEqualTo("Curitiba");
        assertThat(windowA.liveBanner()).isNull();
        assertThat(database().find(stored.id()).orElseThrow().data().phone()).isEqualTo("+55 11 4000-1111");
    }

    @Test
    void aLockInWindowAMakesWindowBReadOnlyItsSaveWritesNothingAndReleaseThereFreesIt() {
        EditorWindowHandle windowA = EditorWindowHandle.open(robot, alice, stored.id(), 0);
        EditorWindowHandle windowB = EditorWindowHandle.open(robot, alice, stored.id(), 640);

        windowA.chooseLockForEditing().type(CustomerField.CITY, "Curitiba");
        windowA.awaitLockMessage("Locked for you until ");

        windowB.awaitLockMessage("You are editing this customer in another window");
        assertThat(windowB.lockMessage()).matches("You are editing this customer in another window \\(since "
                + "\\d\\d:\\d\\d:\\d\\d\\)\\. Save there, or Release there to edit here\\.");
        assertThat(windowB.editable(CustomerField.CITY)).isFalse();
        assertThat(windowB.saveEnabled()).isFalse();
        assertThat(windowB.shown("releaseThereButton")).isTrue();
        assertThat(windowB.shown("breakLockButton")).isFalse();
        assertThat(windowB.shown("notifyWhenFree")).isFalse();
        assertThat(windowB.lockButtonEnabled()).isFalse();

        // A save asked of window B's view model, as a shortcut or the demo might: nothing goes out.
        boolean submitted = Fx.call(() -> {
            windowB.viewModel().buffer().text(CustomerField.PHONE).set("+55 11 4000-2222");
            return windowB.viewModel().saves().save();
        });
        assertThat(submitted).isFalse();
        Customer now = database().find(stored.id()).orElseThrow();
        assertThat(now.version()).isEqualTo(1);
        assertThat(now.data().phone()).isEqualTo(stored.data().phone());

        windowB.clickLockBar("releaseThereButton");

        windowA.awaitLockMessage("Lock released from another window — your edits are kept.");
        assertThat(windowA.text(CustomerField.CITY)).isEqualTo("Curitiba");
        assertThat(windowA.title()).startsWith("• ");
        Fx.await("window B to become editable", () -> windowB.editable(CustomerField.CITY));
        assertThat(windowB.lockMessage()).isNull();
        assertThat(database().find(stored.id()).orElseThrow().version()).isEqualTo(1);
    }
}
