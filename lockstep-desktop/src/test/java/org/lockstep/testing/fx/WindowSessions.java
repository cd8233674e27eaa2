package org.lockstep.testing.fx;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import javafx.application.Platform;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.commons.support.AnnotationSupport;
import org.lockstep.domain.ChangeFeed;
import org.lockstep.domain.CustomerRepository;
import org.lockstep.editing.LeaseSettings;
import org.lockstep.server.Database;
import org.lockstep.store.JdbiPresenceRepository;
import org.lockstep.testing.db.TestDatabases;
import org.lockstep.ui.EditorServices;
import org.lockstep.ui.FxTaskExecutor;
import org.lockstep.ui.Sessions;
import org.lockstep.ui.demo.DemoSession;
import org.lockstep.ui.demo.OpenDemo;
import org.lockstep.ui.guihandles.Fx;
import org.lockstep.ui.live.LiveUpdates;
import org.lockstep.ui.presence.PresenceBoard;
import org.testfx.api.FxToolkit;

/**
 * The set-up window tests share (issue 27): one fresh database for the class, the background executors its operators
 * run on, each operator's {@link EditorServices} as the application wires them — with a change feed of their own and
 * a presence board where a test asks for them — and the demo's windows; and the ending of all of it, in the one order
 * that keeps a call in flight from failing into a later class's test. Registered as a static field of a
 * {@link WindowTest} {@code @DatabaseTest} class:
 * <pre>{@code @RegisterExtension static final WindowSessions SESSIONS = new WindowSessions();}</pre>
 * The database exists before the class's {@code @BeforeAll} methods; after its {@code @AfterAll} methods the demos
 * close, then every window still open, then the presence boards (a heartbeat must not fire into a closed executor),
 * the feeds, the executors (each awaited: an executor still busy after 10 s fails the class), and last the database.
 * {@link #open()} makes one outside JUnit ({@link org.lockstep.ui.TwoOperators#open()}); {@link #close()} ends it
 * there, leaving windows alone.
 */
public final class WindowSessions implements BeforeAllCallback, AfterAllCallback, AutoCloseable {

    /** How long an executor may take to finish its calls in flight once closed. */
    static final Duration EXECUTOR_PATIENCE = Duration.ofSeconds(10);

    private Database db;
    private final List<DemoSession> demos = new ArrayList<>();
    private final List<PresenceBoard> boards = new ArrayList<>();
    private final List<ChangeFeed> feeds = new ArrayList<>();
    private final List<FxTaskExecutor> executors = new ArrayList<>();
    // The presence boards' heartbeats: the class's own timer thread, started with the first board and ended after the
    // class. On the scheduler the tests share (Sessions.SCHEDULER), whose idle threads end and start again, a
    // heartbeat every second kept a thread of it alive from one test into the next, a new one each time (issue 27).
    private ScheduledThreadPoolExecutor heartbeats;

    /** Sessions to register as an extension: the database is made before the test class. */
    public WindowSessions() {
    }

    /** Sessions on a database made now, for use outside JUnit; {@link #close()} them. */
    public static WindowSessions open() {
        WindowSessions sessions = new WindowSessions();
        sessions.db = TestDatabases.fresh();
        return sessions;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        db = TestDatabases.fresh();
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        closeDemos();
        // Editors let their leases go when hidden, through the executors: the windows close while those still run.
        if (AnnotationSupport.isAnnotated(context.getRequiredTestClass(), WindowTest.class)) {
            FxToolkit.cleanupStages();
        }
        closeTheRest();
    }

    /** Ends what these sessions started (demos, boards, feeds, executors, the database), leaving windows alone. */
    @Override
    public void close() {
        closeDemos();
        closeTheRest();
    }

    /** The class's database. */
    public Database db() {
        return db;
    }

    /** A background executor of {@code threads} threads, delivering on the FX thread; ended after the class. */
    public FxTaskExecutor executor(int threads) {
        FxTaskExecutor executor = new FxTaskExecutor(threads);
        executors.add(executor);
        return executor;
    }

    /** The real repository writing as {@code user}. */
    public CustomerRepository repository(String user) {
        return Sessions.repository(db, user);
    }

    /** {@code user}'s services on {@code executor}, delivering on the FX thread, with quick lock timings. */
    public EditorServices operator(String user, FxTaskExecutor executor) {
        return operator(user, executor, Sessions.quickLocks());
    }

    /** {@code user}'s services on {@code executor}, delivering on the FX thread, with these lock timings. */
    public EditorServices operator(String user, FxTaskExecutor executor, LeaseSettings locks) {
        return Sessions.services(db, user, executor, Platform::runLater, locks);
    }

    /**
     * {@code plain} with a change feed of its client's own (LISTEN/NOTIFY), as the application wires each client:
     * returned once the feed is live; the feed closes after the class.
     */
    public EditorServices live(EditorServices plain) {
        LiveUpdates live = new LiveUpdates(Platform::runLater, plain.clientSession());
        ChangeFeed feed = db.changeFeed(live);
        feeds.add(feed);
        feed.start();
        Fx.await(plain.user() + "'s change feed to be live", () -> feed.status() == ChangeFeed.Status.LIVE);
        return plain.toBuilder().live(live).build();
    }

    /**
     * {@code withFeed} (from {@link #live}) with a presence board following its feed: a 30 s presence, a heartbeat
     * every second on the class's own timer thread, reading through {@code executor}; the board and its timer
     * stop after the class, before the feeds and executors.
     */
    public EditorServices present(EditorServices withFeed, FxTaskExecutor executor) {
        String session = withFeed.customers().sessionId();
        if (heartbeats == null) {
            heartbeats = new ScheduledThreadPoolExecutor(1, r -> {
                Thread t = new Thread(r, "test-heartbeats");
                t.setDaemon(true);
                return t;
            });
            heartbeats.setRemoveOnCancelPolicy(true);
            heartbeats.prestartAllCoreThreads();
        }
        PresenceBoard board = new PresenceBoard(new JdbiPresenceRepository(db.jdbi(), withFeed.user(), session,
                Duration.ofSeconds(30)), executor, Platform::runLater, heartbeats, Duration.ofSeconds(1));
        boards.add(board);
        board.follow(withFeed.live());
        board.start();
        return withFeed.toBuilder().presence(board).build();
    }

    /**
     * The demo's windows (Alice, Bob and the Trainer) on the class's database, on an executor of one thread, leases
     * lasting {@code leaseTtl}; closed after the class, before any other window.
     */
    public DemoSession demo(Duration leaseTtl) {
        DemoSession demo = OpenDemo.open(db, executor(1), leaseTtl);
        demos.add(demo);
        return demo;
    }

    private void closeDemos() {
        try {
            for (DemoSession demo : demos) {
                OpenDemo.close(demo); // the clients' pools close before the database
            }
        } catch (Exception e) {
            throw new IllegalStateException("The demo did not close", e);
        } finally {
            demos.clear();
        }
    }

    private void closeTheRest() {
        boards.forEach(PresenceBoard::stop);
        boards.clear();
        boolean heartbeatsEnded = true;
        if (heartbeats != null) {
            heartbeats.shutdown();
            try {
                heartbeatsEnded = heartbeats.awaitTermination(EXECUTOR_PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                heartbeatsEnded = false;
            }
            heartbeats = null;
        }
        feeds.forEach(ChangeFeed::close);
        feeds.clear();
        List<FxTaskExecutor> busy = new ArrayList<>();
        for (FxTaskExecutor executor : executors) {
            // Awaited before the database closes: a call still in flight would fail on the closed pool and post its
            // failure to the FX thread, into a later class's test.
            if (!executor.closeAndWait(EXECUTOR_PATIENCE)) {
                busy.add(executor);
            }
        }
        executors.clear();
        if (db != null) {
            db.close();
        }
        if (!busy.isEmpty() || !heartbeatsEnded) {
            throw new IllegalStateException(
                    busy.size() + " executor(s)" + (heartbeatsEnded ? "" : " and the heartbeats")
                            + " still busy " + EXECUTOR_PATIENCE.toSeconds() + " s after the class");
        }
    }
}
