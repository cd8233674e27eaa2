package org.lockstep.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.lockstep.testing.db.TestDatabases;

@org.lockstep.testing.db.DatabaseTest
class DatabaseTest {

    @Test
    void twoClientsStartingAtOnceOnAnEmptyDatabaseBothComeUpAndMigrateOnce() throws Exception {
        String url = TestDatabases.freshUrl();
        TestDatabases.Server server = TestDatabases.server();
        CyclicBarrier together = new CyclicBarrier(2);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<Future<Database>> opened = List.of(
                    pool.submit(() -> {
                        together.await();
                        return Database.open(url, server.user(), server.password(), "a");
                    }),
                    pool.submit(() -> {
                        together.await();
                        return Database.open(url, server.user(), server.password(), "b");
                    }));
            Database a = opened.get(0).get();
            Database b = opened.get(1).get();

            List<String> applied = a.jdbi().withHandle(h -> h.createQuery(
                    "SELECT coalesce(version, description) FROM flyway_schema_history WHERE success"
                            + " ORDER BY installed_rank")
                    .mapTo(String.class).list());
            // Versioned migrations by version, the repeatable ones (R__, no version) by description: each applied once.
            assertThat(applied).doesNotHaveDuplicates().contains("1", "20 customer triggers");
            long customers = b.jdbi().withHandle(h -> h.createQuery("SELECT count(*) FROM customer")
                    .mapTo(Long.class).one());
            assertThat(customers).isZero();
            a.close();
            b.close();
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void anUnreachableServerGivesAMessageNamingTheUrlButNotThePassword() {
        assertThatThrownBy(() -> Database.open("jdbc:postgresql://127.0.0.1:1/nowhere?password=secret", "x", null, "t"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Cannot connect to jdbc:postgresql://127.0.0.1:1/nowhere?password=***")
                .hasMessageNotContaining("secret");
    }

    @Test
    void aUrlThatIsNotPostgresIsRefusedPlainly() {
        assertThatThrownBy(() -> Database.open("jdbc:mysql://localhost/db", null, null, "t"))
                .hasMessageContaining("Not a PostgreSQL JDBC URL");
    }
}
