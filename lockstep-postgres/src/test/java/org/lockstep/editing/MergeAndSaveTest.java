package org.lockstep.editing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lockstep.domain.CustomerField.CITY;
import static org.lockstep.domain.CustomerField.CREDIT_LIMIT;
import static org.lockstep.domain.CustomerField.EMAIL;
import static org.lockstep.domain.CustomerField.PHONE;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.math.BigDecimal;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.lockstep.domain.AcquireOutcome;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.SaveOutcome;
import org.lockstep.domain.merge.FieldMerge;
import org.lockstep.server.Database;
import org.lockstep.store.JdbiCustomerRepository;
import org.lockstep.store.JdbiLeaseRepository;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.FreshDatabase;

/**
 * {@link CustomerEditing#mergeAndSave}, the one merge-and-retry loop behind both the merge dialog's Save merged and
 * {@code lockstep set --merge}, on the real database: Bob edited version N (his base) while Alice and Carol saved.
 * Every case reads the record back.
 */
@DatabaseTest
class MergeAndSaveTest {

    @FreshDatabase
    static Database db;

    JdbiCustomerRepository alice;
    JdbiCustomerRepository carol;
    CustomerEditing bob;

    @BeforeEach
    void operators() {
        alice = new JdbiCustomerRepository(db.jdbi(), "Alice");
        carol = new JdbiCustomerRepository(db.jdbi(), "Carol");
        bob = new CustomerEditing(new JdbiCustomerRepository(db.jdbi(), "Bob"));
    }

    Customer created() {
        return alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "MS-" + UUID.randomUUID()).build());
    }

    Customer saves(JdbiCustomerRepository who, Customer now, UnaryOperator<CustomerData> edit) {
        return ((SaveOutcome.Saved) who.save(now.id(), now.version(), edit.apply(now.data()))).saved();
    }

    Customer read(long id) {
        return alice.find(id).orElseThrow();
    }

    @Test
    void mineOnAnUnchangedRecordIsSavedAsItIs() {
        Customer base = created();

        MergeSave outcome = bob.mergeAndSave(base, base.data().with(EMAIL, "bob@acme.example"), base, 1);

        Customer now = read(base.id());
        assertThat(outcome).isEqualTo(new MergeSave.Saved(now));
        assertThat(now.version()).isEqualTo(base.version() + 1);
        assertThat(now.data().email()).isEqualTo("bob@acme.example");
        assertThat(now.updatedBy()).isEqualTo("Bob");
    }

    @Test
    void changesToDifferentFieldsAreMergedAndSavedOnTheirsVersion() {
        Customer base = created();
        Customer theirs = saves(alice, base, d -> d.with(PHONE, "+55 11 4000-1111"));

        MergeSave outcome = bob.mergeAndSave(base, base.data().with(EMAIL, "bob@acme.example"), theirs, 1);

        Customer now = read(base.id());
        assertThat(outcome).isInstanceOf(MergeSave.Saved.class);
        assertThat(now.version()).isEqualTo(theirs.version() + 1);
        assertThat(now.data().phone()).isEqualTo("+55 11 4000-1111");
        assertThat(now.data().email()).isEqualTo("bob@acme.example");
    }

    @Test
    void bothChangingOneFieldDifferentlyIsAConflictAndWritesNothing() {
        Customer base = created();
        Customer theirs = saves(alice, base, d -> d.with(CITY, "Campinas"));

        MergeSave outcome = bob.mergeAndSave(base, base.data().with(CITY, "Jundiaí"), theirs, 5);

        assertThat(outcome).isInstanceOfSatisfying(MergeSave.Conflicts.class, c -> {
            assertThat(c.theirs()).isEqualTo(theirs);
            assertThat(c.fields()).extracting(FieldMerge::field).containsExactly(CITY);
        });
        assertThat(read(base.id())).isEqualTo(theirs);
    }

    @Test
    void aFieldMineInsistsOnIsAConflictWhenTheirsChangedItOrReachedTheSameValue() {
        Customer base = created();
        BigDecimal limit = base.data().creditLimit();
        Customer theirs = saves(alice, base, d -> d.with(CREDIT_LIMIT, limit.subtract(BigDecimal.ONE))
                .with(CITY, "Campinas"));
        CustomerData mine =
                base.data().with(CREDIT_LIMIT, limit.subtract(BigDecimal.ONE)).with(CITY, base.data().city());
        CustomerEditing.MergeOptions insisting = new CustomerEditing.MergeOptions(5, Set.of(CREDIT_LIMIT, CITY),
                OptionalLong.empty(), (now, values) -> {});

        MergeSave outcome = bob.mergeAndSave(base, mine, theirs, insisting);

        assertThat(outcome).isInstanceOfSatisfying(MergeSave.Conflicts.class, c -> assertThat(c.fields())
                .extracting(FieldMerge::field, FieldMerge::resolution)
                .containsExactlyInAnyOrder(
                        org.assertj.core.groups.Tuple.tuple(CREDIT_LIMIT, FieldMerge.Resolution.BOTH_SAME),
                        org.assertj.core.groups.Tuple.tuple(CITY, FieldMerge.Resolution.THEIRS)));
        assertThat(read(base.id())).isEqualTo(theirs);
    }

    @Test
    void aMergeTheRecordAlreadyHoldsWritesNoNewVersion() {
        Customer base = created();
        Customer theirs = saves(alice, base, d -> d.with(PHONE, "+55 11 4000-1111"));

        MergeSave outcome = bob.mergeAndSave(base, base.data().with(PHONE, "+55 11 4000-1111"), theirs, 1);

        assertThat(outcome).isEqualTo(new MergeSave.AlreadyStored(theirs));
        assertThat(read(base.id()).version()).isEqualTo(theirs.version());
    }

    @Test
    void aSaveThatLandsMeanwhileIsMergedAgainWhileAttemptsRemain() {
        Customer base = created();
        Customer theirs = saves(alice, base, d -> d.with(PHONE, "+55 11 4000-1111"));
        Customer carols = saves(carol, theirs, d -> d.with(CITY, "Sorocaba")); // lands after Bob read theirs

        MergeSave once = bob.mergeAndSave(base, base.data().with(EMAIL, "bob@acme.example"), theirs, 1);
        assertThat(once).isEqualTo(new MergeSave.MovedOn(carols));
        assertThat(read(base.id())).isEqualTo(carols);

        MergeSave twice = bob.mergeAndSave(base, base.data().with(EMAIL, "bob@acme.example"), theirs, 2);
        Customer now = read(base.id());
        assertThat(twice).isEqualTo(new MergeSave.Saved(now));
        assertThat(now.version()).isEqualTo(carols.version() + 1);
        assertThat(now.data().phone()).isEqualTo("+55 11 4000-1111");
        assertThat(now.data().city()).isEqualTo("Sorocaba");
        assertThat(now.data().email()).isEqualTo("bob@acme.example");
    }

    @Test
    void aRecordDeletedMeanwhileWritesNothing() {
        Customer base = created();
        Customer theirs = saves(alice, base, d -> d.with(PHONE, "+55 11 4000-1111"));
        alice.delete(theirs.id(), theirs.version());

        MergeSave outcome = bob.mergeAndSave(base, base.data().with(EMAIL, "bob@acme.example"), theirs, 5);

        assertThat(outcome).isEqualTo(new MergeSave.Deleted());
        assertThat(alice.find(base.id())).isEmpty();
    }

    @Test
    void anotherSessionsLeaseRefusesTheMergedSave() {
        Customer base = created();
        Customer theirs = saves(alice, base, d -> d.with(PHONE, "+55 11 4000-1111"));
        JdbiLeaseRepository carolsLeases = new JdbiLeaseRepository(db.jdbi(), "Carol", carol.sessionId());
        assertThat(carolsLeases.acquire(base.id(), 60_000)).isInstanceOf(AcquireOutcome.Granted.class);

        MergeSave outcome = bob.mergeAndSave(base, base.data().with(EMAIL, "bob@acme.example"), theirs, 5);

        assertThat(outcome).isInstanceOfSatisfying(MergeSave.Locked.class,
                locked -> assertThat(locked.holder().holder()).isEqualTo("Carol"));
        assertThat(read(base.id())).isEqualTo(theirs);
    }

    @Test
    void aMergeSavedUnderTheEditorsLeaseIsFencedByItsToken() {
        JdbiCustomerRepository bobs = new JdbiCustomerRepository(db.jdbi(), "Bob");
        JdbiLeaseRepository bobsLeases = new JdbiLeaseRepository(db.jdbi(), "Bob", bobs.sessionId());
        CustomerEditing locking = new CustomerEditing(bobs);
        Customer base = created();
        Customer theirs = saves(alice, base, d -> d.with(PHONE, "+55 11 4000-1111"));
        long token = ((AcquireOutcome.Granted) bobsLeases.acquire(base.id(), 60_000)).lease().token();

        MergeSave outcome = locking.mergeAndSave(base, base.data().with(EMAIL, "bob@acme.example"), theirs,
                new CustomerEditing.MergeOptions(1, Set.of(), OptionalLong.of(token), (now, values) -> {}));

        Customer now = read(base.id());
        assertThat(outcome).isEqualTo(new MergeSave.Saved(now));
        assertThat(now.version()).isEqualTo(theirs.version() + 1);
        assertThat(now.data().phone()).isEqualTo("+55 11 4000-1111");
        assertThat(now.data().email()).isEqualTo("bob@acme.example");
        assertThat(bobsLeases.holder(base.id())).hasValueSatisfying(l -> assertThat(l.token()).isEqualTo(token));
    }

    @Test
    void aMergeUnderAStaleFencingTokenIsRefusedAndWritesNothing() {
        JdbiCustomerRepository bobs = new JdbiCustomerRepository(db.jdbi(), "Bob");
        JdbiLeaseRepository bobsLeases = new JdbiLeaseRepository(db.jdbi(), "Bob", bobs.sessionId());
        JdbiLeaseRepository carolsLeases = new JdbiLeaseRepository(db.jdbi(), "Carol", carol.sessionId());
        Customer base = created();
        Customer theirs = saves(alice, base, d -> d.with(PHONE, "+55 11 4000-1111"));
        long stale = ((AcquireOutcome.Granted) bobsLeases.acquire(base.id(), 60_000)).lease().token();
        assertThat(bobsLeases.release(base.id(), stale)).isTrue();
        long carols = ((AcquireOutcome.Granted) carolsLeases.acquire(base.id(), 60_000)).lease().token();

        MergeSave outcome = new CustomerEditing(bobs).mergeAndSave(base, base.data().with(EMAIL, "bob@acme.example"),
                theirs, new CustomerEditing.MergeOptions(3, Set.of(), OptionalLong.of(stale), (now, values) -> {}));

        assertThat(carols).isGreaterThan(stale);
        assertThat(outcome).isInstanceOfSatisfying(MergeSave.LeaseLost.class, lost -> assertThat(lost.current())
                .hasValueSatisfying(now -> assertThat(now.token()).isEqualTo(carols)));
        assertThat(read(base.id())).isEqualTo(theirs);
    }

    @Test
    void beforeSaveSeesEveryTargetAndItsValuesAndMayStopTheSave() {
        Customer base = created();
        Customer theirs = saves(alice, base, d -> d.with(PHONE, "+55 11 4000-1111"));
        Customer carols = saves(carol, theirs, d -> d.with(CITY, "Sorocaba")); // lands after Bob read theirs
        java.util.List<String> seen = new java.util.ArrayList<>();

        MergeSave outcome = bob.mergeAndSave(base, base.data().with(EMAIL, "bob@acme.example"), theirs,
                new CustomerEditing.MergeOptions(2, Set.of(), OptionalLong.empty(),
                        (now, values) -> seen.add("v" + now.version() + " " + values.city() + " " + values.email())));

        assertThat(outcome).isInstanceOf(MergeSave.Saved.class);
        assertThat(seen).containsExactly(
                "v" + theirs.version() + " " + theirs.data().city() + " bob@acme.example",
                "v" + carols.version() + " Sorocaba bob@acme.example");

        Customer after = read(base.id());
        IllegalStateException refused = new IllegalStateException("the CLI refused the values");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> bob.mergeAndSave(after, after.data().with(PHONE,
                "+55 11 4999-0000"), after,
                new CustomerEditing.MergeOptions(1, Set.of(), OptionalLong.empty(),
                        (now, values) -> {
                            throw refused;
                        })))
                .isSameAs(refused);
        assertThat(read(base.id())).isEqualTo(after);
    }
}
