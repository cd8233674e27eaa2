package org.lockstep.ui.demo;

import org.lockstep.domain.ConcurrencyMode;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javafx.scene.control.TabPane;
import javafx.scene.control.TextInputControl;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.lockstep.server.Database;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.HistoryEntry;
import org.lockstep.domain.LeaseInfo;
import org.lockstep.store.JdbiCustomerRepository;
import org.lockstep.store.JdbiHistoryRepository;
import org.lockstep.store.JdbiLeaseRepository;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.fx.WindowSessions;
import org.lockstep.testing.fx.WindowTest;
import org.lockstep.ui.editor.EditorIds;
import org.lockstep.ui.guihandles.Fx;
import org.lockstep.ui.lock.EditLockViewModel;
import org.lockstep.editing.LockState;
import org.testfx.api.FxRobot;

/**
 * The seven trainer scenarios end to end, headless: the demo's real windows (Alice and Bob, each its own pool and
 * session, with live feeds) driven by the Trainer panel's steps, asserting after every step what the database holds.
 * Leases last 3 s here so that scenario 5's lapse comes quickly.
 */
@WindowTest(closeWindowsAfterEachTest = false)
@DatabaseTest
@Timeout(300)
class TrainerScenariosTest {

    static final Duration TTL = Duration.ofSeconds(3);
    @RegisterExtension
    static final WindowSessions SESSIONS = new WindowSessions();
    static Database db;
    static DemoSession demo;
    static JdbiCustomerRepository reader;
    static JdbiHistoryRepository history;
    static JdbiLeaseRepository leases;
    final FxRobot robot = new FxRobot();

    @BeforeAll
    static void openDemo() {
        db = SESSIONS.db();
        reader = new JdbiCustomerRepository(db.jdbi(), "Test");
        history = new JdbiHistoryRepository(db.jdbi());
        leases = new JdbiLeaseRepository(db.jdbi(), "Test", "test-reader");
        demo = SESSIONS.demo(TTL);
    }

    /**
     * A test that failed mid-scenario leaves a step running or an error showing; Reset data puts the trainer back,
     * so the next test starts from an idle panel rather than failing for this one's reason.
     */
    @AfterEach
    void leaveTheTrainerIdle() {
        if (Fx.call(() -> demo.trainer().runningProperty().get() || !demo.trainer().errorProperty().get().isEmpty())) {
            await(Fx.call(() -> demo.trainer().reset()));
            Fx.await("the trainer idle", () -> !demo.trainer().runningProperty().get());
        }
    }

    @Test
    void operatorWindowsAreTwoClientsSideBySideWithTheirNamesAndTheTrainerBelow() {
        assertThat(Fx.call(() -> demo.alice().stage().getTitle())).isEqualTo("Alice — Lockstep demo");
        assertThat(Fx.call(() -> demo.bob().stage().getTitle())).isEqualTo("Bob — Lockstep demo");
        assertThat(Fx.call(() -> demo.alice().stage().getX() + demo.alice().stage().getWidth()))
                .isLessThanOrEqualTo(Fx.call(() -> demo.bob().stage().getX()) + 1);
        assertThat(Fx.call(() -> demo.trainerStage().getY()))
                .isGreaterThanOrEqualTo(
                        Fx.call(() -> demo.alice().stage().getY() + demo.alice().stage().getHeight()) - 1);
        assertThat(Fx.call(() -> demo.alice().editor().user())).isEqualTo("Alice");
        assertThat(Fx.call(() -> demo.bob().editor().user())).isEqualTo("Bob");
        assertThat(Fx.call(() -> demo.trainer().scenarios().size())).isEqualTo(7);
    }

    @Test
    void lostUpdateInLastWriteWinsModeDropsAlicesChangeWithoutAnError() {
        choose(1);
        step(); // 1: both open
        Customer start = byRef("DEMO-1").orElseThrow();
        assertThat(start.version()).isEqualTo(1);
        assertThat(start.data().creditLimit()).isEqualByComparingTo("1000.00");
        step(); // 2: both unsafe
        assertThat(Fx.call(() -> demo.bob().editor().lock().modeProperty().get()))
                .isEqualTo(ConcurrencyMode.LAST_WRITE_WINS);
        step(); // 3: Alice types
        step(); // 4: Bob types
        assertThat(current(start).version()).isEqualTo(1);
        step(); // 5: Alice saves
        assertThat(current(start).version()).isEqualTo(2);
        assertThat(current(start).data().creditLimit()).isEqualByComparingTo("1100.00");
        assertThat(current(start).updatedBy()).isEqualTo("Alice");
        step(); // 6: Bob saves blindly
        Customer end = current(start);
        assertThat(end.version()).isEqualTo(3);
        assertThat(end.data().creditLimit()).isEqualByComparingTo("1250.00");
        assertThat(end.updatedBy()).isEqualTo("Bob");
        assertThat(Fx.call(() -> demo.bob().editor().conflicts().mergeProperty().get())).isNull();
        step(); // 7: the History tab
        List<HistoryEntry> versions = history.history(start.id());
        assertThat(versions).extracting(HistoryEntry::version, HistoryEntry::changedBy)
                .contains(org.assertj.core.groups.Tuple.tuple(2L, "Alice"),
                        org.assertj.core.groups.Tuple.tuple(3L, "Bob"));
        assertThat(history.valuesAt(start.id(), 2).orElseThrow().creditLimit()).isEqualByComparingTo("1100.00");
        assertThat(Fx.call(() -> ((TabPane) demo.alice().stage().getScene().lookup("#" + EditorIds.TABS))
                .getSelectionModel()
                .getSelectedItem().getText())).isEqualTo("History");
        assertThat(Fx.call(() -> demo.trainer().errorProperty().get())).isEmpty();
    }

    /**
     * Scenario 1 ends on Alice's History tab; Reset data puts the fields back in view for the next scenario's first
     * step. The main window's editor is out of the window while it has no customer (EditorPane), so the reset chooses
     * Details before it empties the editor: after it, the tab was not found and History stayed.
     */
    @Test
    void afterResetDataTheEditorsShowTheFieldsAgainNotTheHistoryTabTheLastScenarioLeft() {
        choose(1);
        step(); // 1: both open
        Fx.run(() -> tabs(demo.alice()).getSelectionModel().select(1));
        assertThat(Fx.call(() -> tabs(demo.alice()).getSelectionModel().getSelectedItem().getText()))
                .isEqualTo("History");

        await(Fx.call(() -> demo.trainer().reset()));
        step(); // 1 again: both open

        assertThat(Fx.call(() -> tabs(demo.alice()).getSelectionModel().getSelectedItem().getText()))
                .isEqualTo("Details");
        assertThat(Fx.call(() -> tabs(demo.bob()).getSelectionModel().getSelectedItem().getText()))
                .isEqualTo("Details");
    }

    private static TabPane tabs(Operator operator) {
        return (TabPane) operator.stage().getScene().lookup("#" + EditorIds.TABS);
    }

    @Test
    void optimisticSavesOfDifferentFieldsMergeByThemselves() {
        choose(2);
        step();
        Customer start = byRef("DEMO-2").orElseThrow();
        step(); // Alice's phone
        step(); // Bob's email
        step(); // Alice saves
        assertThat(current(start).version()).isEqualTo(2);
        assertThat(current(start).data().phone()).isEqualTo("+47 22 99 88 77");
        step(); // Bob saves: zero rows, the merge opens
        assertThat(current(start).version()).isEqualTo(2);
        assertThat(Fx.call(() -> demo.bob().editor().conflicts().mergeProperty().get())).isNotNull();
        step(); // Save merged
        Customer end = current(start);
        assertThat(end.version()).isEqualTo(3);
        assertThat(end.data().phone()).isEqualTo("+47 22 99 88 77");
        assertThat(end.data().email()).isEqualTo("sales@nordicpine.example");
        assertThat(end.updatedBy()).isEqualTo("Bob");
    }

    @Test
    void optimisticSavesOfTheSameFieldAskBobWhoDecides() {
        choose(3);
        step();
        Customer start = byRef("DEMO-3").orElseThrow();
        step();
        step();
        step(); // Alice saves 5000
        assertThat(current(start).data().creditLimit()).isEqualByComparingTo("5000.00");
        step(); // Bob's merge opens on the conflict
        assertThat(current(start).version()).isEqualTo(2);
        assertThat(Fx.call(() -> demo.bob().editor().conflicts().mergeProperty().get())).isNotNull();
        step(); // theirs, Save merged
        Customer end = current(start);
        assertThat(end.version()).isEqualTo(3);
        assertThat(end.data().creditLimit()).isEqualByComparingTo("5000.00");
        assertThat(end.data().notes()).isEqualTo("Pays within 14 days.");
    }

    @Test
    void lockForEditingBlocksBobWhoGetsTheRecordWhenAliceLetsGo() {
        choose(4);
        step();
        Customer start = byRef("DEMO-4").orElseThrow();
        step(); // Alice locks
        assertThat(leases.holder(start.id())).map(LeaseInfo::holder).contains("Alice");
        step(); // Bob blocked
        assertThat(Fx.call(() -> demo.bob().editor().lock().stateProperty().get()))
                .isInstanceOf(LockState.HeldByOther.class);
        assertThat(Fx.call(() -> demo.bob().editor().lock().messageProperty().get())).contains("Alice");
        step(); // Alice saves under the lease
        assertThat(current(start).version()).isEqualTo(2);
        assertThat(current(start).data().contactTitle()).isEqualTo("Head of sales");
        assertThat(leases.holder(start.id())).map(LeaseInfo::holder).contains("Alice");
        step(); // Alice lets go
        assertThat(leases.holder(start.id())).isEmpty();
        step(); // Bob saves
        Customer end = current(start);
        assertThat(end.version()).isEqualTo(3);
        assertThat(end.data().phone()).isEqualTo("+47 55 20 30 99");
        assertThat(end.data().contactTitle()).isEqualTo("Head of sales");
        assertThat(end.updatedBy()).isEqualTo("Bob");
    }

    @Test
    void aFrozenHoldersLeaseLapsesBobTakesOverAndTheLateSaveIsFenced() {
        choose(5);
        step();
        Customer start = byRef("DEMO-5").orElseThrow();
        step(); // Alice locks
        long alicesToken = leases.holder(start.id()).orElseThrow().token();
        step(); // Alice types
        step(); // Bob waits in lock mode
        step(); // Alice saves and freezes
        assertThat(current(start).version()).isEqualTo(1);
        step(); // the lease lapses, Bob takes over
        LeaseInfo bobs = leases.holder(start.id()).orElseThrow();
        assertThat(bobs.holder()).isEqualTo("Bob");
        assertThat(bobs.token()).isGreaterThan(alicesToken);
        step(); // Bob saves under his lease
        assertThat(current(start).version()).isEqualTo(2);
        step(); // Alice wakes: her save is refused by the fencing token
        Customer end = current(start);
        assertThat(end.version()).isEqualTo(2);
        assertThat(end.data().creditLimit()).isEqualByComparingTo("18000.00");
        assertThat(end.updatedBy()).isEqualTo("Bob");
        assertThat(Fx.call(() -> demo.alice().editor().lock().stateProperty().get()))
                .isInstanceOf(LockState.Lost.class);
        assertThat(Fx.call(() -> ((TextInputControl) demo.alice().stage().getScene().lookup(
                "#" + EditorIds.field(CustomerField.CREDIT_LIMIT)))
                .getText())).isEqualTo("25000.00");
    }

    @Test
    void anEditMeetingADeleteIsRecreatedWithAlicesValues() {
        choose(6);
        step();
        Customer start = byRef("DEMO-6").orElseThrow();
        step(); // Alice types
        step(); // Bob deletes
        assertThat(reader.find(start.id())).isEmpty();
        step(); // Alice saves: the deleted flow
        assertThat(byRef("DEMO-6")).isEmpty();
        assertThat(Fx.call(() -> demo.alice().editor().conflicts().mergeProperty().get())).isNotNull();
        step(); // re-create
        Customer recreated = byRef("DEMO-6").orElseThrow();
        assertThat(recreated.id()).isNotEqualTo(start.id());
        assertThat(recreated.version()).isEqualTo(1);
        assertThat(recreated.data().phone()).isEqualTo("+46 8 555 0199");
        assertThat(recreated.updatedBy()).isEqualTo("Alice");
    }

    @Test
    void runAllRunsEveryStepAndResetDataPutsTheCustomerBack() throws Exception {
        choose(2);
        await(Fx.call(() -> demo.trainer().runAll()));
        assertThat(Fx.call(() -> demo.trainer().doneProperty().get())).isEqualTo(6);
        assertThat(byRef("DEMO-2").orElseThrow().version()).isEqualTo(3);
        robot.clickOn("#resetData");
        Fx.await("the reset", () -> Fx.call(() -> !demo.trainer().runningProperty().get()
                && demo.trainer().noticeProperty().get().startsWith("Data reset")));
        Customer fresh = byRef("DEMO-2").orElseThrow();
        assertThat(fresh.version()).isEqualTo(1);
        assertThat(fresh.data().email()).isEqualTo("orders@nordicpine.example");
        assertThat(Fx.call(() -> demo.trainer().doneProperty().get())).isZero();
        assertThat(Fx.call(() -> demo.alice().editor().buffer().baseProperty().get())).isNull();
        robot.clickOn("#nextStep");
        Fx.await("step 1 by the Next step button", () -> Fx.call(() -> demo.trainer().doneProperty().get() == 1));
        assertThat(byRef("DEMO-2").orElseThrow().id()).isEqualTo(fresh.id());
    }

    @Test
    void aStepThatCannotBeCarriedOutSaysWhyAndWaitsForResetData() {
        choose(2);
        step();
        step();
        step(); // Bob typed the email
        Fx.run(() -> demo.bob().editor().revert()); // the trainer drops Bob's edit by hand
        step(); // Alice saves

        CompletableFuture<Void> failing = Fx.call(() -> demo.trainer().runNext());

        Fx.await("the failed step", failing::isDone);
        assertThat(failing).isCompletedExceptionally();
        assertThat(Fx.call(() -> demo.trainer().errorProperty().get()))
                .startsWith("Step 5 could not be carried out: Bob cannot click \"Save\": it is disabled.");
        assertThat(Fx.call(() -> demo.trainer().canRunNextProperty().get())).isFalse();
        await(Fx.call(() -> demo.trainer().reset()));
        assertThat(Fx.call(() -> demo.trainer().canRunNextProperty().get())).isTrue();
        assertThat(Fx.call(() -> demo.trainer().errorProperty().get())).isEmpty();
        assertThat(byRef("DEMO-2").orElseThrow().version()).isEqualTo(1);
    }

    @Test
    void resetDataStopsARunningScenarioAndNothingOfItReachesTheFreshData() {
        choose(5);
        CompletableFuture<Void> run = Fx.call(() -> demo.trainer().runAll());
        Fx.await("Alice frozen mid-save", () -> Fx.call(() -> demo.trainer().doneProperty().get() >= 5));

        await(Fx.call(() -> demo.trainer().reset()));

        Fx.await("Run all to end", run::isDone);
        Customer fresh = byRef("DEMO-5").orElseThrow();
        assertThat(fresh.version()).isEqualTo(1);
        assertThat(Fx.call(() -> demo.alice().freeze().frozenProperty().get())).isFalse();
        org.awaitility.Awaitility.await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(5))
                .until(() -> Fx.call(() -> demo.trainer().doneProperty().get() == 0
                        && !demo.trainer().runningProperty().get()));
        Customer after = reader.find(fresh.id()).orElseThrow();
        assertThat(after.version()).isEqualTo(1);
        assertThat(after.data().creditLimit()).isEqualByComparingTo("20000.00");
        assertThat(leases.holder(fresh.id())).isEmpty();
    }

    @Test
    void blackFridayOversellsWithoutControlAndEverySafeStrategyStopsAtZero() {
        choose(7);
        boolean shown = Fx.call(() -> demo.trainerStage().getScene().lookup("#black-friday").isVisible());
        assertThat(shown).isTrue();

        step(); // 1: none
        org.lockstep.lab.StrategyResult none = Fx.call(() -> blackFriday().results().get(0));
        int noneStock = labStock("none");
        assertThat(none.confirmed()).isEqualTo(8);
        assertThat(5 - noneStock).as("units sold by none, from the database").isLessThan(8);
        assertThat(none.oversold()).isTrue();

        step(); // 2: the safe strategies
        int raced = Fx.call(() -> blackFriday().results().size());
        assertThat(raced).isEqualTo(5);
        for (String safe : List.of("optimistic", "pessimistic", "conditional", "lease")) {
            org.lockstep.lab.StrategyResult r = Fx.call(() -> blackFriday().results().stream()
                    .filter(x -> x.strategy().id().equals(safe)).findFirst().orElseThrow());
            assertThat(labStock(safe)).as(safe + ": stock from the database, never negative").isZero();
            assertThat(r.confirmed()).as(safe + ": units sold").isEqualTo(5);
            assertThat(r.soldOut() + r.retriesExhausted()).as(safe).isEqualTo(3);
        }

        step(); // 3: the sweep
        int swept = Fx.call(() -> blackFriday().sweepResults().size());
        String verdict = Fx.call(() -> blackFriday().verdictProperty().get());
        int lines = Fx.call(() -> blackFriday().sweepSeries().size());
        assertThat(swept).isEqualTo(10);
        assertThat(verdict).isNotEmpty();
        assertThat(lines).isEqualTo(2);
    }

    private static BlackFridayViewModel blackFriday() {
        return demo.blackFriday();
    }

    private static int labStock(String name) {
        return db.jdbi().withHandle(h -> h.createQuery("SELECT stock FROM lab_stock WHERE name = :name")
                .bind("name", name).mapTo(Integer.class).one());
    }

    private static void choose(int number) {
        Fx.run(() -> demo.trainer().selectedProperty().set(demo.trainer().scenarios().get(number - 1)));
    }

    private static void step() {
        int before = Fx.call(() -> demo.trainer().doneProperty().get());
        await(Fx.call(() -> demo.trainer().runNext()));
        assertThat(Fx.call(() -> demo.trainer().errorProperty().get())).isEmpty();
        assertThat(Fx.call(() -> demo.trainer().doneProperty().get())).isEqualTo(before + 1);
    }

    private static void await(CompletableFuture<Void> f) {
        try {
            f.get(60, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError("The step failed: " + Fx.call(() -> demo.trainer().errorProperty().get()), e);
        }
    }

    private static Optional<Customer> byRef(String ref) {
        return db.jdbi().withHandle(h -> h.createQuery("SELECT id FROM customer WHERE external_ref = :ref")
                .bind("ref", ref).mapTo(Long.class).findOne()).flatMap(reader::find);
    }

    private static Customer current(Customer c) {
        return reader.find(c.id()).orElseThrow();
    }

}
