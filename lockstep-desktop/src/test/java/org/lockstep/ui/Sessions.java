package org.lockstep.ui;

import org.lockstep.editing.LeaseSettings;
import org.lockstep.domain.ConcurrencyMode;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.ScheduledExecutorService;
import javafx.beans.property.SimpleObjectProperty;
import org.lockstep.server.Database;
import org.lockstep.domain.CustomerRepository;
import org.lockstep.store.JdbiCustomerRepository;
import org.lockstep.store.JdbiHistoryRepository;
import org.lockstep.store.JdbiLeaseRepository;
import org.lockstep.concurrency.TaskExecutor;
import org.lockstep.ui.lock.EditLockViewModel;
import org.lockstep.ui.lock.OpenLocks;

/** An operator's session on a test database, as the application wires it: the real repositories acting as a user. */
public final class Sessions {

    /**
     * Timers of the tests' editor locks (renewals, polls, idle checks); daemon threads, shared by all tests. Its
     * threads live only while a timer is pending (cancelled timers leave the queue at once, an idle thread ends
     * after {@link #SCHEDULER_IDLE_MS} ms): a test that closes its editors and boards leaves no thread of it running,
     * and one that does not is caught by the leak check (issue 27).
     */
    public static final ScheduledExecutorService SCHEDULER = scheduler();

    /** How long a thread of {@link #SCHEDULER} waits without a pending timer before it ends, ms. */
    static final long SCHEDULER_IDLE_MS = 500;

    private static ScheduledExecutorService scheduler() {
        ScheduledThreadPoolExecutor pool = new ScheduledThreadPoolExecutor(2, r -> {
            Thread t = new Thread(r, "test-leases");
            t.setDaemon(true);
            return t;
        });
        pool.setRemoveOnCancelPolicy(true);
        pool.setKeepAliveTime(SCHEDULER_IDLE_MS, TimeUnit.MILLISECONDS);
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }

    private Sessions() {
    }

    /** The real, Jdbi-backed repository writing as {@code user}. */
    public static CustomerRepository repository(Database db, String user) {
        return new JdbiCustomerRepository(db.jdbi(), user);
    }

    /**
     * Lock timings for tests: a short TTL (renewed every third of it) and a fast poll, so that waiting for a lease
     * to end or a lock loss to be noticed takes a second or two, not a minute.
     */
    public static LeaseSettings quickLocks() {
        return new LeaseSettings(Duration.ofSeconds(3), Duration.ofMinutes(15), Duration.ofMinutes(1),
                Duration.ofMillis(200));
    }

    /**
     * Everything an editor of {@code user}'s session needs, as the application builds it: customer and lease
     * repositories sharing one new session id, the history, optimistic by default.
     *
     * @param fxThread where lock timers deliver their results ({@code Platform::runLater}, or {@code Runnable::run}
     *                 in view-model tests)
     */
    public static EditorServices services(Database db, String user, TaskExecutor executor, Executor fxThread,
            LeaseSettings lockSettings) {
        String session = user + "-" + UUID.randomUUID();
        return EditorServices.builder(new JdbiCustomerRepository(db.jdbi(), user, session),
                new JdbiHistoryRepository(db.jdbi()), new JdbiLeaseRepository(db.jdbi(), user, session), executor,
                fxThread, SCHEDULER, user, lockSettings, new SimpleObjectProperty<>(ConcurrencyMode.OPTIMISTIC),
                new OpenLocks()).build();
    }
}
