package org.lockstep.store;

import org.lockstep.testing.db.DatabaseExtension;
import org.lockstep.testing.InMemoryCustomerRepository;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.CustomerRepository;
import org.lockstep.domain.DeleteOutcome;
import org.lockstep.domain.InvalidCustomerException;
import org.lockstep.domain.SaveOutcome;

/**
 * What every {@link CustomerRepository} promises, run against the Jdbi store on PostgreSQL and against the
 * {@link InMemoryCustomerRepository} that view-model tests use: when the fake drifts from the store, a case here
 * fails for one of the two. Each case gets two clients of one store, Alice and Bob, and customers of its own.
 */
class CustomerRepositoryContractTest {

    @RegisterExtension
    static final DatabaseExtension DB = new DatabaseExtension();

    /** Alice's and Bob's clients of one store; {@code name} says which implementation failed. */
    record Clients(String name, CustomerRepository alice, CustomerRepository bob) {
    }

    static Stream<Named<Supplier<Clients>>> stores() {
        return Stream.of(
                Named.of("in memory", () -> {
                    InMemoryCustomerRepository alice = InMemoryCustomerRepository.empty("Alice");
                    return new Clients("in memory", alice, alice.as("Bob"));
                }),
                Named.of("PostgreSQL (Jdbi)", () -> new Clients("PostgreSQL (Jdbi)",
                        new JdbiCustomerRepository(DB.db().jdbi(), "Alice"),
                        new JdbiCustomerRepository(DB.db().jdbi(), "Bob"))));
    }

    /** A valid customer with an external ref of its own (the column is unique in the shared database). */
    private static CustomerData customer() {
        return aCustomer().with(CustomerField.EXTERNAL_REF, "K-" + UUID.randomUUID().toString().substring(0, 12))
                .build();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void createStartsAtVersionOneWrittenByTheUser(Supplier<Clients> store) {
        Clients c = store.get();
        CustomerData values = customer();

        Customer created = c.alice().create(values);

        Customer read = c.bob().find(created.id()).orElseThrow();
        assertThat(read.version()).as(c.name()).isEqualTo(1);
        assertThat(read.updatedBy()).as(c.name()).isEqualTo("Alice");
        assertThat(read.data().sameValues(values)).as(c.name()).isTrue();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void saveOnTheBaseVersionWritesTheNextVersion(Supplier<Clients> store) {
        Clients c = store.get();
        Customer created = c.alice().create(customer());
        CustomerData mine = created.data().with(CustomerField.CITY, "Curitiba");

        SaveOutcome outcome = c.bob().save(created.id(), 1, mine);

        assertThat(outcome).as(c.name()).isInstanceOf(SaveOutcome.Saved.class);
        Customer read = c.alice().find(created.id()).orElseThrow();
        assertThat(read.version()).as(c.name()).isEqualTo(2);
        assertThat(read.updatedBy()).as(c.name()).isEqualTo("Bob");
        assertThat(read.data().city()).as(c.name()).isEqualTo("Curitiba");
        assertThat(((SaveOutcome.Saved) outcome).saved().version()).as(c.name()).isEqualTo(2);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void saveOnAnOlderVersionIsAConflictWithTheirsAndWritesNothing(Supplier<Clients> store) {
        Clients c = store.get();
        Customer created = c.alice().create(customer());
        c.alice().save(created.id(), 1, created.data().with(CustomerField.CITY, "Curitiba"));

        SaveOutcome outcome = c.bob().save(created.id(), 1, created.data().with(CustomerField.PHONE, "+55 1"));

        assertThat(outcome).as(c.name()).isInstanceOf(SaveOutcome.Conflict.class);
        Customer theirs = ((SaveOutcome.Conflict) outcome).theirs().orElseThrow();
        assertThat(theirs.version()).as(c.name()).isEqualTo(2);
        assertThat(theirs.data().city()).as(c.name()).isEqualTo("Curitiba");
        Customer read = c.alice().find(created.id()).orElseThrow();
        assertThat(read.version()).as(c.name()).isEqualTo(2);
        assertThat(read.data().phone()).as(c.name()).isEqualTo(created.data().phone());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void saveAndDeleteOfADeletedCustomerAreConflictsWithoutTheirs(Supplier<Clients> store) {
        Clients c = store.get();
        Customer created = c.alice().create(customer());
        assertThat(c.alice().delete(created.id(), 1)).as(c.name()).isEqualTo(new DeleteOutcome.Deleted(created.id()));

        assertThat(c.bob().find(created.id())).as(c.name()).isEmpty();
        assertThat(c.bob().save(created.id(), 1, created.data())).as(c.name())
                .isEqualTo(new SaveOutcome.Conflict(Optional.empty()));
        assertThat(c.bob().delete(created.id(), 1)).as(c.name())
                .isEqualTo(new DeleteOutcome.Conflict(Optional.empty()));
        assertThat(c.bob().overwrite(created.id(), created.data())).as(c.name())
                .isEqualTo(new SaveOutcome.Conflict(Optional.empty()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void deleteOnAnOlderVersionIsAConflictAndKeepsTheCustomer(Supplier<Clients> store) {
        Clients c = store.get();
        Customer created = c.alice().create(customer());
        c.alice().save(created.id(), 1, created.data().with(CustomerField.CITY, "Curitiba"));

        DeleteOutcome outcome = c.bob().delete(created.id(), 1);

        assertThat(outcome).as(c.name()).isInstanceOf(DeleteOutcome.Conflict.class);
        assertThat(((DeleteOutcome.Conflict) outcome).theirs().map(Customer::version)).as(c.name()).contains(2L);
        assertThat(c.bob().find(created.id())).as(c.name()).isPresent();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void overwriteIgnoresTheVersionAndLosesTheOtherSave(Supplier<Clients> store) {
        Clients c = store.get();
        Customer created = c.alice().create(customer());
        c.bob().save(created.id(), 1, created.data().with(CustomerField.CITY, "Curitiba"));

        SaveOutcome outcome = c.alice().overwrite(created.id(), created.data().with(CustomerField.PHONE, "+55 2"));

        assertThat(outcome).as(c.name()).isInstanceOf(SaveOutcome.Saved.class);
        Customer read = c.bob().find(created.id()).orElseThrow();
        assertThat(read.version()).as(c.name()).isEqualTo(3);
        assertThat(read.data().phone()).as(c.name()).isEqualTo("+55 2");
        assertThat(read.data().city()).as(c.name()).isEqualTo(created.data().city()); // Bob's city is lost
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void invalidValuesAreRefusedAndNothingIsWritten(Supplier<Clients> store) {
        Clients c = store.get();
        Customer created = c.alice().create(customer());
        CustomerData negative = created.data().with(CustomerField.CREDIT_LIMIT, new BigDecimal("-1"));

        assertThatThrownBy(() -> c.alice().create(customer().with(CustomerField.CREDIT_LIMIT,
                new BigDecimal("-1")))).as(c.name()).isInstanceOf(InvalidCustomerException.class);
        assertThatThrownBy(() -> c.bob().save(created.id(), 1, negative)).as(c.name())
                .isInstanceOf(InvalidCustomerException.class);
        assertThat(c.alice().find(created.id()).orElseThrow().version()).as(c.name()).isEqualTo(1);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void conflictsOfSavesAndDeletesAreCountedForHotRecordAdvice(Supplier<Clients> store) {
        Clients c = store.get();
        Customer created = c.alice().create(customer());
        c.alice().save(created.id(), 1, created.data().with(CustomerField.CITY, "Curitiba"));
        c.bob().save(created.id(), 1, created.data().with(CustomerField.PHONE, "+55 3"));
        c.bob().delete(created.id(), 1);

        assertThat(c.alice().recentConflicts(created.id(), Duration.ofHours(1))).as(c.name()).isEqualTo(2);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void aSaveUnderATokenNoLeaseHoldsIsLeaseLostAndWritesNothing(Supplier<Clients> store) {
        Clients c = store.get();
        Customer created = c.alice().create(customer());

        assertThat(c.alice().saveUnderLease(created.id(), 1, created.data(), 42)).as(c.name())
                .isEqualTo(new SaveOutcome.LeaseLost(Optional.empty()));
        assertThat(c.alice().deleteUnderLease(created.id(), 1, 42)).as(c.name())
                .isEqualTo(new DeleteOutcome.LeaseLost(Optional.empty()));
        assertThat(c.alice().find(created.id()).orElseThrow().version()).as(c.name()).isEqualTo(1);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void aWriterIdKeepsTheUserAndNamesTheWriter(Supplier<Clients> store) {
        Clients c = store.get();
        CustomerRepository editor = c.alice().asWriter("alice/editor-7");
        Customer created = c.alice().create(customer());

        editor.save(created.id(), 1, created.data().with(CustomerField.CITY, "Curitiba"));

        assertThat(editor.sessionId()).as(c.name()).isEqualTo("alice/editor-7");
        assertThat(c.alice().sessionId()).as(c.name()).isNotEqualTo(editor.sessionId());
        assertThat(c.bob().find(created.id()).orElseThrow().updatedBy()).as(c.name()).isEqualTo("Alice");
    }
}
