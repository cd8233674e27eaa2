package org.lockstep.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.lockstep.server.Database;
import org.lockstep.domain.AcquireOutcome;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.DeleteOutcome;
import org.lockstep.domain.Lease;
import org.lockstep.domain.LeaseEvent;
import org.lockstep.domain.SaveOutcome;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.TestDatabases;

/**
 * What only PostgreSQL shows of leases: saves and deletes fenced by them, grants racing on one row, the density of
 * tokens. What every lease repository promises is in {@code LeaseRepositoryContractTest}.
 */
@DatabaseTest
class JdbiLeaseRepositoryTest {

    static Database db;
    static String url;

    @BeforeAll
    static void open() {
        url = TestDatabases.freshUrl();
        TestDatabases.Server s = TestDatabases.server();
        db = Database.open(url, s.user(), s.password(), "lease test");
    }

    @AfterAll
    static void close() {
        db.close();
    }

    record Operator(JdbiCustomerRepository customers, JdbiLeaseRepository leases) {
        static Operator named(String name) {
            String session = name + "-" + java.util.UUID.randomUUID();
            return new Operator(new JdbiCustomerRepository(db.jdbi(), name, session),
                    new JdbiLeaseRepository(db.jdbi(), name, session));
        }
    }

    private static Customer customer(String ref) {
        return new JdbiCustomerRepository(db.jdbi(), "Setup").create(aCustomer()
                .with(CustomerField.EXTERNAL_REF, ref).build());
    }

    private static void expireInDatabase(long recordId) {
        db.jdbi().useHandle(h -> h.execute("UPDATE record_lease SET expires_at = now() - interval '1 second'"
                + " WHERE record_id = ?", recordId));
    }

    @Test
    void fencingRefusesTheSaveOfAHolderWhoseLeaseWasTakenOver() {
        Customer c = customer("L-3");
        Operator alice = Operator.named("Alice");
        Operator bob = Operator.named("Bob");
        long t = ((AcquireOutcome.Granted) alice.leases().acquire(c.id(), 60_000)).lease().token();
        expireInDatabase(c.id()); // Alice's laptop slept through her lease
        long t1 = ((AcquireOutcome.Granted) bob.leases().acquire(c.id(), 60_000)).lease().token();

        SaveOutcome aliceSave = alice.customers().saveUnderLease(c.id(), 1,
                c.data().with(CustomerField.CITY, "Alice's city"), t);

        assertThat(t1).isEqualTo(t + 1);
        assertThat(aliceSave).isInstanceOf(SaveOutcome.LeaseLost.class);
        assertThat(((SaveOutcome.LeaseLost) aliceSave).current().orElseThrow().holder()).isEqualTo("Bob");
        Customer row = alice.customers().find(c.id()).orElseThrow();
        assertThat(row.version()).isEqualTo(1);
        assertThat(row.data().city()).isEqualTo(c.data().city());
        assertThat(bob.leases().holder(c.id()).orElseThrow().token()).isEqualTo(t1);
        assertThat(bob.customers().saveUnderLease(c.id(), 1, c.data().with(CustomerField.CITY, "Bob's city"), t1))
                .isInstanceOf(SaveOutcome.Saved.class);
    }

    @Test
    void optimisticSavesAndDeletesOfOthersAreRefusedWhileALeaseRuns() {
        Customer c = customer("L-4");
        Operator alice = Operator.named("Alice");
        Operator bob = Operator.named("Bob");
        long t = ((AcquireOutcome.Granted) alice.leases().acquire(c.id(), 60_000)).lease().token();

        SaveOutcome bobSave = bob.customers().save(c.id(), 1, c.data().with(CustomerField.CITY, "Bob's city"));
        DeleteOutcome bobDelete = bob.customers().delete(c.id(), 1);
        SaveOutcome aliceOptimistic = alice.customers().save(c.id(), 1, c.data().with(CustomerField.CITY, "Hers"));

        assertThat(bobSave).isInstanceOfSatisfying(SaveOutcome.Locked.class,
                l -> assertThat(l.holder().holder()).isEqualTo("Alice"));
        assertThat(bobDelete).isInstanceOf(DeleteOutcome.Locked.class);
        assertThat(aliceOptimistic).isInstanceOf(SaveOutcome.Saved.class);
        assertThat(alice.customers().find(c.id()).orElseThrow().data().city()).isEqualTo("Hers");
        alice.leases().release(c.id(), t);
        assertThat(bob.customers().delete(c.id(), 2)).isInstanceOf(DeleteOutcome.Deleted.class);
    }

    @Test
    void breakingALockEndsItAndNamesWhoBrokeIt() {
        Customer c = customer("L-5");
        Operator alice = Operator.named("Alice");
        Operator bob = Operator.named("Bob");
        long t = ((AcquireOutcome.Granted) alice.leases().acquire(c.id(), 60_000)).lease().token();

        assertThat(bob.leases().breakLease(c.id()).orElseThrow().holder()).isEqualTo("Alice");

        assertThat(alice.leases().renew(c.id(), t, 60_000)).isEmpty();
        assertThat(alice.customers().saveUnderLease(c.id(), 1, c.data(), t)).isInstanceOf(SaveOutcome.LeaseLost.class);
        LeaseEvent broken = bob.leases().events(c.id()).get(1);
        assertThat(broken.kind()).isEqualTo(LeaseEvent.Kind.BROKEN);
        assertThat(broken.holder()).isEqualTo("Alice");
        assertThat(broken.actor()).isEqualTo("Bob");
        assertThat(bob.leases().acquire(c.id(), 60_000)).isInstanceOf(AcquireOutcome.Granted.class);
    }

    @Test
    void deletingTheCustomerRemovesItsLease() {
        Customer c = customer("L-7");
        Operator alice = Operator.named("Alice");
        long t = ((AcquireOutcome.Granted) alice.leases().acquire(c.id(), 60_000)).lease().token();

        assertThat(alice.customers().deleteUnderLease(c.id(), 1, t)).isInstanceOf(DeleteOutcome.Deleted.class);

        assertThat(alice.leases().holder(c.id())).isEmpty();
        assertThat(alice.leases().active()).noneMatch(l -> l.recordId() == c.id());
    }

    @Test
    void racingClientsNeverHoldOverlappingGrantsAndTokensOnlyGrow() throws Exception {
        Customer c = customer("L-RACE");
        int clients = 32;
        int rounds = 100; // 3,200 acquire attempts in all, plus renewals and releases
        CyclicBarrier start = new CyclicBarrier(clients);
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        TestDatabases.Server s = TestDatabases.server();
        List<Future<Integer>> grants = new ArrayList<>();
        for (int i = 0; i < clients; i++) {
            String name = "Client " + i;
            grants.add(pool.submit(() -> {
                try (Connection own = DriverManager.getConnection(url, s.user(), s.password())) {
                    JdbiLeaseRepository leases = new JdbiLeaseRepository(Jdbi.create(own), name,
                            name + "-" + java.util.UUID.randomUUID());
                    start.await();
                    int granted = 0;
                    ThreadLocalRandom random = ThreadLocalRandom.current();
                    for (int round = 0; round < rounds; round++) {
                        if (leases.acquire(c.id(), random.nextInt(5, 40)) instanceof AcquireOutcome.Granted g) {
                            granted++;
                            long token = g.lease().token();
                            think(random);
                            if (random.nextBoolean()) {
                                leases.renew(c.id(), token, random.nextInt(5, 40));
                                think(random);
                            }
                            if (random.nextInt(3) > 0) {
                                leases.release(c.id(), token);
                            } // else: let it expire, as a crashed client would
                        }
                        think(random);
                    }
                    return granted;
                }
            }));
        }
        int total = 0;
        for (Future<Integer> f : grants) {
            total += f.get(5, TimeUnit.MINUTES);
        }
        pool.shutdown();

        List<LeaseEvent> granted = Operator.named("Auditor").leases().events(c.id()).stream()
                .filter(e -> e.kind() == LeaseEvent.Kind.ACQUIRED || e.kind() == LeaseEvent.Kind.EXPIRED_TAKEOVER)
                .sorted(Comparator.comparing(LeaseEvent::at)).toList();
        assertThat(granted).hasSize(total);
        assertThat(total).isGreaterThan(clients);
        for (int i = 1; i < granted.size(); i++) {
            LeaseEvent before = granted.get(i - 1);
            LeaseEvent after = granted.get(i);
            Instant beforeEnds = before.expiresAt().orElseThrow();
            assertThat(after.at()).as("grant %d starts after grant %d ends", after.token(), before.token())
                    .isAfterOrEqualTo(beforeEnds);
            assertThat(after.token()).isGreaterThan(before.token());
        }
    }

    /** Simulated think time between a client's steps: load shape, not synchronization. */
    private static void think(ThreadLocalRandom random) {
        LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(random.nextInt(0, 3_000)));
    }
}
