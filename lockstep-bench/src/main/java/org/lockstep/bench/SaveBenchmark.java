package org.lockstep.bench;

import java.io.PrintWriter;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.lockstep.server.Database;
import org.lockstep.synthetic.SyntheticCustomers;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.SaveOutcome;
import org.lockstep.store.JdbiCustomerRepository;

/**
 * Versioned saves through Lockstep's store ({@link JdbiCustomerRepository#save}) beside the same statement run raw
 * through JDBC ({@link RawJdbcSave}) and beside the plain versioned UPDATE on two trigger-free copies of the rows
 * ({@link TriggerFreeSave}): one with the customer table's every constraint and index, one bare (primary key only, the
 * physical limit), on the same pool. It also reads how many of the customer table's updates were heap-only (HOT)
 * while it ran (pg_stat_user_tables). Each client is a thread saving its own row over and over,
 * each save based on the version the previous one returned, so no save conflicts and the two paths do the same
 * database work. The paths alternate in short rounds (ABBA order), so that neither gets a warmer cache or a quieter
 * moment on a shared machine; each path is measured for the same total time. Throughput is saves over the time
 * measured, summed over the rounds; latencies are per save, from call to return.
 */
final class SaveBenchmark {

    /**
     * Length of one round of one path, in seconds. Short rounds spread a burst of load from other programs over
     * both paths; on the shared 2-core machine, 1-second rounds moved the ratio by ±0.2 from run to run.
     */
    static final double ROUND_SECONDS = 0.2;

    /** The three ways of saving that are compared. */
    enum Path {
        LOCKSTEP("Lockstep store"),
        RAW("raw JDBC"),
        LIMIT("trigger-free table"),
        BARE("bare copy");

        final String label;

        Path(String label) {
            this.label = label;
        }
    }

    /**
     * One path at one number of clients.
     *
     * @param ops     saves completed while measuring
     * @param seconds time measured, summed over the rounds
     */
    record PathResult(Path path, long ops, double seconds, Latencies latencies) {
        double opsPerSecond() {
            return ops / seconds;
        }
    }

    /**
     * The paths at one number of clients.
     *
     * @param medianRoundRatio      the median over rounds of Lockstep's throughput over raw JDBC's in the same round;
     *                              less swayed than {@link #ratio()} by other programs' bursts on a shared machine
     * @param medianRoundLimitRatio the same for Lockstep over the trigger-free table
     */
    /**
     * @param medianRoundBareRatio the same for Lockstep over the bare copy
     * @param hot                  the customer table's updates while the store and raw JDBC saved (warm-up included),
     *                             and how many of them were heap-only
     */
    record Result(int clients, PathResult lockstep, PathResult raw, PathResult limit, PathResult bare,
            double medianRoundRatio, double medianRoundLimitRatio, double medianRoundBareRatio, HotUpdates hot) {
        /** Lockstep's throughput over raw JDBC's: 1.0 means no overhead. */
        double ratio() {
            return lockstep.opsPerSecond() / raw.opsPerSecond();
        }

        /** Lockstep's throughput over the trigger-free table's: what history, notifications and checks cost. */
        double limitRatio() {
            return lockstep.opsPerSecond() / limit.opsPerSecond();
        }

        /** Lockstep's throughput over the bare copy's: what every feature and index of the customer costs. */
        double bareRatio() {
            return lockstep.opsPerSecond() / bare.opsPerSecond();
        }
    }

    /**
     * The customer table's updates and heap-only updates over a run ({@code n_tup_upd}, {@code n_tup_hot_upd} of
     * pg_stat_user_tables, PostgreSQL docs 27.2.20).
     */
    record HotUpdates(long updates, long hot) {
        /** The heap-only share, 0 to 1; 0 when nothing was updated. */
        double share() {
            return updates == 0 ? 0 : (double) hot / updates;
        }
    }

    private final JdbiCustomerRepository repository;
    private final RawJdbcSave raw;
    private final TriggerFreeSave limit;
    private final TriggerFreeSave bare;
    private final Database db;
    private final PrintWriter progress;

    SaveBenchmark(Database db, String user, PrintWriter progress) {
        this.repository = new JdbiCustomerRepository(db.jdbi(), user);
        this.raw = new RawJdbcSave(db.jdbi(), db.dataSource(), user);
        this.limit = new TriggerFreeSave(db, user, TriggerFreeSave.Copy.INDEXED);
        this.bare = new TriggerFreeSave(db, user, TriggerFreeSave.Copy.BARE);
        this.db = db;
        this.progress = progress;
    }

    /**
     * Measures each number of clients in turn.
     *
     * @param seconds measured time per path and client count
     * @param warmup  unmeasured time per path before measuring
     */
    List<Result> run(List<Integer> clientCounts, double seconds, double warmup) {
        List<Result> results = new ArrayList<>();
        for (int clients : clientCounts) {
            results.add(run(clients, seconds, warmup));
        }
        return results;
    }

    private Result run(int clients, double seconds, double warmup) {
        List<Customer> rows = createRows(clients);
        long[] versions = rows.stream().mapToLong(Customer::version).toArray();
        long[] limitVersions = versions.clone();
        long[] bareVersions = versions.clone();
        try {
            limit.create(rows.stream().map(Customer::id).toList());
            bare.create(rows.stream().map(Customer::id).toList());
        } catch (SQLException e) {
            deleteRows(rows, versions);
            dropCopies();
            throw new IllegalStateException("Could not create the trigger-free copies of the table: " + e.getMessage(),
                    e);
        }
        HotUpdates before = hotUpdates();
        long[] customerSaves = {0};
        CustomerData[][] variants = variants(rows);
        ExecutorService pool = Executors.newFixedThreadPool(clients, r -> {
            Thread t = new Thread(r, "lockstep-bench-client");
            t.setDaemon(true);
            return t;
        });
        try {
            progress.printf("%d client%s: warming up %.0f s per path…%n", clients, clients == 1 ? "" : "s", warmup);
            progress.flush();
            if (warmup > 0) {
                for (Path p : Path.values()) {
                    PathResult r = phase(pool, p, rows, versionsOf(p, versions, limitVersions, bareVersions),
                            variants, warmup);
                    customerSaves[0] += p == Path.LOCKSTEP || p == Path.RAW ? r.ops() : 0;
                }
            }
            progress.printf("%d client%s: measuring %.0f s per path…%n", clients, clients == 1 ? "" : "s", seconds);
            progress.flush();
            int rounds = (int) Math.max(1, Math.round(seconds / ROUND_SECONDS));
            double slice = seconds / rounds;
            PathResult[] total = {empty(Path.LOCKSTEP), empty(Path.RAW), empty(Path.LIMIT), empty(Path.BARE)};
            double[] roundRatios = new double[rounds];
            double[] roundLimitRatios = new double[rounds];
            double[] roundBareRatios = new double[rounds];
            for (int k = 0; k < rounds; k++) {
                // Each path first, second and last in turn, forwards and backwards (ABC, CBA, BCA, ACB, …), so
                // that no path always runs after another.
                List<Path> order = new ArrayList<>(List.of(Path.values()));
                java.util.Collections.rotate(order, k / 2);
                if (k % 2 == 1) {
                    java.util.Collections.reverse(order);
                }
                double[] opsPerSecond = new double[Path.values().length];
                for (Path p : order) {
                    PathResult r = phase(pool, p, rows, versionsOf(p, versions, limitVersions, bareVersions),
                            variants, slice);
                    customerSaves[0] += p == Path.LOCKSTEP || p == Path.RAW ? r.ops() : 0;
                    opsPerSecond[p.ordinal()] = r.opsPerSecond();
                    PathResult t = total[p.ordinal()];
                    t.latencies().add(r.latencies());
                    total[p.ordinal()] = new PathResult(p, t.ops() + r.ops(), t.seconds() + r.seconds(),
                            t.latencies());
                }
                roundRatios[k] = opsPerSecond[Path.LOCKSTEP.ordinal()] / opsPerSecond[Path.RAW.ordinal()];
                roundLimitRatios[k] = opsPerSecond[Path.LOCKSTEP.ordinal()] / opsPerSecond[Path.LIMIT.ordinal()];
                roundBareRatios[k] = opsPerSecond[Path.LOCKSTEP.ordinal()] / opsPerSecond[Path.BARE.ordinal()];
            }
            Arrays.sort(roundRatios);
            Arrays.sort(roundLimitRatios);
            Arrays.sort(roundBareRatios);
            HotUpdates after = hotUpdatesAfter(before, customerSaves[0]);
            return new Result(clients, total[0], total[1], total[2], total[3], roundRatios[rounds / 2],
                    roundLimitRatios[rounds / 2], roundBareRatios[rounds / 2],
                    new HotUpdates(after.updates() - before.updates(), after.hot() - before.hot()));
        } finally {
            pool.shutdownNow();
            deleteRows(rows, versions);
            dropCopies();
        }
    }

    private static long[] versionsOf(Path p, long[] customer, long[] indexedCopy, long[] bareCopy) {
        return switch (p) {
            case LOCKSTEP, RAW -> customer;
            case LIMIT -> indexedCopy;
            case BARE -> bareCopy;
        };
    }

    private void dropCopies() {
        for (TriggerFreeSave copy : List.of(limit, bare)) {
            try {
                copy.drop();
            } catch (SQLException e) {
                progress.printf("Could not drop %s: %s%n", copy.table(), e.getMessage());
            }
        }
    }

    /** The customer table's updates and heap-only updates so far, as the statistics collector has them. */
    private HotUpdates hotUpdates() {
        return db.jdbi().withHandle(h -> {
            h.execute("SELECT pg_stat_clear_snapshot()");
            return h.createQuery("SELECT n_tup_upd, n_tup_hot_upd FROM pg_stat_user_tables"
                    + " WHERE relid = 'customer'::regclass")
                    .map((rs, ctx) -> new HotUpdates(rs.getLong(1), rs.getLong(2))).one();
        });
    }

    /**
     * The counts once they include the {@code saves} made since {@code before}: a server process reports its counts
     * at most once a second, and when it goes idle (PostgreSQL docs 27.2, "Statistics Collection Configuration"), so
     * the last saves arrive a moment later. Waits at most 5 s, then takes what there is.
     */
    private HotUpdates hotUpdatesAfter(HotUpdates before, long saves) {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(5);
        HotUpdates now = hotUpdates();
        while (now.updates() - before.updates() < saves && System.nanoTime() < deadline) {
            java.util.concurrent.locks.LockSupport.parkNanos(java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(100));
            now = hotUpdates();
        }
        return now;
    }

    private static PathResult empty(Path p) {
        return new PathResult(p, 0, 0, new Latencies());
    }

    /** All clients save through one path for {@code seconds}; returns the saves done and their latencies. */
    private PathResult phase(ExecutorService pool, Path path, List<Customer> rows, long[] versions,
            CustomerData[][] variants, double seconds) {
        CountDownLatch start = new CountDownLatch(1);
        long durationNanos = (long) (seconds * 1e9);
        List<Future<PathResult>> clients = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            int client = i;
            clients.add(pool.submit(() -> {
                start.await();
                return client(path, rows.get(client).id(), versions, client, variants[client], durationNanos);
            }));
        }
        long began = System.nanoTime();
        start.countDown();
        Latencies all = new Latencies();
        long ops = 0;
        for (Future<PathResult> f : clients) {
            PathResult r = result(f);
            all.add(r.latencies());
            ops += r.ops();
        }
        return new PathResult(path, ops, (System.nanoTime() - began) / 1e9, all);
    }

    private PathResult client(Path path, long id, long[] versions, int client, CustomerData[] variants,
            long durationNanos) throws SQLException {
        Latencies latencies = new Latencies();
        long ops = 0;
        long version = versions[client];
        long deadline = System.nanoTime() + durationNanos;
        try {
            long now;
            while ((now = System.nanoTime()) < deadline) {
                CustomerData data = variants[(int) (ops & 1)];
                version = switch (path) {
                    case LOCKSTEP -> viaStore(id, version, data);
                    case RAW -> viaRawJdbc(id, version, data);
                    case LIMIT -> limit.save(id, version, data).orElseThrow(() -> new IllegalStateException(
                            "A benchmark row was changed by someone else (copy of customer " + id + ")"));
                    case BARE -> bare.save(id, version, data).orElseThrow(() -> new IllegalStateException(
                            "A benchmark row was changed by someone else (bare copy of customer " + id + ")"));
                };
                latencies.recordNanos(System.nanoTime() - now);
                ops++;
            }
        } finally {
            versions[client] = version;
        }
        return new PathResult(path, ops, durationNanos / 1e9, latencies);
    }

    private long viaStore(long id, long base, CustomerData data) {
        SaveOutcome outcome = repository.save(id, base, data);
        if (outcome instanceof SaveOutcome.Saved saved) {
            return saved.saved().version();
        }
        throw new IllegalStateException("A benchmark row was changed by someone else (customer " + id + ")");
    }

    private long viaRawJdbc(long id, long base, CustomerData data) throws SQLException {
        return raw.save(id, base, data).orElseThrow(() -> new IllegalStateException(
                "A benchmark row was changed by someone else (customer " + id + ")"));
    }

    /** One row per client, realistic values, external refs that cannot collide with anyone's. */
    private List<Customer> createRows(int clients) {
        String run = UUID.randomUUID().toString().substring(0, 8);
        SyntheticCustomers generator = new SyntheticCustomers(run.hashCode());
        List<Customer> rows = new ArrayList<>();
        for (int i = 1; i <= clients; i++) {
            rows.add(repository.create(generator.customer(i)
                    .with(CustomerField.EXTERNAL_REF, "BENCH-" + run + "-" + i)));
        }
        return rows;
    }

    /** Two versions of each row's values; saves alternate between them, so every save changes the row. */
    private static CustomerData[][] variants(List<Customer> rows) {
        CustomerData[][] v = new CustomerData[rows.size()][];
        for (int i = 0; i < v.length; i++) {
            CustomerData d = rows.get(i).data();
            v[i] = new CustomerData[]{
                    d.with(CustomerField.NOTES, "Benchmark save, values A").normalized(),
                    d.with(CustomerField.NOTES, "Benchmark save, values B").normalized()};
        }
        return v;
    }

    /** Removes the benchmark's rows (versioned deletes, at the versions the last saves returned). */
    private void deleteRows(List<Customer> rows, long[] versions) {
        for (int i = 0; i < rows.size(); i++) {
            repository.delete(rows.get(i).id(), versions[i]);
        }
    }

    private static PathResult result(Future<PathResult> f) {
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while benchmarking", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            throw cause instanceof RuntimeException r ? r : new IllegalStateException(cause.getMessage(), cause);
        }
    }
}
