package org.lockstep.drafts;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.EnumMap;
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
    }
}
