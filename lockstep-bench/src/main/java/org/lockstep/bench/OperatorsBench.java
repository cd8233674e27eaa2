package org.lockstep.bench;

import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.lockstep.server.Database;
import org.lockstep.server.SampleData;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerField;
import org.lockstep.store.JdbiCustomerRepository;

/**
 * {@code bench operators}: N full clients in one process ({@link OperatorClient}), each working at an operator's pace
 * on two customers of its own and, one round in five, on one of a few customers everyone shares (conflicts, merges);
 * one round in ten in lock mode. Meanwhile it samples how many connections the server serves
 * ({@code pg_stat_activity}, client backends, on a connection of its own to the listen URL, not counted).
 */
final class OperatorsBench {

    /** Customers every operator sometimes works on. */
    static final int SHARED_CUSTOMERS = 5;

    /**
     * The figures of a run.
     *
     * @param clients           operators simulated
     * @param seconds           the run's length, s
     * @param peakConnections   the most client backends the server had at once during the run
     * @param endConnections    client backends at the end of the run, all clients still open
     * @param clientsLive       clients whose change feed was listening at the end
     * @param saveLatencies     from a save's start to its acknowledgement
     * @param liveLatencies     from a save's start to another client hearing of it (every other client)
     * @param cpuSeconds        CPU time this process used during the run, s
     */
    record Result(int clients, double seconds, int peakConnections, int endConnections, long saves, long conflicts,
            long merged, long lockedOut, long leases, long errors, int clientsLive, Latencies saveLatencies,
            Latencies liveLatencies, double cpuSeconds) {
    }

    private final Database setup;
    private final PrintWriter err;

    OperatorsBench(Database setup, PrintWriter err) {
        this.setup = setup;
        this.err = err;
    }

    Result run(int clientCount, Duration length, Duration thinkMin, Duration thinkMax) throws Exception {
        List<Long> ids = customers(clientCount * 2 + SHARED_CUSTOMERS);
        ScheduledExecutorService timers = Executors.newScheduledThreadPool(2, daemon("lockstep-bench-timers"));
        ExecutorService operators = Executors.newFixedThreadPool(clientCount, daemon("lockstep-bench-operator"));
        Map<Long, Long> started = OperatorClient.newStartTimes();
        List<OperatorClient> clients = new ArrayList<>();
        try (Connection monitor = monitor()) {
            for (int i = 0; i < clientCount; i++) {
                clients.add(new OperatorClient(setup.anotherClient("Lockstep bench operator " + i), "operator-" + i,
                        timers, started));
            }
            err.printf("%d clients connected; working for %s%n", clientCount, length);
            err.flush();
            long deadline = System.nanoTime() + length.toNanos();
            long cpuBefore = cpuNanos();
            long wallBefore = System.nanoTime();
            List<Future<?>> running = new ArrayList<>();
            for (int i = 0; i < clientCount; i++) {
                OperatorClient client = clients.get(i);
                long own = ids.get(SHARED_CUSTOMERS + 2 * i);
                long own2 = ids.get(SHARED_CUSTOMERS + 2 * i + 1);
                running.add(operators.submit(() -> {
                    SplittableRandom random = new SplittableRandom();
                    while (System.nanoTime() < deadline) {
                        long id = random.nextInt(5) == 0 ? ids.get(random.nextInt(SHARED_CUSTOMERS))
                                : random.nextBoolean() ? own : own2;
                        long think = random.nextLong(thinkMin.toNanos(), thinkMax.toNanos() + 1);
                        client.work(id, think, random.nextInt(10) == 0, random);
                    }
                }));
            }
            int peak = 0;
            while (running.stream().anyMatch(f -> !f.isDone())) {
                peak = Math.max(peak, serverConnections(monitor));
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(500));
            }
            for (Future<?> f : running) {
                f.get();
            }
            double seconds = (System.nanoTime() - wallBefore) / 1e9;
            double cpu = (cpuNanos() - cpuBefore) / 1e9;
            int end = serverConnections(monitor);
            int live = (int) clients.stream().filter(OperatorClient::live).count();
            // Feeds and heartbeats stop before their counts are read: nothing records while the summary adds up.
            clients.forEach(OperatorClient::close);
            return summary(clients, clientCount, seconds, Math.max(peak, end), end, live, cpu);
        } finally {
            operators.shutdownNow();
            clients.forEach(OperatorClient::close);
            timers.shutdownNow();
        }
    }

    private static Result summary(List<OperatorClient> clients, int clientCount, double seconds, int peak, int end,
            int live, double cpu) {
        Latencies saves = new Latencies();
        Latencies heard = new Latencies();
        long[] n = new long[6];
        for (OperatorClient c : clients) {
            saves.add(c.saveLatencies());
            heard.add(c.liveLatencies());
            OperatorClient.Counts k = c.counts();
            synchronized (k) {
                n[0] += k.saves;
                n[1] += k.conflicts;
                n[2] += k.merged;
                n[3] += k.lockedOut;
                n[4] += k.leases;
                n[5] += k.errors;
            }
        }
        return new Result(clientCount, seconds, peak, end, n[0], n[1], n[2], n[3], n[4], n[5], live, saves, heard,
                cpu);
    }

    /** Creates the customers the operators work on, in one go, and returns their ids. */
    private List<Long> customers(int count) {
        JdbiCustomerRepository repo = new JdbiCustomerRepository(setup.jdbi(), "bench setup");
        List<CustomerData> sample = SampleData.customers();
        List<Long> ids = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            Customer c = repo.create(sample.get(i % sample.size()).with(CustomerField.EXTERNAL_REF, null));
            ids.add(c.id());
        }
        return ids;
    }

    /** A connection of its own to the server itself (the listen URL), to count the server's connections. */
    private Connection monitor() throws SQLException {
        Properties p = new Properties();
        setup.credentials().forEach(p::setProperty);
        p.setProperty("ApplicationName", "Lockstep bench monitor");
        return DriverManager.getConnection(setup.urls().listen(), p);
    }

    private static int serverConnections(Connection monitor) throws SQLException {
        try (Statement s = monitor.createStatement();
                ResultSet rs = s.executeQuery("SELECT count(*) FROM pg_stat_activity"
                        + " WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    private static long cpuNanos() {
        return ManagementFactory.getPlatformMXBean(com.sun.management.OperatingSystemMXBean.class)
                .getProcessCpuTime();
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, name + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
