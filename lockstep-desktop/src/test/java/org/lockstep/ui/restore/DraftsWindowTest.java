package org.lockstep.ui.restore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import javafx.scene.Scene;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.lockstep.domain.ConcurrencyMode;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.CustomerPageRequest;
import org.lockstep.domain.DeleteOutcome;
import org.lockstep.drafts.Draft;
import org.lockstep.drafts.DraftJournal;
import org.lockstep.drafts.MergeDraft;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.fx.WindowTest;
import org.lockstep.ui.EditorServices;
import org.lockstep.ui.TwoOperators;
import org.lockstep.ui.drafts.JournalDrafts;
import org.lockstep.ui.editor.CustomerEditorWindow;
import org.lockstep.ui.guihandles.EditorWindowHandle;
import org.lockstep.ui.guihandles.Fx;
import org.lockstep.ui.guihandles.MergeDialogHandle;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;

/**
 * Nothing typed is lost (issue 28), end to end on a real database and a real data directory: an editor journals what
 * Alice types within about a second and drops it once saved; at the next start the drafts an ended client left are
 * offered, and a restored one saves as an ordinary versioned save from its base — through the merge when Bob saved
 * meanwhile, as a new customer again when he deleted it.
 */
@WindowTest
@DatabaseTest
@Timeout(120)
class DraftsWindowTest {

    @RegisterExtension
    static final TwoOperators OPERATORS = new TwoOperators();

    final FxRobot robot = new FxRobot();
    @TempDir
    Path dataDir;
    JournalDrafts journal;
    EditorServices alice;

    @BeforeEach
    void aliceKeepsDrafts() throws IOException {
        journal = JournalDrafts.open(dataDir);
        alice = OPERATORS.alice().toBuilder().drafts(journal).build();
    }

    @AfterEach
    void closeWindowsThenTheJournal() throws Exception {
        FxToolkit.cleanupStages();
        // A closing editor removes its draft on Alice's executor: let that happen before the journal closes.
        await().atMost(Duration.ofSeconds(10)).until(() -> journal.drafts().isEmpty());
        journal.close();
    }

    @Test
    void typingLeavesADraftOfTheTypedTextWithinASecondAndSavingRemovesIt() throws IOException {
        Customer stored = OPERATORS.loaded(aCustomer());
        EditorWindowHandle editor = EditorWindowHandle.open(robot, alice, stored.id(), 0);

        editor.type(CustomerField.PHONE, "+55 11 4000-1111");

        // A draft a second while the robot types; the last within a second of its last key.
        await().atMost(Duration.ofSeconds(3)).until(() -> journal.drafts().size() == 1
                && "+55 11 4000-1111".equals(journal.drafts().get(0).typed().get(CustomerField.PHONE)));
        Draft kept = journal.drafts().get(0);
        assertThat(kept.customerId()).hasValue(stored.id());
        assertThat(kept.baseVersion()).isEqualTo(stored.version());
        assertThat(kept.base()).isEqualTo(stored.data());
        assertThat(kept.typed()).containsExactly(Map.entry(CustomerField.PHONE, "+55 11 4000-1111"));
        assertThat(kept.operator()).isEqualTo("Alice");
        assertThat(kept.mode()).isEqualTo(ConcurrencyMode.OPTIMISTIC);
        try (var files = Files.list(journal.directory())) {
            Path file = files.filter(f -> f.toString().endsWith(".json")).findFirst().orElseThrow();
            assertThat(Files.readString(file)).contains("+55 11 4000-1111");
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        }

        editor.clickSave().awaitVersionLine("version 2 · saved by Alice");

        await().atMost(Duration.ofSeconds(3)).until(() -> journal.drafts().isEmpty());
        assertThat(OPERATORS.read(stored.id()).data().phone()).isEqualTo("+55 11 4000-1111");
    }

    @Test
    void anEndedClientsDraftIsOfferedAndRestoredAndMeetsBobsNewerVersionInTheMerge() throws IOException {
        Customer stored = OPERATORS.loaded(aCustomer());
        Draft left = leftByEndedClient(stored, CustomerField.PHONE, "+55 11 4000-2222");
        OPERATORS.saves(OPERATORS.bob(), stored.id(), d -> d.with(CustomerField.EMAIL, "bob@embraer.com.br"));

        AtomicReference<Stage> restored = new AtomicReference<>();
        DraftsOfferViewModel offer = offerAtStart(restored);
        assertThat(Fx.call(() -> robot.lookup("#drafts-headline").queryLabeled().getText()))
                .isEqualTo("Unsaved changes to 1 customer from before Lockstep closed");
        assertThat(Fx.call(() -> robot.lookup("#draft-" + left.key()).queryLabeled().getText()))
                .startsWith(stored.data().displayName() + " (Customer #" + stored.id() + "): Phone — ");
        robot.clickOn("#restore-draft-" + left.key());

        EditorWindowHandle editor = EditorWindowHandle.of(robot, restored.get());
        assertThat(editor.text(CustomerField.PHONE)).isEqualTo("+55 11 4000-2222");
        assertThat(editor.versionLine()).startsWith("version 1");
        assertThat(Fx.call(() -> offer.offered().isEmpty())).isTrue();
        MergeDialogHandle merge = editor.clickSave().awaitMerge();
        assertThat(merge.status(CustomerField.PHONE)).isEqualTo("mine");
        assertThat(merge.status(CustomerField.EMAIL)).isEqualTo("theirs");
        merge.clickAndAwaitClose("save-merged");

        editor.awaitVersionLine("version 3 · saved by Alice");
        Customer read = OPERATORS.read(stored.id());
        assertThat(read.data().phone()).isEqualTo("+55 11 4000-2222");
        assertThat(read.data().email()).isEqualTo("bob@embraer.com.br");
        await().atMost(Duration.ofSeconds(3)).until(() -> journal.drafts().isEmpty());
    }

    @Test
    void aDraftOfACustomerDeletedMeanwhileOffersToCreateItAgainWithItsValues() throws IOException {
        Customer stored = OPERATORS.loaded(aCustomer());
        Draft left = leftByEndedClient(stored, CustomerField.CITY, "Curitiba");
        assertThat(OPERATORS.bob().customers().delete(stored.id(), stored.version()))
                .isInstanceOf(DeleteOutcome.Deleted.class);

        AtomicReference<Stage> restored = new AtomicReference<>();
        offerAtStart(restored);
        robot.clickOn("#restore-draft-" + left.key());

        EditorWindowHandle editor = EditorWindowHandle.ofNew(robot, restored.get());
        assertThat(editor.notice()).isEqualTo("Customer #" + stored.id() + " was deleted after you made these "
                + "changes. Save creates it again with these values.");
        assertThat(editor.text(CustomerField.CITY)).isEqualTo("Curitiba");
        editor.clickSave().awaitVersionLine("version 1 · saved by Alice");

        long created = Fx.call(() -> editor.viewModel().customerId().getAsLong());
        assertThat(created).isNotEqualTo(stored.id());
        Customer read = OPERATORS.read(created);
        assertThat(read.data().city()).isEqualTo("Curitiba");
        assertThat(read.data().company()).isEqualTo(stored.data().company());
        assertThat(read.data().externalRef()).isEqualTo(stored.data().externalRef());
        await().atMost(Duration.ofSeconds(3)).until(() -> journal.drafts().isEmpty());
    }

    @Test
    void aMergesDraftOfACustomerDeletedMeanwhileKeepsWhatTheOperatorSettledInTheMerge() throws IOException {
        Customer stored = OPERATORS.loaded(aCustomer().with(CustomerField.COMPANY, "Borealis SA"));
        Customer bobs = OPERATORS.saves(OPERATORS.bob(), stored.id(), d -> d.with(CustomerField.COMPANY,
                "Borealis Bob").with(CustomerField.PHONE, "+351 22 000 0002"));
        Draft left = new Draft("editor-" + UUID.randomUUID(), OptionalLong.of(stored.id()), stored.version(),
                stored.data(), Map.of(CustomerField.COMPANY, "Borealis Alice", CustomerField.CITY, "Lisboa"),
                ConcurrencyMode.OPTIMISTIC, OptionalLong.empty(), "Alice", Instant.now(), Optional.of(new MergeDraft(
                        bobs.version(), bobs.data(), Map.of(CustomerField.COMPANY, "Borealis Alice & Bob",
                                CustomerField.PHONE, "+351 22 000 0002"),
                        Map.of(CustomerField.COMPANY,
                                MergeDraft.Choice.typed(), CustomerField.PHONE, MergeDraft.Choice.theirs()))));
        leftByEndedClient(left);
        assertThat(OPERATORS.bob().customers().delete(bobs.id(), bobs.version()))
                .isInstanceOf(DeleteOutcome.Deleted.class);

        AtomicReference<Stage> restored = new AtomicReference<>();
        offerAtStart(restored);
        robot.clickOn("#restore-draft-" + left.key());

        EditorWindowHandle editor = EditorWindowHandle.ofNew(robot, restored.get());
        assertThat(editor.text(CustomerField.COMPANY)).as("written into the Result").isEqualTo("Borealis Alice & Bob");
        assertThat(editor.text(CustomerField.PHONE)).as("theirs, chosen").isEqualTo("+351 22 000 0002");
        assertThat(editor.text(CustomerField.CITY)).as("mine").isEqualTo("Lisboa");
        editor.clickSave().awaitVersionLine("version 1 · saved by Alice");
        long created = Fx.call(() -> editor.viewModel().customerId().getAsLong());
        assertThat(OPERATORS.read(created).data().company()).isEqualTo("Borealis Alice & Bob");
        await().atMost(Duration.ofSeconds(3)).until(() -> journal.drafts().isEmpty());
    }

    @Test
    void aRestoredDraftsVersionLineSaysWhoSavedItsBaseNotWhoTypedTheDraft() throws IOException {
        Customer stored = OPERATORS.carol().customers().create(aCustomer().with(CustomerField.EXTERNAL_REF,
                "VL-" + UUID.randomUUID().toString().substring(0, 8)).build());
        Draft left = leftByEndedClient(stored, CustomerField.CITY, "Maringá");
        OPERATORS.saves(OPERATORS.bob(), stored.id(), d -> d.with(CustomerField.EMAIL, "bob@maringa.example"));

        AtomicReference<Stage> restored = new AtomicReference<>();
        offerAtStart(restored);
        robot.clickOn("#restore-draft-" + left.key());

        EditorWindowHandle editor = EditorWindowHandle.of(robot, restored.get());
        assertThat(editor.versionLine()).startsWith("version 1 · saved by Carol at ");
    }

    @Test
    void aDraftWhoseSaveCommittedJustBeforeTheClientEndedRestoresAsSavedWithoutASecondSave() throws IOException {
        // The kill came after the save committed and before the draft was removed: the customer holds the edits.
        Customer stored = OPERATORS.loaded(aCustomer());
        Draft left = leftByEndedClient(stored, CustomerField.PHONE, "+55 11 4000-3333");
        Customer saved = OPERATORS.saves(alice, stored.id(), d -> d.with(CustomerField.PHONE, "+55 11 4000-3333"));

        AtomicReference<Stage> restored = new AtomicReference<>();
        offerAtStart(restored);
        robot.clickOn("#restore-draft-" + left.key());

        EditorWindowHandle editor = EditorWindowHandle.of(robot, restored.get());
        editor.awaitVersionLine("version " + saved.version() + " · saved by Alice");
        assertThat(editor.notice()).isEqualTo("Your changes from before Lockstep closed were saved then: version "
                + saved.version() + " holds them. There is nothing to restore.");
        assertThat(editor.text(CustomerField.PHONE)).isEqualTo("+55 11 4000-3333");
        assertThat(Fx.call(() -> editor.viewModel().buffer().dirtyProperty().get())).isFalse();
        await().atMost(Duration.ofSeconds(3)).until(() -> journal.drafts().isEmpty());
        assertThat(OPERATORS.read(stored.id()).version()).as("no second save").isEqualTo(saved.version());
    }

    @Test
    void aDraftOfAMergeWhoseSaveMergedCommittedRestoresAsSaved() throws IOException {
        Customer stored = OPERATORS.loaded(aCustomer().with(CustomerField.CITY, "Coimbra"));
        Customer bobs = OPERATORS.saves(OPERATORS.bob(), stored.id(), d -> d.with(CustomerField.CITY, "Porto")
                .with(CustomerField.EMAIL, "bob@borealis.example"));
        Draft left = new Draft("editor-" + UUID.randomUUID(), OptionalLong.of(stored.id()), stored.version(),
                stored.data(), Map.of(CustomerField.CITY, "Lisboa"), ConcurrencyMode.OPTIMISTIC, OptionalLong.empty(),
                "Alice", Instant.now(), Optional.of(new MergeDraft(bobs.version(), bobs.data(),
                        Map.of(CustomerField.CITY, "Lisboa"), Map.of(CustomerField.CITY, MergeDraft.Choice.mine()))));
        try (DraftJournal ended = DraftJournal.open(DraftJournal.under(dataDir))) {
            ended.save(left);
        }
        // Save merged committed; the client was killed before the draft went.
        Customer merged = OPERATORS.saves(alice, stored.id(), d -> d.with(CustomerField.CITY, "Lisboa"));

        AtomicReference<Stage> restored = new AtomicReference<>();
        offerAtStart(restored);
        robot.clickOn("#restore-draft-" + left.key());

        EditorWindowHandle editor = EditorWindowHandle.of(robot, restored.get());
        editor.awaitVersionLine("version " + merged.version() + " · saved by Alice");
        assertThat(editor.mergeShowing()).isFalse();
        assertThat(editor.notice()).startsWith("Your changes from before Lockstep closed were saved then");
        await().atMost(Duration.ofSeconds(3)).until(() -> journal.drafts().isEmpty());
        assertThat(OPERATORS.read(stored.id()).version()).isEqualTo(merged.version());
    }

    @Test
    void aNewCustomersDraftWhoseCreateCommittedJustBeforeTheClientEndedIsNeverCreatedTwice() throws Exception {
        String company = "Maschinenbau " + UUID.randomUUID().toString().substring(0, 8);
        Stage stage = Fx.call(() -> CustomerEditorWindow.openNew(alice, c -> {}, id -> {}));
        EditorWindowHandle editor = EditorWindowHandle.ofNew(robot, stage);
        editor.type(CustomerField.COMPANY, company).type(CustomerField.CREDIT_LIMIT, "1234.5");
        await().atMost(Duration.ofSeconds(3)).until(() -> journal.drafts().size() == 1
                && journal.drafts().get(0).typed().equals(Map.of(CustomerField.COMPANY, company,
                        CustomerField.CREDIT_LIMIT, "1234.5")));
        // What the disk held when the client was killed: the draft, and the create committed the instant after.
        Draft onDisk = journal.drafts().get(0);
        editor.clickSave().awaitVersionLine("version 1 · saved by Alice");
        long created = Fx.call(() -> editor.viewModel().customerId().getAsLong());
        Fx.run(stage::close);
        await().atMost(Duration.ofSeconds(3)).until(() -> journal.drafts().isEmpty());
        leftByEndedClient(onDisk);

        AtomicReference<Stage> restored = new AtomicReference<>();
        offerAtStart(restored);
        robot.clickOn("#restore-draft-" + onDisk.key());

        EditorWindowHandle again = EditorWindowHandle.of(robot, restored.get());
        again.awaitVersionLine("version 1 · saved by Alice");
        assertThat(again.notice()).isEqualTo("Your changes from before Lockstep closed were saved then: Customer #"
                + created + " holds them. There is nothing to restore.");
        assertThat(Fx.call(() -> again.viewModel().customerId().getAsLong())).isEqualTo(created);
        await().atMost(Duration.ofSeconds(3)).until(() -> journal.drafts().isEmpty());
        assertThat(customersNamed(company)).extracting(Customer::id).containsExactly(created);
    }

    @Test
    void aDeletedCustomersDraftWhoseRecreateCommittedIsNotRecreatedAgainAndWhatWasTypedAfterIsKept()
            throws Exception {
        Customer stored = OPERATORS.loaded(aCustomer().with(CustomerField.COMPANY,
                "Tupy " + UUID.randomUUID().toString().substring(0, 8)));
        assertThat(OPERATORS.bob().customers().delete(stored.id(), stored.version()))
                .isInstanceOf(DeleteOutcome.Deleted.class);
        // Alice's restored draft of it, a new customer now: its Save created the customer again under the draft's
        // request id, and the client was killed before the draft went. While that create was in flight she had
        // typed a phone too.
        String key = "editor-" + UUID.randomUUID();
        Customer recreated = OPERATORS.alice().customers().create(stored.data().with(CustomerField.CITY, "Joinville"),
                Draft.createRequestOf(key));
        Draft later = new Draft(key, OptionalLong.empty(), 0, CustomerData.EMPTY, Map.of(
                CustomerField.COMPANY, stored.data().company(), CustomerField.CITY, "Joinville",
                CustomerField.EXTERNAL_REF, stored.data().externalRef(), CustomerField.PHONE, "+55 47 3000-0000"),
                ConcurrencyMode.OPTIMISTIC, OptionalLong.empty(), "Alice", Instant.now(), Optional.empty());
        leftByEndedClient(later);

        AtomicReference<Stage> restored = new AtomicReference<>();
        offerAtStart(restored);
        robot.clickOn("#restore-draft-" + later.key());

        EditorWindowHandle editor = EditorWindowHandle.of(robot, restored.get());
        assertThat(editor.notice()).isEqualTo("Customer #" + recreated.id() + " was created from these changes "
                + "before Lockstep closed; what you typed after that is back. Save to keep it.");
        assertThat(editor.text(CustomerField.PHONE)).isEqualTo("+55 47 3000-0000");
        editor.clickSave().awaitVersionLine("version 2 · saved by Alice");
        await().atMost(Duration.ofSeconds(3)).until(() -> journal.drafts().isEmpty());
        assertThat(customersNamed(stored.data().company())).extracting(Customer::id)
                .containsExactly(recreated.id());
        assertThat(OPERATORS.read(recreated.id()).data().phone()).isEqualTo("+55 47 3000-0000");
    }

    private static List<Customer> customersNamed(String company) {
        return OPERATORS.alice().customers().page(CustomerPageRequest.first(company)).stream()
                .filter(c -> company.equals(c.data().company())).toList();
    }

    /** A client of Alice's that journaled {@code draft} and then ended. */
    private void leftByEndedClient(Draft draft) throws IOException {
        try (DraftJournal ended = DraftJournal.open(DraftJournal.under(dataDir))) {
            ended.save(draft); // its close() leaves the draft for the next start
        }
    }

    /** A client of Alice's that journaled {@code text} into {@code field} of {@code base} and then ended. */
    private Draft leftByEndedClient(Customer base, CustomerField field, String text) throws IOException {
        Draft draft = new Draft("editor-" + UUID.randomUUID(), OptionalLong.of(base.id()), base.version(),
                base.data(), Map.of(field, text), ConcurrencyMode.OPTIMISTIC, OptionalLong.empty(), "Alice",
                Instant.now(), Optional.empty());
        try (DraftJournal ended = DraftJournal.open(DraftJournal.under(dataDir))) {
            ended.save(draft); // its close() leaves the draft for the next start
        }
        return draft;
    }

    /** The start's offer in a window of its own, as the main window shows it; Restore opens an editor window. */
    private DraftsOfferViewModel offerAtStart(AtomicReference<Stage> restored) {
        DraftsOfferViewModel offer = Fx.call(() -> {
            DraftsOfferViewModel vm = new DraftsOfferViewModel(journal, alice.executor(), "Alice",
                    d -> restored.set(CustomerEditorWindow.restore(alice, d, c -> {}, id -> {})),
                    ZoneId.systemDefault());
            Stage stage = new Stage();
            stage.setScene(new Scene(new DraftsOfferView(vm).root(), 700, 200));
            stage.show();
            vm.start();
            return vm;
        });
        Fx.await("the drafts to be offered", () -> !offer.offered().isEmpty());
        assertThat(Fx.call(() -> List.copyOf(offer.offered()))).hasSize(1);
        return offer;
    }
}
