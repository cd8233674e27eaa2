package org.lockstep.ui.merge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lockstep.domain.CustomerField.CITY;
import static org.lockstep.domain.CustomerField.EMAIL;
import static org.lockstep.domain.CustomerField.NOTES;
import static org.lockstep.domain.CustomerField.PHONE;
import static org.lockstep.domain.CustomerField.REGION;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.lockstep.concurrency.TaskExecutor;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.SaveOutcome;
import org.lockstep.domain.merge.TextMergeResult.HunkChoice;
import org.lockstep.drafts.MergeDraft;
import org.lockstep.testing.InMemoryCustomerRepository;

/**
 * A merge's choices as a draft keeps them, and chosen again in a merge opened from that draft (issue 28), on the
 * in-memory store: exactly as made when the customer is still at the version merged with; when it moved on, mine and
 * what the operator wrote are kept, theirs and part-by-part choices only where theirs' value did not change again.
 *
 * <p>The set-up: Bob created the customer; Alice changed the city, phone, region, email and two lines of the notes;
 * Bob saved the city, phone, region and the same two lines otherwise (version 2); Alice's save met his.
 */
class MergeChoicesTest {

    static final String BASE_NOTES = "one\ntwo\nthree\nfour\nfive";

    final InMemoryCustomerRepository bob = InMemoryCustomerRepository.empty("Bob");
    final InMemoryCustomerRepository alice = bob.as("Alice").asWriter("alice-client/editor-1");
    Customer base;
    CustomerData mine;

    @BeforeEach
    void aliceMeetsBobsVersion() {
        base = bob.create(aCustomer().with(NOTES, BASE_NOTES).build());
        mine = base.data().with(CITY, "Lisboa").with(PHONE, "+351 21 000 0001").with(REGION, "Estremadura")
                .with(EMAIL, "ana@example.pt").with(NOTES, "one\nTWO mine\nthree\nFOUR mine\nfive");
        bobSaves(Map.of(CITY, "Porto", PHONE, "+351 22 000 0002", REGION, "Norte", NOTES,
                "one\nTWO theirs\nthree\nFOUR theirs\nfive"));
    }

    @Test
    void atTheSameVersionEveryChoiceComesBackAsMade() {
        MergeViewModel before = aliceMerges();
        before.row(CITY).useMine();
        before.row(PHONE).useTheirs();
        before.row(NOTES).hunks().get(0).choose(HunkChoice.THEIRS);
        before.row(NOTES).hunks().get(1).choose(HunkChoice.BOTH);
        before.row(REGION).resultProperty().set("Estremadura e Ribatejo");
        before.row(EMAIL).resultProperty().set("ana.silva@example.pt"); // no conflict, rewritten all the same
        MergeDraft kept = before.draft().orElseThrow();

        assertThat(kept.choices()).containsExactlyInAnyOrderEntriesOf(Map.of(CITY, MergeDraft.Choice.mine(),
                PHONE, MergeDraft.Choice.theirs(), NOTES, MergeDraft.Choice.parts(List.of(HunkChoice.THEIRS,
                        HunkChoice.BOTH)),
                REGION, MergeDraft.Choice.typed(), EMAIL, MergeDraft.Choice.typed()));

        MergeViewModel after = aliceMerges();
        after.restoreChoices(kept);

        for (CustomerField field : List.of(CITY, PHONE, NOTES, REGION, EMAIL)) {
            assertThat(after.row(field).getResult()).as(field.label()).isEqualTo(before.row(field).getResult());
            assertThat(after.row(field).getStatus()).as(field.label()).isEqualTo(before.row(field).getStatus());
        }
        assertThat(after.row(PHONE).getStatus()).isEqualTo("Resolved: theirs");
        assertThat(after.row(NOTES).getStatus()).isEqualTo("Resolved: chosen part by part");
        assertThat(after.draft()).contains(kept);
        assertThat(after.canSaveProperty().get()).isTrue();
        assertThat(after.noticeProperty().get()).isEmpty();
    }

    @Test
    void pastANewerVersionMineAndTheTypedStayAndTheirsOnlyWhereTheirsDidNotChangeAgain() {
        MergeViewModel before = aliceMerges();
        before.row(CITY).useMine();
        before.row(PHONE).useTheirs();
        before.row(NOTES).useTheirs();
        before.row(REGION).resultProperty().set("Estremadura e Ribatejo");
        MergeDraft kept = before.draft().orElseThrow();
        // Carol, meanwhile, changed the phone and the region again, and nothing else.
        Customer v3 = bobSaves(Map.of(PHONE, "+351 22 000 0003", REGION, "Minho"));

        MergeViewModel after = aliceMerges();
        after.restoreChoices(kept);

        assertThat(after.theirs().orElseThrow().version()).isEqualTo(v3.version());
        assertThat(after.row(CITY).getStatus()).isEqualTo("Resolved: mine");
        assertThat(after.row(CITY).getResult()).isEqualTo("Lisboa");
        assertThat(after.row(NOTES).getStatus()).as("theirs unchanged: still chosen")
                .isEqualTo("Resolved: their lines");
        assertThat(after.row(REGION).getResult()).isEqualTo("Estremadura e Ribatejo");
        assertThat(after.row(PHONE).getStatus()).as("theirs is a value Alice never saw").isEqualTo("Conflict: choose");
        assertThat(after.row(PHONE).getResult()).isEmpty();
        assertThat(after.progressProperty().get()).isEqualTo("3 of 4 conflicts resolved");
        assertThat(after.noticeProperty().get()).endsWith("saved version " + v3.version()
                + " while you were merging — review the new changes");
    }

    /** Alice's save of her values on the base, as the store answers it now, opens the merge. */
    private MergeViewModel aliceMerges() {
        SaveOutcome.Conflict conflict = (SaveOutcome.Conflict) alice.save(base.id(), base.version(), mine);
        return MergeViewModel.forConflict(alice, alice.history(), TaskExecutor.sameThread(), base, mine, conflict);
    }

    private Customer bobSaves(Map<CustomerField, String> changes) {
        Customer now = bob.find(base.id()).orElseThrow();
        CustomerData data = now.data();
        for (Map.Entry<CustomerField, String> e : changes.entrySet()) {
            data = data.with(e.getKey(), e.getValue());
        }
        return ((SaveOutcome.Saved) bob.save(now.id(), now.version(), data)).saved();
    }
}
