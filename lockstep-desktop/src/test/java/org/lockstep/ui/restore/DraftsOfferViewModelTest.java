package org.lockstep.ui.restore;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.lockstep.concurrency.TaskExecutor;
import org.lockstep.domain.ConcurrencyMode;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerField;
import org.lockstep.drafts.Draft;
import org.lockstep.drafts.MergeDraft;
import org.lockstep.ui.drafts.InMemoryDrafts;

/** The start's offer of drafts (issue 28) over the in-memory journal, its disk work on the test's thread. */
class DraftsOfferViewModelTest {

    final InMemoryDrafts drafts = new InMemoryDrafts();
    final List<Draft> opened = new ArrayList<>();
    final DraftsOfferViewModel offer = new DraftsOfferViewModel(drafts, TaskExecutor.sameThread(), "Alice",
            opened::add, ZoneOffset.UTC);

    static Draft draft(String key, String operator, OptionalLong id, String company) {
        return new Draft(key, id, id.isPresent() ? 2 : 0,
                id.isPresent() ? CustomerData.EMPTY.with(CustomerField.COMPANY, company) : CustomerData.EMPTY,
                id.isPresent() ? Map.of(CustomerField.PHONE, "+55 11 4000-1111", CustomerField.CITY, "Curitiba")
                        : Map.of(CustomerField.COMPANY, company),
                ConcurrencyMode.OPTIMISTIC, OptionalLong.empty(), operator, Instant.parse("2026-12-04T10:15:30Z"),
                Optional.empty());
    }

    @BeforeEach
    void endedClientsLeftDrafts() {
        drafts.leftByEndedClient(draft("a-1", "Alice", OptionalLong.of(4), "Embraer"));
        drafts.leftByEndedClient(draft("a-2", "Alice", OptionalLong.empty(), "Natura"));
        drafts.leftByEndedClient(draft("b-1", "Bob", OptionalLong.of(5), "Vale"));
        offer.start();
    }

    @Test
    void onlyThisOperatorsDraftsAreOfferedEachInOneLine() {
        assertThat(offer.offered()).extracting(Draft::key).containsExactly("a-1", "a-2");
        assertThat(offer.headline().get()).isEqualTo("Unsaved changes to 2 customers from before Lockstep closed");
        assertThat(offer.describe(offer.offered().get(0))).startsWith("Embraer (Customer #4): ")
                .contains("Phone").contains("City").endsWith(" — Dec 4, 2026, 10:15 AM");
        assertThat(offer.describe(offer.offered().get(1))).startsWith("New customer Natura: Company — ");
    }

    @Test
    void restoreOpensTheDraftAndKeepsItTillTheEditorSavesOrDiscardsIt() throws IOException {
        offer.restore(offer.offered().get(0));

        assertThat(opened).extracting(Draft::key).containsExactly("a-1");
        assertThat(offer.offered()).extracting(Draft::key).containsExactly("a-2");
        assertThat(offer.headline().get()).isEqualTo("Unsaved changes to 1 customer from before Lockstep closed");
        assertThat(drafts.drafts()).extracting(Draft::key).contains("a-1");
    }

    @Test
    void discardAllRemovesTheOfferedDraftsAndLeavesAnotherOperatorsKept() throws IOException {
        offer.discardAll();

        assertThat(offer.offered()).isEmpty();
        assertThat(opened).isEmpty();
        assertThat(drafts.drafts()).isEmpty();
        assertThat(drafts.adoptOrphans("Bob")).as("kept for Bob's next start").extracting(Draft::key)
                .containsExactly("b-1");
    }

    @Test
    void aDraftOfAMergeSaysWithWhichVersionAndDraftsKeptBeforeAreOfferedFirst() {
        Draft merging = new Draft("a-3", OptionalLong.of(6), 2, CustomerData.EMPTY.with(CustomerField.COMPANY,
                "Gerdau"), Map.of(CustomerField.CITY, "Lisboa"), ConcurrencyMode.OPTIMISTIC, OptionalLong.empty(),
                "Alice", Instant.parse("2026-12-04T10:15:30Z"), Optional.of(new MergeDraft(3, CustomerData.EMPTY
                        .with(CustomerField.CITY, "Porto"), Map.of(CustomerField.CITY, "Lisboa"),
                        Map.of(CustomerField.CITY, MergeDraft.Choice.mine()))));
        drafts.leftByEndedClient(draft("a-4", "Alice", OptionalLong.of(7), "Tupy"));
        DraftsOfferViewModel afterTheDatabaseCameBack = new DraftsOfferViewModel(drafts, TaskExecutor.sameThread(),
                "Alice", opened::add, ZoneOffset.UTC);

        afterTheDatabaseCameBack.start(List.of(merging));

        assertThat(afterTheDatabaseCameBack.offered()).extracting(Draft::key).containsExactly("a-3", "a-4");
        assertThat(afterTheDatabaseCameBack.describe(merging))
                .isEqualTo("Gerdau (Customer #6): City — in a merge with version 3 — Dec 4, 2026, 10:15 AM");
    }

    @Test
    void aStartOffersThisOperatorsDraftsWithSomethingTypedOrAMerge() {
        Draft typed = draft("a-5", "Alice", OptionalLong.of(4), "Embraer");
        Draft nothing = new Draft("a-6", OptionalLong.of(4), 2, CustomerData.EMPTY, Map.of(),
                ConcurrencyMode.OPTIMISTIC, OptionalLong.empty(), "Alice", Instant.EPOCH, Optional.empty());
        Draft onlyChoices = new Draft("a-7", OptionalLong.of(4), 2, CustomerData.EMPTY, Map.of(),
                ConcurrencyMode.OPTIMISTIC, OptionalLong.empty(), "Alice", Instant.EPOCH,
                Optional.of(new MergeDraft(3, CustomerData.EMPTY, Map.of())));

        assertThat(DraftsOfferViewModel.offerable(typed, "Alice")).isTrue();
        assertThat(DraftsOfferViewModel.offerable(typed, "Bob")).isFalse();
        assertThat(DraftsOfferViewModel.offerable(nothing, "Alice")).isFalse();
        assertThat(DraftsOfferViewModel.offerable(onlyChoices, "Alice")).isTrue();
    }

    @Test
    void twoDraftsOfOneCustomerAreOneCustomerInTheHeadline() {
        drafts.leftByEndedClient(draft("a-8", "Alice", OptionalLong.of(4), "Embraer"));
        DraftsOfferViewModel next = new DraftsOfferViewModel(drafts, TaskExecutor.sameThread(), "Alice",
                opened::add, ZoneOffset.UTC);

        next.start(List.copyOf(offer.offered()));

        assertThat(next.offered()).extracting(Draft::key).containsExactly("a-1", "a-2", "a-8");
        assertThat(next.headline().get()).isEqualTo("Unsaved changes to 2 customers from before Lockstep closed");
    }
}
