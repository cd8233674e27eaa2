package org.lockstep.ui.editor;

import static org.lockstep.text.Texts.tr;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.value.ChangeListener;
import org.lockstep.concurrency.TaskExecutor;
import org.lockstep.domain.ConcurrencyMode;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerField;
import org.lockstep.drafts.Draft;
import org.lockstep.drafts.MergeDraft;
import org.lockstep.ui.drafts.Drafts;
import org.lockstep.ui.merge.MergeViewModel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Journals one editor's unsaved edits as a {@link Draft} within a second of each change (issue 28), so that
 * they survive the client ending without a save; removes the draft once the edits are saved, reverted or discarded.
 * While the editor's merge dialog is open, the draft holds the merge too: the version merged with and every choice
 * made so far ({@link MergeViewModel#draft()}). The draft is made on the FX thread (the buffer is confined to it) and
 * written on the editor's executor, never on the FX thread; writes go one at a time, in order, so that a removal never
 * overtakes the save before it. A write that fails (a full disk) is logged and told once in the editor's notice:
 * editing goes on as before.
 *
 * <p>The first change not yet journaled starts a wait of {@link #WITHIN}; the changes that follow within it go in the
 * same write. So a crash loses at most the last second's typing however steadily the operator types, and typing costs
 * one write a second, not one per key.
 */
final class DraftKeeper {

    /**
     * The most a change waits to be journaled. A write of a draft (a temporary file flushed, renamed, the directory
     * flushed) took 8 ms (median, 16 ms at the 90th percentile) on a virtual disk; once a second is nothing to the
     * disk, and a wait that restarted at every key (as it did, up to 5 s) lost all of a steady typist's last
     * seconds to a {@code kill -9}.
     */
    static final Duration WITHIN = Duration.ofSeconds(1);

    private static final Logger LOG = LoggerFactory.getLogger(DraftKeeper.class);

    private final EditorSession session;
    private final Drafts drafts;
    private final TaskExecutor executor;
    private final Later later;
    private final Supplier<ConcurrencyMode> mode;
    private final Supplier<OptionalLong> leaseToken;
    private final String operator;
    private final Clock clock;
    private final ReadOnlyObjectProperty<MergeViewModel> merge;
    private final ChangeListener<Number> mergeChanged = (obs, was, now) -> changed();
    private String key = UUID.randomUUID().toString();
    private Runnable pending;
    // When the oldest change not yet journaled happened; null when the disk holds the edits as they are.
    private Instant unwrittenSince;
    // A restored draft's merge while no merge is open (the database could not be reached to open it again): kept in
    // each draft written until a merge opens or the edits are gone, so that the choices are not lost meanwhile.
    private Optional<MergeDraft> pendingMerge = Optional.empty();
    // What the disk holds for this key as far as this editor knows: written, removed, or unknown (nothing yet).
    private boolean kept;
    // The customer the draft under this key is of: its id, or -1 for a customer not yet created.
    private long drafted = -1;
    private boolean writing;
    // Writes waiting for the one in flight, by key, in order: the latest of a key supersedes what waited before it.
    private final Map<String, Runnable> waiting = new LinkedHashMap<>();
    private boolean failureTold;
    private boolean closed;

    /** Runs an action on the FX thread after a delay; returns what cancels it. */
    @FunctionalInterface
    interface Later {
        Runnable schedule(Runnable onFxThread, Duration after);

        /** On {@code scheduler}'s thread after the delay, then handed to {@code fxThread}. */
        static Later on(ScheduledExecutorService scheduler, Executor fxThread) {
            return (action, after) -> {
                ScheduledFuture<?> f = scheduler.schedule(() -> fxThread.execute(action), after.toMillis(),
                        TimeUnit.MILLISECONDS);
                return () -> f.cancel(false);
            };
        }
    }

    /**
     * @param merge the editor's open merge, or {@code null}: while one is open, the draft holds its choices
     * @param clock when drafts are stamped, and how long a change has waited
     */
    DraftKeeper(EditorSession session, ReadOnlyObjectProperty<MergeViewModel> merge, Drafts drafts,
            TaskExecutor executor, Later later, Supplier<ConcurrencyMode> mode, Supplier<OptionalLong> leaseToken,
            String operator, Clock clock) {
        this.session = session;
        this.drafts = Objects.requireNonNull(drafts);
        this.executor = executor;
        this.later = later;
        this.mode = mode;
        this.leaseToken = leaseToken;
        this.operator = operator;
        this.clock = clock;
        this.merge = merge;
        EditBuffer buffer = session.buffer();
        for (CustomerField f : CustomerField.values()) {
            buffer.text(f).addListener(o -> changed());
        }
        buffer.dirtyProperty().addListener(o -> changed());
        buffer.baseProperty().addListener(o -> changed());
        session.stateProperty().addListener(o -> changed());
        merge.addListener((obs, was, now) -> {
            if (was != null) {
                was.revisionProperty().removeListener(mergeChanged);
            }
            if (now != null) {
                pendingMerge = Optional.empty(); // the merge open now holds the choices
                now.revisionProperty().addListener(mergeChanged);
            }
            changed();
        });
    }

    /**
     * The editor goes on with a restored draft: it journals under that draft's key, replacing the draft.
     *
     * @param mergeKept the draft's merge, when the editor could not open it again (the database unreachable): kept
     *                  in the drafts written until a merge opens or the edits are gone
     */
    void takeOver(String draftKey, Optional<MergeDraft> mergeKept) {
        key = draftKey;
        kept = true;
        Customer base = session.buffer().base();
        drafted = base == null ? -1 : base.id();
        pendingMerge = mergeKept;
    }

    /**
     * The editor hands its edits to another editor, which restores them under the same key (the database came back
     * after a start without it): nothing more is written or removed here.
     *
     * @return the draft as it stands now, or empty when nothing unsaved is left
     */
    Optional<Draft> handOver() {
        cancelPending();
        Optional<Draft> now = draftNow();
        closed = true;
        return now;
    }

    /** The editor closes: its draft goes (the operator saved or chose to discard), and nothing is written after. */
    void close() {
        if (closed) {
            return; // handed over: the draft is another editor's now
        }
        cancelPending();
        removeDraft();
        closed = true;
    }

    /**
     * The request id a create of the new customer in this editor goes under ({@link Draft#createRequestOf}): the same
     * as long as these edits are one draft, and so the same in the editor that restores that draft after a crash; a
     * new one once the edits are saved or gone, so that the next new customer is a create of its own.
     */
    UUID createRequest() {
        return Draft.createRequestOf(key);
    }

    /** The draft this editor would journal now, or empty when it has nothing unsaved to keep. */
    Optional<Draft> draftNow() {
        EditorState state = session.state();
        EditBuffer buffer = session.buffer();
        if (!buffer.dirtyProperty().get() || (state != EditorState.EDITING && state != EditorState.NEW)) {
            return Optional.empty();
        }
        Customer base = buffer.base();
        MergeViewModel open = merge.get();
        Optional<MergeDraft> merged = open == null ? pendingMerge : open.draft();
        if (open != null && merged.isPresent() && base != null && open.base().version() != base.version()) {
            // A merge refreshed in place (Save merged met yet another version): its base is the version merged
            // before, its mine that merge's result; the draft is that merge, as the dialog shows it.
            base = open.base();
            return Optional.of(draft(base, typed(base.data(), f -> buffer.parser().format(open.mine().get(f))),
                    merged));
        }
        CustomerData baseData = base == null ? CustomerData.EMPTY : base.data();
        return Optional.of(draft(base, typed(baseData, f -> buffer.text(f).get()), merged));
    }

    private Draft draft(Customer base, Map<CustomerField, String> typed, Optional<MergeDraft> merged) {
        CustomerData baseData = base == null ? CustomerData.EMPTY : base.data();
        OptionalLong id = base == null ? OptionalLong.empty() : OptionalLong.of(base.id());
        return new Draft(key, id, base == null ? 0 : base.version(), baseData, typed, mode.get(), leaseToken.get(),
                operator, clock.instant(), base == null ? Optional.empty() : merged);
    }

    /** Each field's text where it differs from {@code base} as the editor shows it. */
    private Map<CustomerField, String> typed(CustomerData base, Function<CustomerField, String> text) {
        Map<CustomerField, String> typed = new EnumMap<>(CustomerField.class);
        for (CustomerField f : CustomerField.values()) {
            String now = text.apply(f);
            if (!now.equals(session.buffer().parser().format(base.get(f)))) {
                typed.put(f, now);
            }
        }
        return typed;
    }

    private void changed() {
        if (closed) {
            return;
        }
        cancelPending();
        Customer base = session.buffer().base();
        long customer = base == null ? -1 : base.id();
        if (customer != drafted) {
            // Another customer: a new one was created (its create's request id is spent), or the editor moved on.
            drafted = customer;
            renewKey();
        }
        if (draftNow().isEmpty()) {
            // Saved, reverted, reloaded or moved on: nothing unsaved is left, so the draft goes at once.
            unwrittenSince = null;
            pendingMerge = Optional.empty();
            renewKey();
            return;
        }
        Instant now = clock.instant();
        if (unwrittenSince == null) {
            unwrittenSince = now;
        }
        Duration left = WITHIN.minus(Duration.between(unwrittenSince, now));
        pending = later.schedule(this::journal, left.isNegative() ? Duration.ZERO : left);
    }

    private void journal() {
        pending = null;
        unwrittenSince = null;
        if (closed) {
            return;
        }
        draftNow().ifPresent(draft -> enqueue(draft.key(), () -> write(draft.key(), () -> {
            drafts.save(draft);
            return null;
        }, true)));
    }

    private void cancelPending() {
        if (pending != null) {
            pending.run();
            pending = null;
        }
    }

    /**
     * The edits under this key are done with (saved, gone, or of another customer now): their draft goes, if one
     * was written, and the next edits are a draft — and a create — of their own.
     */
    private void renewKey() {
        removeDraft();
        key = UUID.randomUUID().toString();
        kept = false;
    }

    private void removeDraft() {
        if (kept) {
            String gone = key;
            enqueue(gone, () -> write(gone, () -> {
                drafts.remove(gone);
                return null;
            }, false));
        }
    }

    /** Runs {@code op}, a write of the draft {@code forKey}, once the write before it is done; FX thread. */
    private void enqueue(String forKey, Runnable op) {
        if (writing) {
            waiting.remove(forKey);
            waiting.put(forKey, op);
            return;
        }
        op.run();
    }

    private void write(String forKey, Callable<Void> io, boolean saves) {
        writing = true;
        if (forKey.equals(key)) {
            kept = saves;
        }
        try {
            executor.execute(io, done -> {
                failureTold = false;
                afterWrite();
            }, failure -> {
                LOG.warn("Could not journal the unsaved edits of an editor: {}", EditorNotice.detail(failure), failure);
                if (saves && !failureTold && !closed) {
                    failureTold = true;
                    session.notice(EditorNotice.error(tr("Your unsaved changes could not be kept on this computer in "
                            + "case Lockstep closes (is the disk full?). You can go on editing; save to keep them."),
                            EditorNotice.detail(failure)));
                }
                afterWrite();
            });
        } catch (RejectedExecutionException stopped) {
            // The application stops its executor before its last windows hide: the draft stays for the next start.
            LOG.info("An editor's draft was left as it was: the application is stopping");
            writing = false;
        }
    }

    private void afterWrite() {
        writing = false;
        Iterator<Runnable> ops = waiting.values().iterator();
        if (ops.hasNext()) {
            Runnable op = ops.next();
            ops.remove();
            op.run();
        }
    }
}
