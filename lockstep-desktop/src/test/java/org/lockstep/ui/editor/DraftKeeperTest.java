package org.lockstep.ui.editor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.lockstep.concurrency.TaskExecutor;
import org.lockstep.domain.ConcurrencyMode;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.SaveOutcome;
import org.lockstep.drafts.Draft;
import org.lockstep.drafts.MergeDraft;
import org.lockstep.testing.InMemoryCustomerRepository;
import org.lockstep.testing.ManualClock;
import org.lockstep.ui.drafts.InMemoryDrafts;
import org.lockstep.ui.merge.MergeViewModel;
import org.lockstep.ui.merge.Merges;

/**
 * An editor's drafts (issue 28) against the in-memory journal, deterministic: the waits are waiting actions the test
 * runs when their time has come on a {@link ManualClock} ({@link #passes}), the writes run on the test's thread, and a
 * merge is opened through the editor's own {@link ConflictFlow} over the in-memory store.
 */
class DraftKeeperTest {

    static final Instant NOW = Instant.parse("2026-12-04T10:15:30Z");

    /** An action waiting to run at a time. */
    record Waiting(Instant at, Runnable action) {
    }

    final InMemoryDrafts drafts = new InMemoryDrafts();
    /** The journal's writes: at once, until a test holds them in flight. */
    final HeldCalls calls = new HeldCalls();
    final List<Waiting> waiting = new ArrayList<>();
    final ManualClock clock = new ManualClock(NOW);
    final EditorSession session = new EditorSession("alice-1", ZoneOffset.UTC);
    final InMemoryCustomerRepository bob = InMemoryCustomerRepository.empty("Bob");
    final InMemoryCustomerRepository alice = bob.as("Alice").asWriter("alice-client/editor-1");
    final ConflictFlow conflicts = new ConflictFlow(session, new Merges(alice, alice.history(),
            TaskExecutor.sameThread()));
    Customer stored;
    DraftKeeper keeper;

    @BeforeEach
    void aliceEditsACustomerBobCreated() {
        DraftKeeper.Later later = (action, after) -> {
            Waiting w = new Waiting(clock.instant().plus(after), action);
            waiting.add(w);
            return () -> waiting.remove(w);
        };
        keeper = new DraftKeeper(session, conflicts.mergeProperty(), drafts, calls, later,
                () -> ConcurrencyMode.OPTIMISTIC, () -> OptionalLong.of(17), "Alice", clock);
        stored = bob.create(aCustomer().build());
        session.customerId(stored.id());
        session.buffer().reset(stored);
        session.state(EditorState.EDITING);
    }

    /** Time passes on the clock, and whatever was waiting until then runs. */
    void passes(Duration d) {
        clock.advance(d);
        for (Waiting due : List.copyOf(waiting)) {
            if (!due.at().isAfter(clock.instant()) && waiting.remove(due)) {
                due.action().run();
            }
        }
    }

    void aSecondPasses() {
        passes(Duration.ofSeconds(1));
    }

    @Test
    void aSecondAfterTheLastKeystrokeTheTypedTextIsJournaledOnItsBase() throws IOException {
        session.buffer().text(CustomerField.CITY).set("Curi");
        session.buffer().text(CustomerField.CITY).set("Curitiba");
        assertThat(drafts.drafts()).as("nothing before the second").isEmpty();
        assertThat(waiting).as("one wait, the last keystroke's").hasSize(1);

        aSecondPasses();

        Draft kept = drafts.drafts().get(0);
        assertThat(kept.customerId()).hasValue(stored.id());
        assertThat(kept.baseVersion()).isEqualTo(1);
        assertThat(kept.base()).isEqualTo(stored.data());
        assertThat(kept.typed()).isEqualTo(Map.of(CustomerField.CITY, "Curitiba"));
        assertThat(kept.leaseToken()).hasValue(17);
        assertThat(kept.operator()).isEqualTo("Alice");
        assertThat(kept.savedAt()).isEqualTo(NOW.plusSeconds(1));
        assertThat(kept.merge()).isEmpty();
    }

    @Test
    void typingOnWithoutAPauseIsJournaledEverySecondSoAKillLosesAtMostTheLastSecond() throws IOException {
        for (int i = 1; i <= 12; i++) { // a key every 0.2 s for 2.4 s: never a pause
            session.buffer().text(CustomerField.NOTES).set("a".repeat(i));
            passes(Duration.ofMillis(200));
            long written = drafts.drafts().stream().mapToLong(d -> d.typed().get(CustomerField.NOTES).length())
                    .sum();
            // Keys 1-5 are on the disk a second after the first, keys 6-10 a second after the sixth.
            assertThat(written).as("after %d keys, %d ms", i, i * 200).isEqualTo(i < 5 ? 0 : i < 10 ? 5 : 10);
        }
        assertThat(drafts.drafts()).singleElement().satisfies(d -> assertThat(d.savedAt())
                .isEqualTo(NOW.plusSeconds(2)));
    }

    @Test
    void anOpenMergeIsJournaledWithTheVersionMergedAndEachChoiceWithinASecond() throws IOException {
        session.buffer().text(CustomerField.CITY).set("Lisboa");
        session.buffer().text(CustomerField.PHONE).set("+351 21 000 0000");
        Customer theirs = bobSaves(CustomerField.CITY, "Porto");
        MergeViewModel merge = aliceSavesAndMeets();
        aSecondPasses();

        MergeDraft open = drafts.drafts().get(0).merge().orElseThrow();
        assertThat(open.theirsVersion()).isEqualTo(theirs.version());
        assertThat(open.theirs()).isEqualTo(theirs.data());
        assertThat(open.choices()).as("nothing chosen yet").isEmpty();

        merge.row(CustomerField.CITY).useTheirs();
        assertThat(drafts.drafts().get(0).merge().orElseThrow().choices()).as("not before a second").isEmpty();
        aSecondPasses();

        Draft kept = drafts.drafts().get(0);
        assertThat(kept.baseVersion()).isEqualTo(stored.version());
        assertThat(kept.typed()).containsOnlyKeys(CustomerField.CITY, CustomerField.PHONE);
        assertThat(kept.merge().orElseThrow().choices()).containsExactly(
                Map.entry(CustomerField.CITY, MergeDraft.Choice.theirs()));
        assertThat(kept.merge().orElseThrow().resolved()).containsExactly(Map.entry(CustomerField.CITY, "Porto"));

        merge.cancel(); // Back: the edits stay, the merge is gone
        aSecondPasses();
        assertThat(drafts.drafts()).singleElement().satisfies(d -> {
            assertThat(d.merge()).isEmpty();
            assertThat(d.typed()).containsEntry(CustomerField.CITY, "Lisboa");
        });
    }

    @Test
    void aMergeSavedRemovesTheDraft() throws IOException {
        session.buffer().text(CustomerField.CITY).set("Lisboa");
        bobSaves(CustomerField.CITY, "Porto");
        MergeViewModel merge = aliceSavesAndMeets();
        merge.row(CustomerField.CITY).useMine();
        aSecondPasses();
        assertThat(drafts.drafts()).hasSize(1);

        merge.saveMerged();

        assertThat(drafts.drafts()).isEmpty();
        assertThat(bob.find(stored.id()).orElseThrow().data().city()).isEqualTo("Lisboa");
    }

    @Test
    void aRestoredMergeThatCouldNotBeOpenedIsKeptInEveryDraftUntilTheEditsAreGone() throws IOException {
        MergeDraft unopened = new MergeDraft(2, stored.data().with(CustomerField.CITY, "Porto"),
                Map.of(CustomerField.CITY, "Lisboa"), Map.of(CustomerField.CITY, MergeDraft.Choice.mine()));
        session.buffer().text(CustomerField.CITY).set("Lisboa");
        keeper.takeOver("editor-restored", Optional.of(unopened));
        session.buffer().text(CustomerField.PHONE).set("+351 21 000 0000");
        aSecondPasses();

        assertThat(drafts.drafts()).singleElement().satisfies(d -> {
            assertThat(d.key()).isEqualTo("editor-restored");
            assertThat(d.merge()).contains(unopened);
        });

        session.resetTo(stored, null);
        session.buffer().text(CustomerField.PHONE).set("+351 21 000 0001");
        aSecondPasses();
        assertThat(drafts.drafts().get(0).merge()).as("reverted: the merge went with the edits").isEmpty();
    }

    @Test
    void handingOverGivesTheDraftAsItIsAndRemovesNothingAfter() throws IOException {
        session.buffer().text(CustomerField.CITY).set("Curitiba");
        aSecondPasses();
        session.buffer().text(CustomerField.CITY).set("Curitiba 2"); // not yet journaled

        Optional<Draft> handed = keeper.handOver();
        keeper.close();
        aSecondPasses();

        assertThat(handed.orElseThrow().typed()).containsEntry(CustomerField.CITY, "Curitiba 2");
        assertThat(drafts.drafts()).as("left for the editor that takes over").singleElement()
                .satisfies(d -> assertThat(d.typed()).containsEntry(CustomerField.CITY, "Curitiba"));
    }

    Customer bobSaves(CustomerField field, String value) {
        Customer now = bob.find(stored.id()).orElseThrow();
        return ((SaveOutcome.Saved) bob.save(now.id(), now.version(), now.data().with(field, value))).saved();
    }

    /** Alice's save of her edits on her base meets Bob's newer version: the merge opens. */
    MergeViewModel aliceSavesAndMeets() {
        CustomerData mine = session.buffer().currentProperty().get();
        SaveOutcome.Conflict outcome = (SaveOutcome.Conflict) alice.save(stored.id(), stored.version(), mine);
        conflicts.saveConflicted(stored, mine, outcome);
        return conflicts.mergeProperty().get();
    }

    @Test
    void aNewCustomersCreateGoesUnderItsDraftsRequestIdAndTheNextNewCustomerUnderOneOfItsOwn() throws IOException {
        session.customerId(-1);
        session.buffer().reset(null);
        session.state(EditorState.NEW);
        session.buffer().text(CustomerField.COMPANY).set("Natura");
        aSecondPasses();
        UUID first = keeper.createRequest();
        assertThat(first).isEqualTo(drafts.drafts().get(0).createRequest());

        // Alice types on while the create is in flight; it commits.
        EditBuffer.Snapshot mine = session.buffer().snapshot();
        session.buffer().text(CustomerField.PHONE).set("+55 11 4000-1111");
        Customer created = alice.create(mine.data(), first);
        session.savedHere(created, mine);
        aSecondPasses();

        assertThat(keeper.createRequest()).as("the request id is spent").isNotEqualTo(first);
        assertThat(drafts.drafts()).singleElement().satisfies(d -> {
            assertThat(d.customerId()).hasValue(created.id());
            assertThat(d.typed()).containsOnlyKeys(CustomerField.PHONE);
        });
        session.resetTo(created, null);
        session.customerId(-1);
        session.buffer().reset(null);
        session.state(EditorState.NEW);
        assertThat(keeper.createRequest()).isNotEqualTo(first);
    }

    @Test
    void aDraftGoneWhileItsWriteIsInFlightIsRemovedThoughNewEditsFollowAtOnce() throws IOException {
        session.buffer().text(CustomerField.CITY).set("Curitiba");
        calls.hold();
        aSecondPasses(); // the draft's write is in flight
        session.resetTo(stored, null); // reverted: its removal waits for that write
        session.buffer().text(CustomerField.PHONE).set("+55 41 3000-0000");
        aSecondPasses(); // the new edits' draft waits too

        calls.release();

        assertThat(drafts.drafts()).singleElement().satisfies(d -> assertThat(d.typed())
                .containsOnlyKeys(CustomerField.PHONE));
    }

    @Test
    void revertingRemovesTheDraftAtOnce() throws IOException {
        session.buffer().text(CustomerField.CITY).set("Curitiba");
        aSecondPasses();

        session.resetTo(stored, null);

        assertThat(drafts.drafts()).isEmpty();
        assertThat(waiting).isEmpty();
    }

    @Test
    void closingRemovesTheDraftAndNothingIsWrittenAfter() throws IOException {
        session.buffer().text(CustomerField.CITY).set("Curitiba");
        aSecondPasses();
        session.buffer().text(CustomerField.CITY).set("Curitiba 2");

        keeper.close();
        aSecondPasses();

        assertThat(drafts.drafts()).isEmpty();
    }

    @Test
    void aFullDiskIsToldOnceInTheNoticeAndEditingGoesOn() throws IOException {
        drafts.failWith(new IOException("No space left on device"));
        session.buffer().text(CustomerField.CITY).set("Curitiba");
        aSecondPasses();

        EditorNotice told = session.noticeProperty().get();
        assertThat(told.kind()).isEqualTo(EditorNotice.Kind.ERROR);
        assertThat(told.text()).isEqualTo("Your unsaved changes could not be kept on this computer in case Lockstep "
                + "closes (is the disk full?). You can go on editing; save to keep them.");
        assertThat(told.detail()).isEqualTo("No space left on device");
        session.notice(null);
        session.buffer().text(CustomerField.CITY).set("Curitiba 2");
        aSecondPasses();
        assertThat(session.noticeProperty().get()).as("told once").isNull();
        assertThat(session.buffer().text(CustomerField.CITY).get()).isEqualTo("Curitiba 2");
        assertThat(session.buffer().dirtyProperty().get()).isTrue();

        drafts.failWith(null);
        session.buffer().text(CustomerField.CITY).set("Curitiba 3");
        aSecondPasses();
        assertThat(drafts.drafts()).extracting(d -> d.typed().get(CustomerField.CITY)).containsExactly("Curitiba 3");
    }
}
