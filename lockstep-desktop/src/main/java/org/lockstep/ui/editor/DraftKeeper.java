package org.lockstep.ui.editor;

import static org.lockstep.text.Texts.tr;

import java.time.Clock;
import java.time.Duration;
import java.util.EnumMap;
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
import java.util.function.Supplier;
import org.lockstep.concurrency.TaskExecutor;
import org.lockstep.domain.ConcurrencyMode;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerField;
import org.lockstep.drafts.Draft;
import org.lockstep.ui.drafts.Drafts;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Journals one editor's unsaved edits as a {@link Draft} about a second after the last change (issue 28), so that
 * they survive the client ending without a save; removes the draft once the edits are saved, reverted or discarded.
 * The draft is made on the FX thread (the buffer is confined to it) and written on the editor's executor, never on
 * the FX thread; writes go one at a time, in order, so that a removal never overtakes the save before it. A write
 * that fails (a full disk) is logged and told once in the editor's notice: editing goes on as before.
 */
final class DraftKeeper {

    /** How long after the last change the draft is written: long enough not to write per keystroke. */
    static final Duration QUIET = Duration.ofSeconds(1);

    private static final Logger LOG = LoggerFactory.getLogger(DraftKeeper.class);

    private final EditorSession session;
    private final Drafts drafts;
    private final TaskExecutor executor;
    private final Later later;
    private final Supplier<ConcurrencyMode> mode;
    private final Supplier<OptionalLong> leaseToken;
    private final String operator;
    private final Clock clock;
    private String key = UUID.randomUUID().toString();
    private Runnable pending;
    // What the disk holds for this key as far as this editor knows: written, removed, or unknown (nothing yet).
    private boolean kept;
    private boolean writing;
    private Runnable next;
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

    DraftKeeper(EditorSession session, Drafts drafts, TaskExecutor executor, Later later,
            Supplier<ConcurrencyMode> mode, Supplier<OptionalLong> leaseToken, String operator,
            Clock clock) {
        this.session = session;
        this.drafts = Objects.requireNonNull(drafts);
        this.executor = executor;
        this.later = later;
        this.mode = mode;
        this.leaseToken = leaseToken;
        this.operator = operator;
        this.clock = clock;
        EditBuffer buffer = session.buffer();
        for (CustomerField f : CustomerField.values()) {
            buffer.text(f).addListener(o -> changed());
        }
        buffer.dirtyProperty().addListener(o -> changed());
        buffer.baseProperty().addListener(o -> changed());
        session.stateProperty().addListener(o -> changed());
    }

    /** The editor goes on with a restored draft: it journals under that draft's key, replacing the draft. */
    void takeOver(String draftKey) {
        key = draftKey;
        kept = true;
    }

    /** The editor closes: its draft goes (the operator saved or chose to discard), and nothing is written after. */
    void close() {
        cancelPending();
        String last = key;
        enqueue(() -> write(() -> {
            drafts.remove(last);
            return null;
        }, false));
        closed = true;
    }

    /** The draft this editor would journal now, or empty when it has nothing unsaved to keep. */
    Optional<Draft> draftNow() {
        EditorState state = session.state();
        EditBuffer buffer = session.buffer();
        if (!buffer.dirtyProperty().get() || (state != EditorState.EDITING && state != EditorState.NEW)) {
            return Optional.empty();
        }
        Customer base = buffer.base();
        CustomerData baseData = base == null ? CustomerData.EMPTY : base.data();
        Map<CustomerField, String> typed = new EnumMap<>(CustomerField.class);
        for (CustomerField f : CustomerField.values()) {
            String text = buffer.text(f).get();
            if (!text.equals(buffer.parser().format(baseData.get(f)))) {
                typed.put(f, text);
            }
        }
        OptionalLong id = base == null ? OptionalLong.empty() : OptionalLong.of(base.id());
        return Optional.of(new Draft(key, id, base == null ? 0 : base.version(), baseData, typed, mode.get(),
                leaseToken.get(), operator, clock.instant(), Optional.empty()));
    }

    private void changed() {
        if (closed) {
            return;
        }
        cancelPending();
        if (draftNow().isEmpty()) {
            // Saved, reverted, reloaded or moved on: nothing unsaved is left, so the draft goes at once.
            if (kept) {
                String gone = key;
                enqueue(() -> write(() -> {
                    drafts.remove(gone);
                    return null;
                }, false));
            }
            return;
        }
        pending = later.schedule(this::journal, QUIET);
    }

    private void journal() {
        pending = null;
        if (closed) {
            return;
        }
        draftNow().ifPresent(draft -> enqueue(() -> write(() -> {
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

    /** Runs {@code op} once the write before it is done; FX thread. */
    private void enqueue(Runnable op) {
        if (writing) {
            next = op; // only the latest matters: it supersedes whatever waited before it
            return;
        }
        op.run();
    }

    private void write(Callable<Void> io, boolean saves) {
        writing = true;
        kept = saves;
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
        Runnable waiting = next;
        next = null;
        if (waiting != null) {
            waiting.run();
        }
    }
}
