package org.lockstep.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.CustomerRepository;
import org.lockstep.domain.DeleteOutcome;
import org.lockstep.domain.InvalidCustomerException;
import org.lockstep.domain.OutcomeUnknownException;
import org.lockstep.domain.SaveOutcome;

/**
 * What every {@link CustomerRepository} promises, run against {@code JdbiCustomerRepository} on PostgreSQL (in
 * lockstep-postgres) and against the {@link InMemoryCustomerRepository} that view-model tests use (here): when the
 * fake drifts from the store, a case fails for one of the two. Each case gets two clients of one store, Alice and
 * Bob, and customers of its own, so a store may be shared by the cases of a class.
 */
public abstract class CustomerRepositoryContractTest {

    CustomerRepository alice;
    CustomerRepository bob;

    /** A new client of the one store every client of this test shares, acting as {@code user}. */
    protected abstract CustomerRepository client(String user);

    @BeforeEach
    void aliceAndBob() {
        alice = client("Alice");
        bob = client("Bob");
    }

    /** A valid customer with an external ref of its own (the column is unique in the shared database). */
    private static CustomerData customer() {
        return aCustomer().with(CustomerField.EXTERNAL_REF, "K-" + UUID.randomUUID().toString().substring(0, 12))
                .build();
    }

    @Test
    void createStartsAtVersionOneWrittenByTheUser() {
        CustomerData values = customer();

        Customer created = alice.create(values);

        Customer read = bob.find(created.id()).orElseThrow();
        assertThat(read.version()).isEqualTo(1);
        assertThat(read.updatedBy()).isEqualTo("Alice");
        assertThat(read.data().sameValues(values)).isTrue();
    }

    @Test
    void aCreateSentAgainUnderItsRequestIdMakesOneCustomerAndReturnsIt() {
        CustomerData values = customer();
        UUID request = UUID.randomUUID();
        assertThat(alice.createdBy(request)).isEmpty();

        Customer first = alice.create(values, request);
        // Sent again by Alice's next process, from the draft her crashed one left: its values may have grown since.
        Customer again = client("Alice").create(values.with(CustomerField.CITY, "Curitiba"), request);

        assertThat(again).isEqualTo(first);
        assertThat(bob.createdBy(request)).contains(first);
        assertThat(bob.find(first.id()).orElseThrow().version()).isEqualTo(1);
        assertThat(alice.createdBy(UUID.randomUUID())).isEmpty();
    }

    @Test
    void aCreateSentAgainAfterItsCustomerWasDeletedMakesNoneAndSaysSo() {
        CustomerData values = customer();
        UUID request = UUID.randomUUID();
        Customer first = alice.create(values, request);
        assertThat(bob.delete(first.id(), first.version())).isInstanceOf(DeleteOutcome.Deleted.class);

        assertThat(alice.createdBy(request)).isEmpty();
        assertThatThrownBy(() -> alice.create(values, request)).isInstanceOf(OutcomeUnknownException.class);
    }

    @Test
    void saveOnTheBaseVersionWritesTheNextVersion() {
        Customer created = alice.create(customer());
        CustomerData mine = created.data().with(CustomerField.CITY, "Curitiba");

        SaveOutcome outcome = bob.save(created.id(), 1, mine);

        assertThat(outcome).isInstanceOf(SaveOutcome.Saved.class);
        Customer read = alice.find(created.id()).orElseThrow();
        assertThat(read.version()).isEqualTo(2);
        assertThat(read.updatedBy()).isEqualTo("Bob");
        assertThat(read.data().city()).isEqualTo("Curitiba");
        assertThat(((SaveOutcome.Saved) outcome).saved().version()).isEqualTo(2);
    }

    @Test
    void saveOnAnOlderVersionIsAConflictWithTheirsAndWritesNothing() {
        Customer created = alice.create(customer());
        alice.save(created.id(), 1, created.data().with(CustomerField.CITY, "Curitiba"));

        SaveOutcome outcome = bob.save(created.id(), 1, created.data().with(CustomerField.PHONE, "+55 1"));

        assertThat(outcome).isInstanceOf(SaveOutcome.Conflict.class);
        Customer theirs = ((SaveOutcome.Conflict) outcome).theirs().orElseThrow();
        assertThat(theirs.version()).isEqualTo(2);
        assertThat(theirs.data().city()).isEqualTo("Curitiba");
        Customer read = alice.find(created.id()).orElseThrow();
        assertThat(read.version()).isEqualTo(2);
        assertThat(read.data().phone()).isEqualTo(created.data().phone());
    }

    @Test
    void saveAndDeleteOfADeletedCustomerAreConflictsWithoutTheirs() {
        Customer created = alice.create(customer());
        assertThat(alice.delete(created.id(), 1)).isEqualTo(new DeleteOutcome.Deleted(created.id()));

        assertThat(bob.find(created.id())).isEmpty();
        assertThat(bob.save(created.id(), 1, created.data()))
                .isEqualTo(new SaveOutcome.Conflict(Optional.empty()));
        assertThat(bob.delete(created.id(), 1))
                .isEqualTo(new DeleteOutcome.Conflict(Optional.empty()));
        assertThat(bob.overwrite(created.id(), created.data()))
                .isEqualTo(new SaveOutcome.Conflict(Optional.empty()));
    }

    @Test
    void deleteOnAnOlderVersionIsAConflictAndKeepsTheCustomer() {
        Customer created = alice.create(customer());
        alice.save(created.id(), 1, created.data().with(CustomerField.CITY, "Curitiba"));

        DeleteOutcome outcome = bob.delete(created.id(), 1);

        assertThat(outcome).isInstanceOf(DeleteOutcome.Conflict.class);
        assertThat(((DeleteOutcome.Conflict) outcome).theirs().map(Customer::version)).contains(2L);
        assertThat(bob.find(created.id())).isPresent();
    }

    @Test
    void overwriteIgnoresTheVersionAndLosesTheOtherSave() {
        Customer created = alice.create(customer());
        bob.save(created.id(), 1, created.data().with(CustomerField.CITY, "Curitiba"));

        SaveOutcome outcome = alice.overwrite(created.id(), created.data().with(CustomerField.PHONE, "+55 2"));

        assertThat(outcome).isInstanceOf(SaveOutcome.Saved.class);
        Customer read = bob.find(created.id()).orElseThrow();
        assertThat(read.version()).isEqualTo(3);
        assertThat(read.data().phone()).isEqualTo("+55 2");
        assertThat(read.data().city()).isEqualTo(created.data().city()); // Bob's city is lost
    }

    @Test
    void invalidValuesAreRefusedAndNothingIsWritten() {
        Customer created = alice.create(customer());
        CustomerData negative = created.data().with(CustomerField.CREDIT_LIMIT, new BigDecimal("-1"));

        assertThatThrownBy(() -> alice.create(customer().with(CustomerField.CREDIT_LIMIT,
                new BigDecimal("-1")))).isInstanceOf(InvalidCustomerException.class);
        assertThatThrownBy(() -> bob.save(created.id(), 1, negative))
                .isInstanceOf(InvalidCustomerException.class);
        assertThat(alice.find(created.id()).orElseThrow().version()).isEqualTo(1);
    }

    @Test
    void conflictsOfSavesAndDeletesAreCountedForHotRecordAdvice() {
        Customer created = alice.create(customer());
        alice.save(created.id(), 1, created.data().with(CustomerField.CITY, "Curitiba"));
        bob.save(created.id(), 1, created.data().with(CustomerField.PHONE, "+55 3"));
        bob.delete(created.id(), 1);

        assertThat(alice.recentConflicts(created.id(), Duration.ofHours(1))).isEqualTo(2);
    }

    @Test
    void aSaveUnderATokenNoLeaseHoldsIsLeaseLostAndWritesNothing() {
        Customer created = alice.create(customer());

        assertThat(alice.saveUnderLease(created.id(), 1, created.data(), 42))
                .isEqualTo(new SaveOutcome.LeaseLost(Optional.empty()));
        assertThat(alice.deleteUnderLease(created.id(), 1, 42))
                .isEqualTo(new DeleteOutcome.LeaseLost(Optional.empty()));
        assertThat(alice.find(created.id()).orElseThrow().version()).isEqualTo(1);
    }

    @Test
    void aWriterIdKeepsTheUserAndNamesTheWriter() {
        CustomerRepository editor = alice.asWriter("alice/editor-7");
        Customer created = alice.create(customer());

        editor.save(created.id(), 1, created.data().with(CustomerField.CITY, "Curitiba"));

        assertThat(editor.sessionId()).isEqualTo("alice/editor-7");
        assertThat(alice.sessionId()).isNotEqualTo(editor.sessionId());
        assertThat(bob.find(created.id()).orElseThrow().updatedBy()).isEqualTo("Alice");
    }
}
