package org.lockstep.ui;

import org.lockstep.editing.LeaseSettings;
import org.lockstep.editing.WriterIds;
import org.lockstep.domain.ConcurrencyMode;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import javafx.application.Platform;
import javafx.beans.property.ObjectProperty;
import org.lockstep.domain.ChangeFeed;
import org.lockstep.ui.live.LiveUpdates;
import org.lockstep.ui.lock.EditLockViewModel;
import org.lockstep.ui.lock.OpenLocks;
import org.lockstep.ui.presence.PresenceBoard;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One operator's client on an open {@link UiContext.Backend}: the background executor, the timer thread for leases
 * and heartbeats, the change feed, presence and messages, wired into the {@link EditorServices} that every window of
 * that operator shares. The client session is the client's identity for presence and the feed; each editor writes as
 * a writer id of its own derived from it ({@link WriterIds}). The desktop application has one; the trainer demo has one per operator ("Alice" and
 * "Bob"), each on its own pool and session as if on two machines.
 */
public final class ClientSession {

    private static final Logger LOG = LoggerFactory.getLogger(ClientSession.class);

    private final FxTaskExecutor executor;
    private final ScheduledExecutorService scheduler;
    private final OpenLocks openLocks = new OpenLocks();
    private final PresenceBoard presence;
    private final LiveUpdates live;
    private final ChangeFeed feed;
    private final EditorServices services;

    private ClientSession(UiContext.Backend backend, String user, ObjectProperty<ConcurrencyMode> defaultMode) {
        executor = new FxTaskExecutor(3);
        scheduler = Executors.newScheduledThreadPool(1, r -> {
            Thread t = new Thread(r, "lockstep-leases-" + user);
            t.setDaemon(true);
            return t;
        });
        EditorServices.Builder base = EditorServices.builder(backend.repository(), backend.history(), backend.leases(),
                executor, Platform::runLater, scheduler, user,
                LeaseSettings.defaults(backend.leaseTtl(), backend.lockIdle()), defaultMode, openLocks);
        live = new LiveUpdates(Platform::runLater, backend.repository().sessionId());
        presence = new PresenceBoard(backend.presence(), executor, Platform::runLater, scheduler,
                PresenceBoard.HEARTBEAT);
        presence.follow(live);
        feed = backend.changeFeed().apply(live);
        services = base.presence(presence).messages(backend.messages())
                .mayBreakLocks(backend.operator().supervisor()).build();
    }

    /**
     * Starts a client on the FX thread: presence heartbeats and the change feed begin at once.
     *
     * @param user        the operator's name, written with every save
     * @param defaultMode the mode new editors start in
     */
    public static ClientSession start(UiContext.Backend backend, String user,
            ObjectProperty<ConcurrencyMode> defaultMode) {
        ClientSession session = new ClientSession(backend, user, defaultMode);
        session.presence.start();
        session.feed.start();
        return session;
    }

    /** The services every window of this operator shares. */
    public EditorServices services() {
        return services;
    }

    /** Other sessions' changes as they arrive, on the FX thread. */
    public LiveUpdates live() {
        return live;
    }

    /**
     * Stops the client on the FX thread without waiting: closes the feed, queues the release of every lease an
     * editor holds and the removal of this session's presence, stops the timers and takes no more work. The queued
     * calls finish in the background; {@link #awaitStopped(Duration)} waits for them.
     */
    public void stop() {
        feed.close();
        openLocks.closeAll(); // queues each held lease's release on the executor
        presence.stop(); // queues the removal of this session's presence rows
        scheduler.shutdownNow();
        executor.close();
    }

    /**
     * Waits up to {@code wait} for the calls {@link #stop()} queued; may block, so not on the FX thread unless the
     * application is exiting anyway.
     *
     * @return whether every queued call finished in time (a lease not released lapses by its TTL)
     */
    public boolean awaitStopped(Duration wait) {
        boolean finished = executor.closeAndWait(wait);
        if (!finished) {
            LOG.warn("Some database calls did not finish before exit; a held lease lapses by its TTL");
        }
        return finished;
    }

    /** {@link #stop()}, then {@link #awaitStopped(Duration)}: for the application's exit. */
    public boolean stop(Duration wait) {
        stop();
        return awaitStopped(wait);
    }
}
