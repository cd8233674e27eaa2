package org.lockstep.ui;

import org.lockstep.editing.LeaseSettings;
import org.lockstep.editing.WriterIds;
import org.lockstep.domain.ConcurrencyMode;
import org.lockstep.concurrency.TaskExecutor;
import java.time.Clock;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import javafx.beans.property.ObjectProperty;
import org.lockstep.domain.CustomerRepository;
import org.lockstep.domain.HistoryRepository;
import org.lockstep.domain.LeaseRepository;
import org.lockstep.domain.MessageRepository;
import org.lockstep.ui.live.LiveUpdates;
import org.lockstep.ui.lock.EditLockViewModel;
import org.lockstep.ui.lock.OpenLocks;
import org.lockstep.ui.presence.PresenceBoard;

/**
 * What every editor of one Lockstep process needs, created once by the application and handed to the main window,
 * its editor pane and every editor window. The customer and lease repositories act as the same client session
 * ({@link CustomerRepository#sessionId()} equals {@link LeaseRepository#sessionId()}). Each editor takes
 * {@link #forNewEditor()}: the same services writing as a writer id of its own ({@link WriterIds}), so that its own
 * lease never blocks its own saves while another editor's lease — another window of the same operator included —
 * does (docs/decisions/0012-one-writer-per-editor.md).
 *
 * @param customers    where customers are kept, acting as {@code user}
 * @param history      the version history, for the merge dialog's header
 * @param leases       the lease store, acting as the same session as {@code customers}
 * @param executor     runs database calls off the FX thread, results back on it
 * @param fxThread     delivers timer results to the FX thread ({@code Platform::runLater})
 * @param scheduler    runs lease renewals, polls and idle checks
 * @param user         the operator's name
 * @param lockSettings lease TTL, idle limit and poll interval
 * @param defaultMode  the mode new editors start in (a preference the main window's menu sets)
 * @param openLocks    every open editor's lock, released when the application stops
 * @param live         other sessions' changes as they happen, which open editors follow; {@code null} when the
 *                     process has no change feed (editors then learn of a newer version at save time)
 * @param presence     who else has a customer open, and where this process's editors announce themselves;
 *                     {@code null} when the process shows no presence
 * @param messages     messages to and from this session (a waiting operator to a lock's holder); {@code null}: none.
 *                     An editor's services receive those sent to its writer id: the holder of its lease
 * @param lastWriteWinsAllowed whether editors offer "Last write wins (unsafe)", the lost-update bug kept for teaching
 *                     ({@link ConcurrencyMode#LAST_WRITE_WINS}); only {@code lockstep demo} and
 *                     {@code --allow-unsafe} allow it. Even then a new editor starts in the (safe) default mode.
 */
public record EditorServices(CustomerRepository customers, HistoryRepository history, LeaseRepository leases,
                             TaskExecutor executor, Executor fxThread, ScheduledExecutorService scheduler, String user,
                             LeaseSettings lockSettings, ObjectProperty<ConcurrencyMode> defaultMode,
                             OpenLocks openLocks, LiveUpdates live, PresenceBoard presence,
                             MessageRepository messages, boolean lastWriteWinsAllowed) {

    /** Checks that every service is there and that both repositories act as one session. */
    public EditorServices {
        Objects.requireNonNull(customers, "customers");
        Objects.requireNonNull(history, "history");
        Objects.requireNonNull(leases, "leases");
        Objects.requireNonNull(executor, "executor");
        Objects.requireNonNull(fxThread, "fxThread");
        Objects.requireNonNull(scheduler, "scheduler");
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(lockSettings, "lockSettings");
        Objects.requireNonNull(defaultMode, "defaultMode");
        Objects.requireNonNull(openLocks, "openLocks");
        if (!customers.sessionId().equals(leases.sessionId())) {
            throw new IllegalArgumentException("The customer and lease repositories must act as one session, not "
                    + customers.sessionId() + " and " + leases.sessionId());
        }
    }

    /** The services as before the unsafe mode existed: "Last write wins (unsafe)" not allowed. */
    public EditorServices(CustomerRepository customers, HistoryRepository history, LeaseRepository leases,
                          TaskExecutor executor, Executor fxThread, ScheduledExecutorService scheduler, String user,
                          LeaseSettings lockSettings, ObjectProperty<ConcurrencyMode> defaultMode,
                          OpenLocks openLocks, LiveUpdates live, PresenceBoard presence, MessageRepository messages) {
        this(customers, history, leases, executor, fxThread, scheduler, user, lockSettings, defaultMode, openLocks,
                live, presence, messages, false);
    }

    /** Services without live updates: editors learn of another's save when their own save meets it. */
    public EditorServices(CustomerRepository customers, HistoryRepository history, LeaseRepository leases,
                          TaskExecutor executor, Executor fxThread, ScheduledExecutorService scheduler, String user,
                          LeaseSettings lockSettings,
                          ObjectProperty<ConcurrencyMode> defaultMode, OpenLocks openLocks) {
        this(customers, history, leases, executor, fxThread, scheduler, user, lockSettings, defaultMode, openLocks,
                null, null, null);
    }

    /**
     * The services for one new editor: customers, leases and messages acting as a new writer id of this client
     * ({@link WriterIds#next}), everything else shared — the executor, the feed, presence, the open locks. The editor's
     * saves carry the writer id, so that the client's other editors hear of them as of anyone's; its lease is held by
     * it, so that the client's other editors neither write under it nor past it; and a message to the holder of its
     * lease reaches it.
     */
    public EditorServices forNewEditor() {
        String writer = WriterIds.next(customers.sessionId());
        return new EditorServices(customers.asWriter(writer), history, leases.asWriter(writer), executor, fxThread,
                scheduler, user, lockSettings, defaultMode, openLocks, live, presence,
                messages == null ? null : messages.asWriter(writer), lastWriteWinsAllowed);
    }

    /** The change feed editors follow, if the process has one. */
    public Optional<LiveUpdates> liveUpdates() {
        return Optional.ofNullable(live);
    }

    /** The presence board, if the process shows presence. */
    public Optional<PresenceBoard> presenceBoard() {
        return Optional.ofNullable(presence);
    }

    /** The messages to and from this session's writers, if the process has them. */
    public Optional<MessageRepository> holderMessages() {
        return Optional.ofNullable(messages);
    }

    /** The client session these services belong to, whether they act as it or as one of its editors' writer ids. */
    public String clientSession() {
        return WriterIds.clientOf(customers.sessionId());
    }

    /** The same services, with editors following {@code updates} ({@code null}: none). */
    public EditorServices withLive(LiveUpdates updates) {
        return new EditorServices(customers, history, leases, executor, fxThread, scheduler, user, lockSettings,
                defaultMode, openLocks, updates, presence, messages, lastWriteWinsAllowed);
    }

    /** The same services, with editors announcing themselves on and showing {@code board} ({@code null}: none). */
    public EditorServices withPresence(PresenceBoard board) {
        return new EditorServices(customers, history, leases, executor, fxThread, scheduler, user, lockSettings,
                defaultMode, openLocks, live, board, messages, lastWriteWinsAllowed);
    }

    /**
     * The same services writing customers through another repository of the same session (e.g. one that publishes);
     * editors derive their own writer's repository from it ({@link CustomerRepository#asWriter}).
     */
    public EditorServices withCustomers(CustomerRepository other) {
        return new EditorServices(other, history, leases, executor, fxThread, scheduler, user, lockSettings,
                defaultMode, openLocks, live, presence, messages, lastWriteWinsAllowed);
    }

    /** The same services, with editors sending and receiving {@code store}'s messages ({@code null}: none). */
    public EditorServices withMessages(MessageRepository store) {
        return new EditorServices(customers, history, leases, executor, fxThread, scheduler, user, lockSettings,
                defaultMode, openLocks, live, presence, store, lastWriteWinsAllowed);
    }

    /**
     * The same services, with editors offering "Last write wins (unsafe)" — the lost-update bug, for teaching only
     * ({@code lockstep demo}, {@code --allow-unsafe}). New editors still start in the default mode, never unsafe.
     */
    public EditorServices withLastWriteWinsAllowed() {
        return new EditorServices(customers, history, leases, executor, fxThread, scheduler, user, lockSettings,
                defaultMode, openLocks, live, presence, messages, true);
    }

    /**
     * A lock for a new editor, in the default mode, registered so that the application's stop releases it. A default
     * of {@link ConcurrencyMode#LAST_WRITE_WINS} counts as optimistic: a new editor never starts unsafe.
     */
    public EditLockViewModel newLock() {
        EditLockViewModel lock = new EditLockViewModel(leases, executor, fxThread, scheduler, Clock.systemUTC(),
                lockSettings, openLocks);
        if (lastWriteWinsAllowed) {
            lock.allowLastWriteWins();
        }
        ConcurrencyMode initial = defaultMode.get();
        lock.modeProperty().set(initial == ConcurrencyMode.LAST_WRITE_WINS
                ? ConcurrencyMode.OPTIMISTIC : initial);
        if (live != null) {
            lock.follow(live);
        }
        openLocks.add(lock);
        return lock;
    }
}
