package org.lockstep.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.lockstep.store.CustomerBulkLoader;
import org.lockstep.synthetic.SyntheticCustomers;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.TestDatabases;

/**
 * Issue 29: the warm-up at a client's start loads the customer list's indexes and table into the server's buffer cache
 * where pg_prewarm is installed, does nothing where it is not, and ends its thread when closed. Read back from the
 * real server: the pages it reports, against the sizes of the relations it loads.
 */
@DatabaseTest
class CacheWarmUpTest {

    @Test
    void withPgPrewarmTheListsIndexesAndTableAreLoaded() throws Exception {
        String url = TestDatabases.freshUrl();
        TestDatabases.Server s = TestDatabases.server();
        try (Connection admin = DriverManager.getConnection(url, s.adminUser(), s.adminPassword());
                Statement st = admin.createStatement()) {
            st.execute("CREATE EXTENSION IF NOT EXISTS pg_prewarm");
        }
        Database db = Database.open(url, s.user(), s.password(), "Lockstep test");
        try {
            new CustomerBulkLoader(db.jdbi(), "loader").copy(LongStream.rangeClosed(1, 2_000)
                    .mapToObj(new SyntheticCustomers(29)::customer).toList());
            long pages = pagesOf(db, "customer") + pagesOf(db, "customer_pkey") + pagesOf(db, "customer_search_grams");

            try (CacheWarmUp warmUp = CacheWarmUp.start(db)) {
                assertThat(warmUp.await(60_000)).isTrue();
                assertThat(warmUp.pagesLoaded()).isGreaterThanOrEqualTo(pages);
            }
        } finally {
            db.close();
        }
    }

    @Test
    void withoutPgPrewarmItLoadsNothingAndEndsQuietly() throws Exception {
        Database db = TestDatabases.fresh();
        try (CacheWarmUp warmUp = CacheWarmUp.start(db)) {
            assertThat(warmUp.await(60_000)).isTrue();
            assertThat(warmUp.pagesLoaded()).isZero();
        } finally {
            db.close();
        }
    }

    @Test
    void closingEndsTheWarmUpsThread() {
        Database db = TestDatabases.fresh();
        try {
            CacheWarmUp warmUp = CacheWarmUp.start(db);
            warmUp.close();
            assertThat(warmUp.done()).isTrue();
        } finally {
            db.close();
        }
    }

    private static long pagesOf(Database db, String relation) throws Exception {
        try (Connection c = db.dataSource().getConnection(); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT pg_relation_size('" + relation + "') / 8192")) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
