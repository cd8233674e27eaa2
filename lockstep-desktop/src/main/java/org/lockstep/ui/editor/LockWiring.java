package org.lockstep.ui.editor;

import static org.lockstep.text.Texts.tr;

import java.util.function.LongConsumer;
import org.lockstep.domain.ConcurrencyMode;
import org.lockstep.domain.CustomerField;
import org.lockstep.editing.LockState;
import org.lockstep.ui.lock.EditLockViewModel;

/**
 * How an editor and its {@link EditLockViewModel} follow each other. The lock learns on load whether someone else
 * holds the record's lease, takes the lease at the first change in lock mode (or at once when the operator switches
 * to lock mode with edits already made), hears every keystroke as activity (idle release), and makes the fields
 * read-only while another holds it or after this editor lost it. When the lease ends, an editor without edits shows
 * the newest version; one with edits keeps them. Confined to the FX thread.
 */
final class LockWiring {

    private final EditorSession session;
    private final EditLockViewModel lock;
    private final RecordHelpers helpers;
    private final LongConsumer load;
    private String lastHolder = "";
    // The "lock ended" news last shown, so that a new lock can take it back (identity: it is this notice or not).
    private EditorNotice endedNotice;

    private LockWiring(EditorSession session, EditLockViewModel lock, RecordHelpers helpers, LongConsumer load) {
        this.session = session;
        this.lock = lock;
        this.helpers = helpers;
        this.load = load;
    }

    /**
     * Connects {@code lock} to the editor of {@code session} for the editor's life.
     *
     * @param helpers whether the editor is attached to a stored record (a lease is only taken for one)
     * @param load    reads a customer again into the editor, by id
     */
    static void wire(EditorSession session, EditLockViewModel lock, RecordHelpers helpers, LongConsumer load) {
        new LockWiring(session, lock, helpers, load).wire();
    }

    private void wire() {
        EditBuffer buffer = session.buffer();
        buffer.dirtyProperty().addListener((obs, was, now) -> {
            if (now && helpers.attached()) {
                lock.editingStarted();
            }
        });
        for (CustomerField f : CustomerField.values()) {
            buffer.text(f).addListener(o -> lock.activity());
        }
        // Switching to lock mode with edits already made takes the lease at once, as a first change would.
        lock.modeProperty().addListener((obs, was, now) -> {
            if (now == ConcurrencyMode.LOCK_FOR_EDITING && buffer.dirtyProperty().get()
                    && helpers.attached()) {
                lock.editingStarted();
            }
        });
        lock.stateProperty().addListener((obs, was, now) -> {
            if (now instanceof LockState.HeldByOther other) {
                lastHolder = other.holder().holder();
            }
            // "X's lock ended — it is yours to edit" is superseded by the next lock (or loss): it must not stay
            // above a lock bar saying someone holds the record again.
            boolean locked = now instanceof LockState.HeldByOther || now instanceof LockState.HeldInAnotherWindow
                    || now instanceof LockState.Lost;
            if (locked && endedNotice != null && session.noticeProperty().get() == endedNotice) {
                session.notice(null);
            }
        });
        // The lease ended: without edits show the newest version (never a stale base); with edits keep them, and
        // a Save that meets a newer version becomes a merge.
        lock.setOnFree(() -> {
            if (!buffer.dirtyProperty().get() && session.customerId().isPresent()
                    && session.state() == EditorState.EDITING) {
                load.accept(session.customerId().getAsLong());
            }
        });
        lock.setOnNotifyFree(() -> {
            endedNotice = EditorNotice.news(tr("{0}''s lock on this customer ended — it is yours to edit", lastHolder));
            session.notice(endedNotice);
        });
    }
}
