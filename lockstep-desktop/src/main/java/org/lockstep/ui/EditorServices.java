package org.lockstep.ui;

import java.time.Clock;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import javafx.beans.property.ObjectProperty;
import org.lockstep.concurrency.TaskExecutor;
import org.lockstep.domain.ConcurrencyMode;
import org.lockstep.domain.CustomerRepository;
import org.lockstep.domain.HistoryRepository;
import org.lockstep.domain.LeaseRepository;
import org.lockstep.domain.MessageRepository;
import org.lockstep.editing.LeaseSettings;
import org.lockstep.editing.WriterIds;
import org.lockstep.ui.drafts.Drafts;
import org.lockstep.ui.live.LiveUpdates;
import org.lockstep.ui.live.OwnWrites;
import org.lockstep.ui.live.PublishingCustomerRepository;
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
 * <p>{@link #live()} brings other sessions' changes as they happen, which open editors follow; a process without a
 * feed has a hub that nothing feeds (a null object), so its editors learn of a newer version at save time.
 * {@link #ownWrites()} is this client's own writes, whichever editor made them: the one path to the list. Optional
 * parts, empty when the process lacks them, because the screen offers less without them: {@link #presence()} who
 * else has a customer open; {@link #messages()} messages to and from this session (a waiting operator to a lock's
 * holder; an editor's services receive those sent to its writer id).
 *
 * <p>Built with {@link #builder}; a variant (another feed, the unsafe mode allowed) with {@link #toBuilder()}.
 * Only {@code lockstep demo} and {@code --allow-unsafe} allow "Last write wins (unsafe)"; even then a new editor
 * starts in the (safe) default mode.
 */
public final class EditorServices {

    private final CustomerRepository customers;
    private final HistoryRepository history;
    private final LeaseRepository leases;
    private final TaskExecutor executor;
    private final Executor fxThread;
    private final ScheduledExecutorService scheduler;
    private final String user;
    private final LeaseSettings lockSettings;
    private final ObjectProperty<ConcurrencyMode> defaultMode;
    private final OpenLocks openLocks;
    private final LiveUpdates live;
    private final Optional<PresenceBoard> presence;
    private final Optional<MessageRepository> messages;
    private final boolean lastWriteWinsAllowed;
    private final WindowPlaces places;
    private final OwnWrites ownWrites;
    private final boolean mayBreakLocks;
    private final Optional<Drafts> drafts;

    private EditorServices(Builder b) {
        Objects.requireNonNull(b.customers, "customers");
        this.ownWrites = b.ownWrites;
        // Every write of every editor goes through one publishing repository: the one path to the list.
        this.customers = b.customers instanceof PublishingCustomerRepository ? b.customers
                : new PublishingCustomerRepository(b.customers, Objects.requireNonNull(b.fxThread, "fxThread"),
                        ownWrites);
        this.history = Objects.requireNonNull(b.history, "history");
        this.leases = Objects.requireNonNull(b.leases, "leases");
        this.executor = Objects.requireNonNull(b.executor, "executor");
        this.fxThread = Objects.requireNonNull(b.fxThread, "fxThread");
        this.scheduler = Objects.requireNonNull(b.scheduler, "scheduler");
        this.user = Objects.requireNonNull(b.user, "user");
        this.lockSettings = Objects.requireNonNull(b.lockSettings, "lockSettings");
        this.defaultMode = Objects.requireNonNull(b.defaultMode, "defaultMode");
        this.openLocks = Objects.requireNonNull(b.openLocks, "openLocks");
        // No feed: a hub nothing ever feeds, so editors follow it like a real one and simply hear nothing.
        this.live = b.live != null ? b.live : new LiveUpdates(b.fxThread, customers.sessionId());
        this.presence = b.presence;
        this.messages = b.messages;
        this.lastWriteWinsAllowed = b.lastWriteWinsAllowed;
        this.places = b.places;
        this.mayBreakLocks = b.mayBreakLocks;
        this.drafts = b.drafts;
        if (!customers.sessionId().equals(leases.sessionId())) {
            throw new IllegalArgumentException("The customer and lease repositories must act as one session, not "
                    + customers.sessionId() + " and " + leases.sessionId());
        }
    }

    /**
     * The services every process has; add the optional parts on the builder.
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
     */
    public static Builder builder(CustomerRepository customers, HistoryRepository history, LeaseRepository leases,
            TaskExecutor executor, Executor fxThread, ScheduledExecutorService scheduler,
            String user, LeaseSettings lockSettings, ObjectProperty<ConcurrencyMode> defaultMode,
            OpenLocks openLocks) {
        Builder b = new Builder();
        b.customers = customers;
        b.history = history;
        b.leases = leases;
        b.executor = executor;
        b.fxThread = fxThread;
        b.scheduler = scheduler;
        b.user = user;
        b.lockSettings = lockSettings;
        b.defaultMode = defaultMode;
        b.openLocks = openLocks;
        return b;
    }

    /** A builder holding these services, to build a variant. */
    public Builder toBuilder() {
        Builder b = builder(customers, history, leases, executor, fxThread, scheduler, user, lockSettings, defaultMode,
                openLocks);
        b.live = live;
        b.presence = presence;
        b.messages = messages;
        b.lastWriteWinsAllowed = lastWriteWinsAllowed;
        b.places = places;
        b.mayBreakLocks = mayBreakLocks;
        b.ownWrites = ownWrites;
        b.drafts = drafts;
        return b;
    }

    /** Builds {@link EditorServices}. */
    public static final class Builder {
        private CustomerRepository customers;
        private HistoryRepository history;
        private LeaseRepository leases;
        private TaskExecutor executor;
        private Executor fxThread;
        private ScheduledExecutorService scheduler;
        private String user;
        private LeaseSettings lockSettings;
        private ObjectProperty<ConcurrencyMode> defaultMode;
        private OpenLocks openLocks;
        private LiveUpdates live;
        private Optional<PresenceBoard> presence = Optional.empty();
        private Optional<MessageRepository> messages = Optional.empty();
        private boolean lastWriteWinsAllowed;
        private WindowPlaces places = WindowPlaces.none();
        private OwnWrites ownWrites = new OwnWrites();
        private boolean mayBreakLocks = true;
        private Optional<Drafts> drafts = Optional.empty();

        private Builder() {
        }

        /** Editors journal their unsaved edits to {@code kept}, so that they survive the client ending unsaved. */
        public Builder drafts(Drafts kept) {
            this.drafts = Optional.of(kept);
            return this;
        }

        /** Windows open where the operator left them ({@link WindowPlaces#none()} unless set). */
        public Builder places(WindowPlaces remembered) {
            this.places = Objects.requireNonNull(remembered, "places");
            return this;
        }

        /** Editors follow {@code updates}. */
        public Builder live(LiveUpdates updates) {
            this.live = Objects.requireNonNull(updates, "updates");
            return this;
        }

        /** Editors announce themselves on and show {@code board}. */
        public Builder presence(PresenceBoard board) {
            this.presence = Optional.of(board);
            return this;
        }

        /** Editors send and receive {@code store}'s messages. */
        public Builder messages(MessageRepository store) {
            this.messages = Optional.of(store);
            return this;
        }

        /**
         * Customers are kept in another repository of the same session; editors derive their own writer's repository
         * from it ({@link CustomerRepository#asWriter}), and their writes are reported to {@link #ownWrites()}.
         */
        public Builder customers(CustomerRepository other) {
            this.customers = other;
            return this;
        }

        /**
         * Editors offer "Last write wins (unsafe)" — the lost-update bug, for teaching only ({@code lockstep demo},
         * {@code --allow-unsafe}). New editors still start in the default mode, never unsafe.
         */
        public Builder lastWriteWinsAllowed() {
            this.lastWriteWinsAllowed = true;
            return this;
        }

        /**
         * Whether this operator may break another's lock: a supervisor on a team server, anyone on the embedded one
         * (the default). The database decides either way (issue 26); this only keeps a button from offering what it
         * would refuse.
         */
        public Builder mayBreakLocks(boolean may) {
            this.mayBreakLocks = may;
            return this;
        }

        /** The services; checks that every required one is there and both repositories act as one session. */
        public EditorServices build() {
            return new EditorServices(this);
        }
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
        Builder b = toBuilder().customers(customers.asWriter(writer));
        b.leases = leases.asWriter(writer);
        b.messages = messages.map(m -> m.asWriter(writer));
        return b.build();
    }

    /** The client session these services belong to, whether they act as it or as one of its editors' writer ids. */
    public String clientSession() {
        return WriterIds.clientOf(customers.sessionId());
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
        if (!mayBreakLocks) {
            lock.onlySupervisorsBreakLocks();
        }
        ConcurrencyMode initial = defaultMode.get();
        lock.modeProperty().set(initial == ConcurrencyMode.LAST_WRITE_WINS ? ConcurrencyMode.OPTIMISTIC : initial);
        lock.follow(live);
        openLocks.add(lock);
        return lock;
    }

    /**
     * This client's own writes, as every editor made them: what the list follows (the change feed brings the writes
     * of every other client).
     */
    public OwnWrites ownWrites() {
        return ownWrites;
    }

    /** Where customers are kept, acting as the operator (or an editor's writer id); writes report to ownWrites(). */
    public CustomerRepository customers() {
        return customers;
    }

    /** The version history. */
    public HistoryRepository history() {
        return history;
    }

    /** The lease store, acting as the same session as {@link #customers()}. */
    public LeaseRepository leases() {
        return leases;
    }

    /** Runs database calls off the FX thread, results back on it. */
    public TaskExecutor executor() {
        return executor;
    }

    /** Delivers timer results to the FX thread. */
    public Executor fxThread() {
        return fxThread;
    }

    /** Runs lease renewals, polls and idle checks. */
    public ScheduledExecutorService scheduler() {
        return scheduler;
    }

    /** The operator's name. */
    public String user() {
        return user;
    }

    /** Lease TTL, idle limit and poll interval. */
    public LeaseSettings lockSettings() {
        return lockSettings;
    }

    /** The mode new editors start in. */
    public ObjectProperty<ConcurrencyMode> defaultMode() {
        return defaultMode;
    }

    /** Every open editor's lock. */
    public OpenLocks openLocks() {
        return openLocks;
    }

    /** The change feed editors follow: the process's, or one nothing feeds when it has none. */
    public LiveUpdates live() {
        return live;
    }

    /** The presence board, if the process shows presence. */
    public Optional<PresenceBoard> presence() {
        return presence;
    }

    /** Messages to and from this session's writers, if the process has them. */
    public Optional<MessageRepository> messages() {
        return messages;
    }

    /**
     * Whether this operator may break another's lock: a supervisor (or anyone on the embedded server). Else editors
     * offer "Ask a supervisor…", and only then does the main window list no requests to supervisors.
     */
    public boolean mayBreakLocks() {
        return mayBreakLocks;
    }

    /** Where editors journal their unsaved edits; empty for a process that keeps none (the trainer demo). */
    public Optional<Drafts> drafts() {
        return drafts;
    }

    /** Whether editors offer "Last write wins (unsafe)" (teaching only). */
    public boolean lastWriteWinsAllowed() {
        return lastWriteWinsAllowed;
    }

    /** Where the operator's windows open, and the splits and column widths they keep. */
    public WindowPlaces places() {
        return places;
    }
}
