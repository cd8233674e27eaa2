package org.lockstep.bench;

import java.io.PrintWriter;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.lockstep.server.Database;
import org.lockstep.synthetic.SyntheticCustomers;
import org.lockstep.domain.AcquireOutcome;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.store.JdbiCustomerRepository;
import org.lockstep.store.JdbiLeaseRepository;

/**
 * Lease grants and releases through Lockstep's store ({@link JdbiLeaseRepository#acquire} then
 * {@link JdbiLeaseRepository#release}) beside the same two statements through raw JDBC ({@link RawJdbcLease}), on
 * the same pool. Each client is a thread taking and giving back the lease of its own customer, so nobody waits for
 * anybody and both paths do the same database work. Paths alternate in short rounds, as in {@link SaveBenchmark}.
 * One operation is an acquire plus its release.
 */
final class LeaseBenchmark {

    enum Path { LOCKSTEP, RAW }

    record PathResult(long ops, double seconds, Latencies latencies) {
        double opsPerSecond() {
            return ops / seconds;
        }
    }

    record Result(int clients, PathResult lockstep, PathResult raw) {
        double ratio() {
            return lockstep.opsPerSecond() / raw.opsPerSecond();
        }
    }

    private static final long TTL_MS = 60_000;

    private final Database db;
    private final String user;
    private final PrintWriter progress;

    LeaseBenchmark(Database db, String user, PrintWriter progress) {
        this.db = db;
        this.user = user;
        this.progress = progress;
    }

    List<Result> run(List<Integer> clientCounts, double seconds, double warmup) {
        List<Result> results = new ArrayList<>();
        for (int clients : clientCounts) {
            results.add(run(clients, seconds, warmup));
        }
        return results;
    }

    private Result run(int clients, double seconds, double warmup) {
        JdbiCustomerRepository customers = new JdbiCustomerRepository(db.jdbi(), user);
        String run = UUID.randomUUID().toString().substring(0, 8);
        SyntheticCustomers generator = new SyntheticCustomers(run.hashCode());
        List<Customer> rows = new ArrayList<>();
        for (int i = 1; i <= clients; i++) {
            rows.add(customers.create(generator.customer(i).with(CustomerField.EXTERNAL_REF,
                    "BENCH-LEASE-" + run + "-" + i)));
        }
        ExecutorService pool = Executors.newFixedThreadPool(clients, r -> {
            Thread t = new Thread(r, "lockstep-bench-lease");
            t.setDaemon(true);
            return t;
        });
        try {
            progress.printf("%d client%s: warming up, then measuring %.0f s per path…%n", clients,
                    clients == 1 ? "" : "s", seconds);
            progress.flush();
            if (warmup > 0) {
                phase(pool, Path.LOCKSTEP, rows, warmup);
                phase(pool, Path.RAW, rows, warmup);
            }
            int rounds = (int) Math.max(1, Math.round(seconds / SaveBenchmark.ROUND_SECONDS));
            double slice = seconds / rounds;
            PathResult[] total = {new PathResult(0, 0, new Latencies()), new PathResult(0, 0, new Latencies())};
            for (int k = 0; k < rounds; k++) {
                Path first = k % 2 == 0 ? Path.LOCKSTEP : Path.RAW;
                for (Path p : List.of(first, first == Path.LOCKSTEP ? Path.RAW : Path.LOCKSTEP)) {
                    PathResult r = phase(pool, p, rows, slice);
                    PathResult t = total[p.ordinal()];
                    t.latencies().add(r.latencies());
                    total[p.ordinal()] = new PathResult(t.ops() + r.ops(), t.seconds() + r.seconds(), t.latencies());
                }
            }
            return new Result(clients, total[0], total[1]);
        } finally {
            pool.shutdownNow();
            for (Customer c : rows) {
                customers.find(c.id()).ifPresent(now -> customers.delete(now.id(), now.version()));
            }
        }
    }

    private PathResult phase(ExecutorService pool, Path path, List<Customer> rows, double seconds) {
        CountDownLatch start = new CountDownLatch(1);
        long durationNanos = (long) (seconds * 1e9);
        List<Future<PathResult>> clients = new ArrayList<>();
        for (Customer row : rows) {
            clients.add(pool.submit(() -> {
                start.await();
                return client(path, row.id(), durationNanos);
            }));
        }
        long began = System.nanoTime();
        start.countDown();
        Latencies all = new Latencies();
        long ops = 0;
        for (Future<PathResult> f : clients) {
            PathResult r;
            try {
                r = f.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while benchmarking", e);
            } catch (ExecutionException e) {
                throw new IllegalStateException(e.getCause().getMessage(), e.getCause());
            }
            all.add(r.latencies());
            ops += r.ops();
        }
        return new PathResult(ops, (System.nanoTime() - began) / 1e9, all);
    }

    private PathResult client(Path path, long id, long durationNanos) throws SQLException {
        String session = user + "-bench-" + UUID.randomUUID();
        JdbiLeaseRepository store = new JdbiLeaseRepository(db.jdbi(), user, session);
        RawJdbcLease raw = new RawJdbcLease(db.dataSource(), user, session);
        Latencies latencies = new Latencies();
        long ops = 0;
        long deadline = System.nanoTime() + durationNanos;
        long now;
        while ((now = System.nanoTime()) < deadline) {
            if (path == Path.LOCKSTEP) {
                AcquireOutcome outcome = store.acquire(id, TTL_MS);
                if (!(outcome instanceof AcquireOutcome.Granted granted)) {
                    throw new IllegalStateException("A benchmark lease was held by someone else (customer " + id + ")");
                }
                store.release(id, granted.lease().token());
            } else {
                long token = raw.acquire(id, TTL_MS).orElseThrow(() -> new IllegalStateException(
                        "A benchmark lease was held by someone else (customer " + id + ")"));
                raw.release(id, token);
            }
            latencies.recordNanos(System.nanoTime() - now);
            ops++;
        }
        return new PathResult(ops, durationNanos / 1e9, latencies);
    }
}
