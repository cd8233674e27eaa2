package org.lockstep.server;

import org.lockstep.config.LockstepConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.lockstep.domain.Customer;
import org.lockstep.store.JdbiCustomerRepository;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.TestDatabases;

@DatabaseTest
class SampleDataTest {

    static long count(Database db) {
        return db.jdbi().withHandle(h -> h.createQuery("SELECT count(*) FROM customer").mapTo(Long.class).one());
    }

    static Customer byRef(Database db, String ref) {
        long id = db.jdbi().withHandle(h -> h.createQuery("SELECT id FROM customer WHERE external_ref = :r")
                .bind("r", ref).mapTo(Long.class).one());
        return new JdbiCustomerRepository(db.jdbi(), "x").find(id).orElseThrow();
    }

    @Test
    void anEmptyDatabaseGetsTheFiftyNineSampleCustomersWithAccentsIntact(Database db) {
        assertThat(SampleData.loadIfEmpty(db.jdbi(), "Olga")).isTrue();

        assertThat(count(db)).isEqualTo(59);
        Customer luis = byRef(db, "1");
        assertThat(luis.data().contactName()).isEqualTo("Luís Gonçalves");
        assertThat(luis.data().company()).isEqualTo("Embraer - Empresa Brasileira de Aeronáutica S.A.");
        assertThat(luis.data().city()).isEqualTo("São José dos Campos");
        assertThat(luis.data().region()).isEqualTo("SP");
        assertThat(luis.data().postalCode()).isEqualTo("12227-000");
        assertThat(luis.data().fax()).isEqualTo("+55 (12) 3923-5566");
        assertThat(luis.version()).isEqualTo(1);
        assertThat(luis.updatedBy()).isEqualTo("Olga");
        assertThat(byRef(db, "3").data().address()).isEqualTo("1498 rue Bélanger");
        assertThat(byRef(db, "3").data().city()).isEqualTo("Montréal");
        assertThat(byRef(db, "2").data().region()).isNull();
        assertThat(byRef(db, "59").data().contactName()).isNotBlank();
    }

    @Test
    void aDatabaseWithCustomersGetsNoSample(Database db) {
        new JdbiCustomerRepository(db.jdbi(), "Olga").create(aCustomer().build());

        assertThat(SampleData.loadIfEmpty(db.jdbi(), "Olga")).isFalse();

        assertThat(count(db)).isEqualTo(1);
    }

    @Test
    void twoClientsStartingAtOnceOnAnEmptyDatabaseLoadTheSampleOnce() throws Exception {
        String url = TestDatabases.freshUrlWithCredentials();
        List<Database> clients = List.of(Database.open(url, null, null, "client 1"),
                Database.open(url, null, null, "client 2"));
        CyclicBarrier start = new CyclicBarrier(clients.size());
        ExecutorService pool = Executors.newFixedThreadPool(clients.size());
        try {
            List<Future<Boolean>> loads = new ArrayList<>();
            for (Database client : clients) {
                loads.add(pool.submit(() -> {
                    start.await();
                    return SampleData.loadIfEmpty(client.jdbi(), "Olga");
                }));
            }
            List<Boolean> loaded = new ArrayList<>();
            for (Future<Boolean> f : loads) {
                loaded.add(f.get());
            }
            assertThat(loaded).containsExactlyInAnyOrder(true, false);
            assertThat(count(clients.get(0))).isEqualTo(59);
        } finally {
            pool.shutdownNow();
            clients.forEach(Database::close);
        }
    }

    @Test
    void openingAsConfiguredLoadsTheSampleIntoAnEmptyDatabase() {
        LockstepConfig config = new LockstepConfig(Optional.of(TestDatabases.freshUrlWithCredentials()),
                java.nio.file.Path.of("target", "unused-data-dir"), "Olga");

        try (Database db = Database.open(config, "Lockstep test")) {
            assertThat(count(db)).isEqualTo(59);
        }
        try (Database again = Database.open(config, "Lockstep test")) {
            assertThat(count(again)).isEqualTo(59);
        }
    }
}
