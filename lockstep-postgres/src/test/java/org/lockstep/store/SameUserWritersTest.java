package org.lockstep.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.lockstep.server.Database;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.DeleteOutcome;
import org.lockstep.domain.SaveOutcome;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.FreshDatabase;

/**
 * Many desks, one login: writers that share a user name are still different writers. A save that meets a newer
 * version is a conflict even when the newer version was written under the same name with the very values this save
 * asked for — a read-modify-write (an increment) computed from the same base by two desks must not count twice.
 */
@DatabaseTest
class SameUserWritersTest {

    static final String FRONT_DESK = "frontdesk";

    @FreshDatabase
    static Database db;

    @Test
    void incrementsByManyWritersUnderOneNameAreNeverLost() throws Exception {
        Customer c = new JdbiCustomerRepository(db.jdbi(), FRONT_DESK).create(aCustomer()
                .with(CustomerField.EXTERNAL_REF, "SAME-NAME-1").with(CustomerField.CREDIT_LIMIT, "0").build());
        int writers = 16;
        int incrementsEach = 10;
        CyclicBarrier start = new CyclicBarrier(writers);
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        List<Future<int[]>> results = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
            // Each desk is its own client session, all under the same user name.
            JdbiCustomerRepository desk = new JdbiCustomerRepository(db.jdbi(), FRONT_DESK);
            results.add(pool.submit(() -> {
                start.await();
                int successes = 0;
                int conflicts = 0;
                while (successes < incrementsEach) {
                    Customer now = desk.find(c.id()).orElseThrow();
                    BigDecimal plusOne = now.data().creditLimit().add(BigDecimal.ONE);
                    SaveOutcome outcome = desk.save(c.id(), now.version(),
                            now.data().with(CustomerField.CREDIT_LIMIT, plusOne));
                    if (outcome instanceof SaveOutcome.Saved) {
                        successes++;
                    } else {
                        assertThat(outcome).isInstanceOf(SaveOutcome.Conflict.class);
                        conflicts++;
                    }
                }
                return new int[]{successes, conflicts};
            }));
        }
        int successes = 0;
        int conflicts = 0;
        for (Future<int[]> f : results) {
            int[] r = f.get();
            successes += r[0];
            conflicts += r[1];
        }
        pool.shutdown();

        Customer end = new JdbiCustomerRepository(db.jdbi(), FRONT_DESK).find(c.id()).orElseThrow();
        assertThat(successes).isEqualTo(writers * incrementsEach);
        assertThat(end.data().creditLimit()).isEqualByComparingTo(BigDecimal.valueOf(successes));
        assertThat(end.version()).isEqualTo(1L + successes);
        // Sixteen desks racing for one row meet each other: the test did exercise the conflict path.
        assertThat(conflicts).isPositive();
    }

    @Test
    void aSaveMeetingTheSameValuesSavedByAnotherDeskUnderTheSameNameIsAConflict() {
        JdbiCustomerRepository deskA = new JdbiCustomerRepository(db.jdbi(), FRONT_DESK);
        JdbiCustomerRepository deskB = new JdbiCustomerRepository(db.jdbi(), FRONT_DESK);
        Customer c = deskA.create(aCustomer().with(CustomerField.EXTERNAL_REF, "SAME-NAME-2")
                .with(CustomerField.CREDIT_LIMIT, "5").build());
        var sold = c.data().with(CustomerField.CREDIT_LIMIT, new BigDecimal("4"));

        SaveOutcome a = deskA.save(c.id(), 1, sold);
        SaveOutcome b = deskB.save(c.id(), 1, sold);

        assertThat(a).isInstanceOf(SaveOutcome.Saved.class);
        assertThat(b).isInstanceOf(SaveOutcome.Conflict.class);
        Customer theirs = ((SaveOutcome.Conflict) b).theirs().orElseThrow();
        assertThat(theirs.version()).isEqualTo(2);
        assertThat(theirs.updatedBy()).isEqualTo(FRONT_DESK);
        assertThat(deskA.find(c.id()).orElseThrow().version()).isEqualTo(2);
        // The same desk saving the same values again with a new request is no retry either.
        assertThat(deskA.save(c.id(), 1, sold)).isInstanceOf(SaveOutcome.Conflict.class);
    }

    @Test
    void aDeleteOfARowAnotherDeskUnderTheSameNameAlreadyDeletedIsAConflictWithNothingThere() {
        JdbiCustomerRepository deskA = new JdbiCustomerRepository(db.jdbi(), FRONT_DESK);
        JdbiCustomerRepository deskB = new JdbiCustomerRepository(db.jdbi(), FRONT_DESK);
        Customer c = deskA.create(aCustomer().with(CustomerField.EXTERNAL_REF, "SAME-NAME-3").build());

        assertThat(deskA.delete(c.id(), 1)).isEqualTo(new DeleteOutcome.Deleted(c.id()));
        DeleteOutcome b = deskB.delete(c.id(), 1);

        assertThat(b).isEqualTo(new DeleteOutcome.Conflict(java.util.Optional.empty()));
    }
}
