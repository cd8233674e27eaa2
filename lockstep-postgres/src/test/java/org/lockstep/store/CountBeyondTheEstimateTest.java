package org.lockstep.store;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.lockstep.server.Database;
import org.lockstep.domain.CustomerCount;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.FreshDatabase;

/**
 * When the planner's estimate is no more than the capped count found, the count says "at least 1,000", never
 * "about 1,001" (issue 13's attack: a digit matched 11,340 customers and was shown as "about 1,001").
 */
@DatabaseTest
class CountBeyondTheEstimateTest {

    @FreshDatabase
    static Database db;

    @BeforeAll
    static void load() {
        db.jdbi().useHandle(h -> {
            // The planner's statistics know 200 customers, none of them "Qzxly"; 1,500 of those come after.
            h.execute("ALTER TABLE customer SET (autovacuum_enabled = false)");
            h.execute("INSERT INTO customer (company, external_ref) SELECT 'Plain ' || g, 'P-' || g "
                    + "FROM generate_series(1, 200) g");
            h.execute("ANALYZE customer");
            h.execute("INSERT INTO customer (company, external_ref) SELECT 'Qzxly Corp ' || g, 'Q-' || g "
                    + "FROM generate_series(1, 1500) g");
        });
    }

    @Test
    void moreMatchesThanTheCapAndThanTheEstimateAreCountedAsAtLeastTheCap() {
        CustomerCount n = new JdbiCustomerRepository(db.jdbi(), "Reader").count("qzxly", 5_000);

        assertThat(n).isEqualTo(new CustomerCount(CustomerListQuery.COUNT_CAP, false));
        assertThat(n.describe()).isEqualTo("at least 1,000");
    }
}
