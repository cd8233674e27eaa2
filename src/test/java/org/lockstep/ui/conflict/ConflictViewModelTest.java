package org.lockstep.ui.conflict;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerField;

class ConflictViewModelTest {

    static final Clock NOW = Clock.fixed(Instant.parse("2026-11-29T12:00:00Z"), ZoneOffset.UTC);
    static final CustomerData MINE = aCustomer().with(CustomerField.CITY, "Curitiba").build();
    static final Customer THEIRS = new Customer(7, 3, aCustomer().with(CustomerField.CITY, "Campinas")
            .with(CustomerField.CREDIT_LIMIT, "1000").build(), Instant.parse("2026-11-29T10:03:00Z"), "Bob");

    final List<ConflictChoice> chosen = new ArrayList<>();

    @Test
    void theHeaderSaysWhoSavedWhichVersionWhileIWasEditingWhich() {
        ConflictViewModel vm = new ConflictViewModel(Optional.of(THEIRS), MINE, 2, "Alice", NOW, chosen::add);

        assertThat(vm.header()).isEqualTo("Bob saved version 3 at 10:03 while you were editing version 2");
    }

    @Test
    void mySaveFromAnotherWindowIsNamedAsMine() {
        Customer mineElsewhere = new Customer(7, 3, THEIRS.data(), THEIRS.updatedAt(), "Alice");
        ConflictViewModel vm = new ConflictViewModel(Optional.of(mineElsewhere), MINE, 2, "Alice", NOW, chosen::add);

        assertThat(vm.header()).startsWith("You (in another window) saved version 3");
    }

    @Test
    void onlyTheFieldsThatDifferAreMarked() {
        ConflictViewModel vm = new ConflictViewModel(Optional.of(THEIRS), MINE, 2, "Alice", NOW, chosen::add);

        assertThat(vm.rows()).filteredOn(ConflictRow::differs).extracting(ConflictRow::field)
                .containsExactly(CustomerField.CITY);
        assertThat(vm.rows()).filteredOn(r -> r.field() == CustomerField.CITY).singleElement()
                .isEqualTo(new ConflictRow(CustomerField.CITY, "Curitiba", "Campinas", true));
        assertThat(vm.differences()).isEqualTo(1);
    }

    @Test
    void aDeletedRecordOffersToSaveMineAsNewOrDiscard() {
        ConflictViewModel vm = new ConflictViewModel(Optional.empty(), MINE, 2, "Alice", NOW, chosen::add);

        assertThat(vm.header()).isEqualTo("This customer was deleted by someone else");
        assertThat(vm.choices()).containsExactly(ConflictChoice.SAVE_MINE_AS_NEW, ConflictChoice.DISCARD,
                ConflictChoice.BACK_TO_MY_EDITS);
        assertThat(vm.rows()).noneMatch(ConflictRow::differs);
        assertThatThrownBy(() -> vm.choose(ConflictChoice.OVERWRITE_WITH_MINE))
                .hasMessage("Overwrite with mine is not offered here");
        vm.choose(ConflictChoice.SAVE_MINE_AS_NEW);
        assertThat(chosen).containsExactly(ConflictChoice.SAVE_MINE_AS_NEW);
    }
}
