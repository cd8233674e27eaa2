package org.lockstep.ui.editor;

import org.lockstep.domain.ConcurrencyMode;
import static org.assertj.core.api.Assertions.assertThat;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import javafx.application.Platform;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.lockstep.server.Database;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.CustomerRepository;
import org.lockstep.domain.SaveOutcome;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.FreshDatabase;
import org.lockstep.testing.fx.WindowTest;
import org.lockstep.ui.Sessions;
import org.lockstep.ui.EditorServices;
import org.lockstep.ui.FxTaskExecutor;
import org.lockstep.ui.guihandles.EditorWindowHandle;
import org.lockstep.ui.guihandles.Fx;
import org.testfx.api.FxRobot;

/**
 * Hot-record advice in an editor window driven by the robot against a real database: a customer on which versioned
 * saves met newer versions three times shows the advice in its editor's header, and its button switches the editor
 * to Lock for editing.
 */
@WindowTest
@DatabaseTest
@Timeout(120)
class HotRecordWindowTest {

    static final AtomicInteger REFS = new AtomicInteger();
    @FreshDatabase
    static Database db;
    static CustomerRepository bob;
    static CustomerRepository carol;
    static FxTaskExecutor aliceExecutor;
    static EditorServices aliceServices;

    final FxRobot robot = new FxRobot();

    @BeforeAll
    static void start() throws TimeoutException {
        bob = Sessions.repository(db, "Bob");
        carol = Sessions.repository(db, "Carol");
        aliceExecutor = new FxTaskExecutor(2);
        aliceServices = Sessions.services(db, "Alice", aliceExecutor, Platform::runLater, Sessions.quickLocks());
    }

    @AfterAll
    static void stop() {
        aliceExecutor.closeAndWait(java.time.Duration.ofSeconds(10)); // in-flight calls end before the database closes
    }

    /** Carol saved version 2; Bob's three saves based on version 1 each met it. */
    static Customer aHotCustomer() {
        Customer c = carol.create(aCustomer().with(CustomerField.EXTERNAL_REF, "HOT-UI-" + REFS.incrementAndGet())
                .build());
        carol.save(c.id(), 1, c.data().with(CustomerField.CITY, "Curitiba"));
        for (int i = 0; i < 3; i++) {
            assertThat(bob.save(c.id(), 1, c.data())).isInstanceOf(SaveOutcome.Conflict.class);
        }
        return c;
    }

    EditorWindowHandle aliceOpens(Customer c) {
        return EditorWindowHandle.open(robot, aliceServices, c.id(), 0);
    }

    @Test
    void aHotCustomersEditorShowsTheAdviceWholeInANarrowWindow() {
        EditorWindowHandle editor = aliceOpens(aHotCustomer());
        Fx.run(() -> editor.stage().setWidth(560));

        Fx.await("the hot-record advice", () -> editor.hotRecordAdvice() != null);

        assertThat(editor.hotRecordAdvice()).isEqualTo("Often edited at the same time — consider Lock for editing");
        assertThat(editor.hotRecordDetail()).isEqualTo("3 conflicts on this customer in the last 7 days");
        assertThat(editor.lockModeSelected()).isFalse();
        assertThat(editor.fitsInWindow("switchToLockButton")).as("the button inside a 560 px window").isTrue();
        assertThat(editor.shownInFull("hotRecordAdvice")).as("the advice not cut off").isTrue();
    }

    @Test
    void useLockForEditingSwitchesTheEditorToLockModeAndTheAdviceGoes() {
        EditorWindowHandle editor = aliceOpens(aHotCustomer());
        Fx.await("the hot-record advice", () -> editor.hotRecordAdvice() != null);

        editor.clickUseLockForEditing();

        Fx.await("lock for editing selected", editor::lockModeSelected);
        assertThat(editor.viewModel().lock().modeProperty().get())
                .isEqualTo(org.lockstep.domain.ConcurrencyMode.LOCK_FOR_EDITING);
        assertThat(editor.hotRecordAdvice()).isNull();
        assertThat(editor.shown("hotRecordBar")).as("the advice and its button").isFalse();
    }
}
