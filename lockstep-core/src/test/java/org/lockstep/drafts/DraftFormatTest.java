package org.lockstep.drafts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.StringLength;
import org.junit.jupiter.api.Test;
import org.lockstep.domain.ConcurrencyMode;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.merge.TextMergeResult.HunkChoice;

/** A draft's JSON gives back exactly what was typed, whatever was typed, and a merge's state with it. */
class DraftFormatTest {

    @Property(tries = 300)
    void anyTextTypedComesBackExactly(@ForAll @StringLength(max = 80) String phone,
            @ForAll @StringLength(max = 80) String notes) throws UnreadableDraftException {
        Map<CustomerField, String> typed = new EnumMap<>(CustomerField.class);
        typed.put(CustomerField.PHONE, phone);
        typed.put(CustomerField.NOTES, notes);
        Draft draft = new Draft("customer-4", OptionalLong.of(4), 3, CustomerData.EMPTY, typed,
                ConcurrencyMode.OPTIMISTIC, OptionalLong.empty(), "alice", Instant.EPOCH, Optional.empty());

        assertThat(DraftFormat.read(DraftFormat.write(draft))).isEqualTo(draft);
    }

    @Test
    void aNewCustomersDraftWithAnOpenMergeAndItsLockTokenComesBackWhole() throws UnreadableDraftException {
        CustomerData theirs = CustomerData.EMPTY.with(CustomerField.CITY, "Montréal")
                .with(CustomerField.CREDIT_LIMIT, new BigDecimal("1250.50"));
        Draft draft = new Draft("new-1f3a", OptionalLong.empty(), 0, CustomerData.EMPTY,
                Map.of(CustomerField.CREDIT_LIMIT, "12,5", CustomerField.CITY, "Mont\u0072e\u0301al 😀 =SUM(A1)"),
                ConcurrencyMode.LOCK_FOR_EDITING, OptionalLong.of(7), "bob", Instant.parse("2026-12-04T10:15:30Z"),
                Optional.of(new MergeDraft(5, theirs, Map.of(CustomerField.CITY, "Laval"))));

        Draft back = DraftFormat.read(DraftFormat.write(draft));

        assertThat(back).isEqualTo(draft);
        assertThat(back.isNewCustomer()).isTrue();
        assertThat(back.merge().orElseThrow().theirs().creditLimit()).isEqualByComparingTo("1250.50");
        assertThat(back.merge().orElseThrow().choices()).containsExactly(
                Map.entry(CustomerField.CITY, MergeDraft.Choice.typed()));
    }

    @Test
    void aMergesChoicesComeBackAsMadeMineTheirsPartByPartAndTyped() throws UnreadableDraftException {
        CustomerData theirs = CustomerData.EMPTY.with(CustomerField.CITY, "Porto")
                .with(CustomerField.PHONE, "+351 22 000 0000").with(CustomerField.NOTES, "a\nB\nc");
        Map<CustomerField, String> resolved = Map.of(CustomerField.CITY, "Lisboa", CustomerField.PHONE,
                "+351 22 000 0000", CustomerField.NOTES, "a\nb\nB\nc", CustomerField.EMAIL, "ana@example.pt");
        Map<CustomerField, MergeDraft.Choice> choices = Map.of(CustomerField.CITY, MergeDraft.Choice.mine(),
                CustomerField.PHONE, MergeDraft.Choice.theirs(),
                CustomerField.NOTES, MergeDraft.Choice.parts(List.of(HunkChoice.BOTH, HunkChoice.THEIRS)),
                CustomerField.EMAIL, MergeDraft.Choice.typed());
        Draft draft = new Draft("editor-7", OptionalLong.of(7), 2, CustomerData.EMPTY,
                Map.of(CustomerField.CITY, "Lisboa"), ConcurrencyMode.OPTIMISTIC, OptionalLong.empty(), "ana",
                Instant.parse("2026-12-04T10:15:30Z"), Optional.of(new MergeDraft(3, theirs, resolved, choices)));

        byte[] json = DraftFormat.write(draft);
        Draft back = DraftFormat.read(json);

        assertThat(back).isEqualTo(draft);
        assertThat(new String(json, StandardCharsets.UTF_8)).contains("\"how\" : \"PARTS\"")
                .contains("\"parts\" : [ \"BOTH\", \"THEIRS\" ]");
    }

    @Test
    void aChoiceWithoutItsResultsTextOrPartsOfAChoiceThatHasNoneIsRefused() {
        CustomerData theirs = CustomerData.EMPTY.with(CustomerField.CITY, "Porto");
        assertThatThrownBy(() -> new MergeDraft(3, theirs, Map.of(), Map.of(CustomerField.CITY,
                MergeDraft.Choice.mine()))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new MergeDraft.Choice(MergeDraft.How.MINE, List.of(HunkChoice.MINE)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> MergeDraft.Choice.parts(List.of())).isInstanceOf(IllegalArgumentException.class);
    }
}
