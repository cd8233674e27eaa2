package org.lockstep.server;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Loads the customer list's indexes and table into the server's buffer cache once, at the client's start, in the
 * background ({@code lockstep_warm_up()}, V24: {@code pg_prewarm} where the server has it). Right after a server
 * starts, a search reads every page it needs from disk or from the operating system's cache: issue 29 measured the
 * first pass of an operator's searches on a million customers fifteen times slower than the second. The warm-up runs
 * on a connection of its own to the server itself (never through a pooler), outside the pool, so the window's first
 * page and count never wait for it; it ends by itself, at the latest after {@link #TIMEOUT_MS}, or when
 * {@link #close} cancels it.
 */
public final class CacheWarmUp implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(CacheWarmUp.class);

    /** How long the warm-up may run, in ms: a million customers' table and indexes load in seconds. */
    static final long TIMEOUT_MS = 120_000;

    /** How long {@link #close} waits for the cancelled warm-up's thread to end, in ms. */
    static final long CLOSE_WAIT_MS = 5_000;

    private final Thread thread;
    private final AtomicReference<Statement> running = new AtomicReference<>();
    private volatile boolean closed;
    private volatile long pagesLoaded = -1;

    private CacheWarmUp(Database db) {
        this.thread = new Thread(() -> run(db), "lockstep-cache-warm-up");
        thread.setDaemon(true);
        thread.setPriority(Thread.MIN_PRIORITY);
    }

    /** Starts warming {@code db}'s server in the background; close the result with the database. */
    public static CacheWarmUp start(Database db) {
        CacheWarmUp w = new CacheWarmUp(db);
        w.thread.start();
        return w;
    }

    private void run(Database db) {
        Properties props = new Properties();
        props.putAll(db.credentials());
        props.setProperty("ApplicationName", db.application() + " (warm-up)");
        try (Connection c = DriverManager.getConnection(db.urls().listen(), props);
                Statement s = c.createStatement()) {
            running.set(s);
            if (closed) {
                return;
            }
            s.execute("SET statement_timeout = " + TIMEOUT_MS);
            long t0 = System.nanoTime();
            try (ResultSet rs = s.executeQuery("SELECT lockstep_warm_up()")) {
                rs.next();
                pagesLoaded = rs.getLong(1);
            }
            LOG.info("Warmed the server's cache: {} pages of the customer list in {} ms", pagesLoaded,
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
        } catch (SQLException e) {
            // Only speed is lost: the searches read from disk until the cache fills by itself.
            if (!closed) {
                LOG.info("Could not warm the server's cache: {}", e.getMessage());
            }
        } finally {
            running.set(null);
        }
    }

    /** The pages loaded into the buffer cache; -1 while running or when it failed, 0 without pg_prewarm. */
    long pagesLoaded() {
        return pagesLoaded;
    }

    /** Whether the warm-up has ended, however. */
    boolean done() {
        return !thread.isAlive();
    }

    /** Waits up to {@code ms} for the warm-up to end; true when it has. */
    public boolean await(long ms) throws InterruptedException {
        thread.join(ms);
        return done();
    }

    /** Cancels the warm-up if it still runs and waits for its thread (at most {@link #CLOSE_WAIT_MS}). */
    @Override
    public void close() {
        closed = true;
        Statement s = running.get();
        if (s != null) {
            try {
                s.cancel();
            } catch (SQLException e) {
                LOG.debug("Could not cancel the warm-up: {}", e.getMessage());
            }
        }
        try {
            thread.join(CLOSE_WAIT_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
