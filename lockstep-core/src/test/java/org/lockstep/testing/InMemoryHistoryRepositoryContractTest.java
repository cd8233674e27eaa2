package org.lockstep.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.CustomerRepository;
import org.lockstep.domain.HistoryEntry;
import org.lockstep.domain.HistoryRepository;

/**
 * The history repository's contract, kept by the fake view-model tests use: customers of their own per case, on a
 * {@link ManualClock}; and what only the fake does, said where a test can rely on it.
 */
class InMemoryHistoryRepositoryContractTest extends HistoryRepositoryContractTest {

    private final ManualClock clock = new ManualClock();
    private final InMemoryCustomerRepository store = InMemoryCustomerRepository.empty("Setup", clock);

    @Override
    protected CustomerRepository client(String user) {
        return store.as(user);
    }

    @Override
    protected HistoryRepository history() {
        return store.history();
    }

    @Test
    void everyClientOfTheStoreSharesOneHistory() {
        Customer created = store.as("Carol").create(aCustomer().build());

        assertThat(store.as("Dave").history()).isSameAs(store.history());
        assertThat(store.history().history(created.id())).hasSize(1);
    }

    @Test
    void entriesAreStampedByTheStoresClock() {
        Instant start = clock.instant();
        Customer created = store.create(aCustomer().build());
        clock.advance(Duration.ofMinutes(5));
        store.save(created.id(), 1, created.data().with(CustomerField.CITY, "Curitiba"));
        clock.advance(Duration.ofMinutes(5));
        store.delete(created.id(), 2);

        assertThat(store.history().history(created.id())).extracting(HistoryEntry::changedAt).containsExactly(start,
                start.plus(Duration.ofMinutes(5)), start.plus(Duration.ofMinutes(10)));
    }

    @Test
    void theStoryIsNotKeptAndSaysSo() {
        Customer created = store.create(aCustomer().build());

        assertThatThrownBy(() -> store.history().story(created.id()))
                .isInstanceOf(UnsupportedOperationException.class).hasMessageContaining("PostgreSQL");
    }
}
