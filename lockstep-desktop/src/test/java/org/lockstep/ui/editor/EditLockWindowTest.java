package org.lockstep.ui.editor;

import org.lockstep.editing.LeaseSettings;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.time.Duration;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.lockstep.server.Database;
import org.lockstep.config.DurationRange;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.LeaseEvent;
import org.lockstep.domain.LeaseInfo;
import org.lockstep.store.JdbiLeaseRepository;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.fx.WindowSessions;
import org.lockstep.testing.fx.WindowTest;
import org.lockstep.ui.EditorServices;
import org.lockstep.ui.FxTaskExecutor;
import org.lockstep.ui.guihandles.EditorWindowHandle;
import org.lockstep.ui.guihandles.Fx;
import org.lockstep.ui.guihandles.QuestionHandle;
import org.lockstep.ui.lock.EditLockViewModel;
import org.testfx.api.FxRobot;

/**
 * Lock for editing (issue 4) through editor windows of three sessions on a real database, with a 3 s lease TTL
 * (renewed every second) and a 200 ms poll, so that every wait is short.
 */
@WindowTest
@DatabaseTest
@Timeout(120)
class EditLockWindowTest {

    static final AtomicInteger REFS = new AtomicInteger();
    @RegisterExtension
    static final WindowSessions SESSIONS = new WindowSessions();
    static Database db;
    static FxTaskExecutor executor;
    static EditorServices alice;
    static EditorServices bob;
    static EditorServices carol;

    final FxRobot robot = new FxRobot();
    Customer stored;

    @BeforeAll
    static void start() {
        db = SESSIONS.db();
        executor = SESSIONS.executor(4);
        alice = SESSIONS.operator("Alice", executor);
        bob = SESSIONS.operator("Bob", executor);
        carol = SESSIONS.operator("Carol", executor);
    }

    @BeforeEach
    void aCustomerExists() {
        stored = alice.customers().create(aCustomer().with(CustomerField.EXTERNAL_REF, "LOCK-UI-"
                + REFS.incrementAndGet()).build());
    }

    @Test
    void aLockShowsInTheOtherWindowEndsWithSaveAndCloseAndABrokenLockKeepsTheFormerHoldersEdits() {
        EditorWindowHandle aliceEditor = EditorWindowHandle.open(robot, alice, stored.id(), 0);
        aliceEditor.chooseLockForEditing().type(CustomerField.CITY, "Curitiba");
        aliceEditor.awaitLockMessage("Locked for you until ");

        EditorWindowHandle bobEditor = EditorWindowHandle.open(robot, bob, stored.id(), 640);
        bobEditor.awaitLockMessage("Alice is editing this customer (since ");
        assertThat(bobEditor.lockMessage())
                .matches("Alice is editing this customer \\(since \\d\\d:\\d\\d:\\d\\d\\)\\. "
                        + "You can read it, and edit it once they are done\\.");
        assertThat(bobEditor.editable(CustomerField.CITY)).isFalse();
        assertThat(bobEditor.saveEnabled()).isFalse();
        assertThat(bobEditor.shown("breakLockButton")).isTrue();
        bobEditor.clickNotifyWhenFree();
        assertThat(bobEditor.notifyWhenFree()).isTrue();

        aliceEditor.requestClose().awaitQuestion().answer("Save");
        Fx.await("Alice's window to close", () -> !aliceEditor.stage().isShowing());
        Customer saved = alice.customers().find(stored.id()).orElseThrow();
        assertThat(saved.version()).isEqualTo(2);
        assertThat(saved.data().city()).isEqualTo("Curitiba");

        bobEditor.awaitVersionLine("version 2 · saved by Alice");
        Fx.await("Bob's editor to become editable", () -> bobEditor.editable(CustomerField.CITY));
        assertThat(bobEditor.text(CustomerField.CITY)).isEqualTo("Curitiba");
        assertThat(bobEditor.notice()).isEqualTo("Alice's lock on this customer ended — it is yours to edit");
        assertThat(leaseEvents().stream().map(LeaseEvent::kind))
                .containsSubsequence(LeaseEvent.Kind.ACQUIRED, LeaseEvent.Kind.RELEASED);

        bobEditor.clickLock().awaitLockMessage("Locked for you until ");
        bobEditor.type(CustomerField.PHONE, "+55 12 3927-1234");

        EditorWindowHandle carolEditor = EditorWindowHandle.open(robot, carol, stored.id(), 0);
        carolEditor.awaitLockMessage("Bob is editing this customer");
        QuestionHandle question = carolEditor.clickBreakLock().awaitQuestion();
        assertThat(question.text()).startsWith("Break Bob's lock on Embraer");
        question.answer("Break lock");
        carolEditor.awaitLockMessage("Locked for you until ");

        bobEditor.awaitLockMessage("Edit lock lost — Carol broke your lock at ");
        assertThat(bobEditor.editable(CustomerField.PHONE)).isFalse();
        assertThat(bobEditor.text(CustomerField.PHONE)).isEqualTo("+55 12 3927-1234");
        assertThat(bobEditor.title()).startsWith("• ");
        assertThat(bobEditor.shown("lockAgainButton")).isTrue();
        assertThat(bobEditor.shown("saveWithoutLockButton")).isTrue();
        assertThat(alice.customers().find(stored.id()).orElseThrow().version()).isEqualTo(2);
        assertThat(leaseEvents().stream().map(LeaseEvent::kind)).contains(LeaseEvent.Kind.BROKEN);
    }

    /**
     * On a team server only supervisors break locks (the database refuses anyone else: TeamServerTrustTest): an
     * operator who is not one is offered no Break lock, and reads who can, in the lock bar.
     */
    @Test
    void anOperatorWhoIsNoSupervisorIsNotOfferedBreakLockButToldWhoCan() {
        EditorServices eve = SESSIONS.operator("Eve", executor)
                .toBuilder().mayBreakLocks(false).build();
        EditorWindowHandle aliceEditor = EditorWindowHandle.open(robot, alice, stored.id(), 0);
        aliceEditor.clickLock().awaitLockMessage("Locked for you until ");

        EditorWindowHandle eveEditor = EditorWindowHandle.open(robot, eve, stored.id(), 640);
        eveEditor.awaitLockMessage("Alice is editing this customer (since ");

        assertThat(eveEditor.shown("breakLockButton")).isFalse();
        assertThat(eveEditor.shown("supervisorOnly")).isTrue();
        assertThat(eveEditor.shown("notifyWhenFree")).isTrue();
        aliceEditor.requestClose();
        eveEditor.requestClose();
        Fx.await("both windows to close", () -> !aliceEditor.stage().isShowing() && !eveEditor.stage().isShowing());
    }

    /**
     * With the shortest lease allowed (5 s, renewed every 1.7 s), the holder's lock bar says until when the lease runs
     * as each renewal extends it — the expiry stored in the database — not the expiry of the first grant.
     */
    @Test
    void theLockBarsExpiryFollowsTheRenewalsOfTheShortestLeaseAllowed() {
        LeaseSettings shortest = new LeaseSettings(DurationRange.LEASE_TTL.min(),
                Duration.ofMinutes(15), Duration.ofMinutes(1), Duration.ofMillis(200));
        EditorServices dora = SESSIONS.operator("Dora", executor, shortest);
        EditorWindowHandle editor = EditorWindowHandle.open(robot, dora, stored.id(), 0);

        editor.clickLock().awaitLockMessage("Locked for you until ");
        String first = editor.lockMessage();
        LeaseInfo grant = new JdbiLeaseRepository(db.jdbi(), "Reader", "reader").holder(stored.id()).orElseThrow();
        assertThat(first).contains("until " + DateTimeFormatter.ofPattern("HH:mm:ss").format(grant.acquiredAt()
                .plus(DurationRange.LEASE_TTL.min()).atZone(ZoneId.systemDefault())) + " (renewed");

        await().atMost(Duration.ofSeconds(Fx.PATIENCE_S)).until(() -> {
            String now = editor.lockMessage();
            return now != null && !now.equals(first) && now.equals(holdersBanner());
        });
        assertThat(leaseEvents().stream().map(LeaseEvent::kind)).containsExactly(LeaseEvent.Kind.ACQUIRED);
    }

    /** What the holder's bar must say for the lease as the database holds it now. */
    private String holdersBanner() {
        LeaseInfo lease = new JdbiLeaseRepository(db.jdbi(), "Reader", "reader").holder(stored.id()).orElseThrow();
        return "Locked for you until " + DateTimeFormatter.ofPattern("HH:mm:ss")
                .format(lease.expiresAt().atZone(ZoneId.systemDefault()))
                + " (renewed while you edit) — others can read"
                + " but not edit";
    }

    private java.util.List<LeaseEvent> leaseEvents() {
        return new JdbiLeaseRepository(db.jdbi(), "Reader", "reader").events(stored.id());
    }
}
