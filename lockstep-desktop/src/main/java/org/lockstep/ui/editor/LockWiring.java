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
    // The last notice about the lock ("X's lock ended", a message received from someone waiting), so that the next
    // holder can take it back (identity: it is this notice or not), and whose lock it was about.
    private EditorNotice lockNotice;
    private String lockNoticeHolder = "";

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
    static LockWiring wire(EditorSession session, EditLockViewModel lock, RecordHelpers helpers, LongConsumer load) {
        LockWiring wiring = new LockWiring(session, lock, helpers, load);
        wiring.wire();
        return wiring;
    }

    /**
     * Shows a notice about the lock as it stands now (a message received from an operator waiting on it, a save or
     * delete refused by the holder's lock): it stays only while the same lock stands — its end, or a new holder,
     * supersedes it.
     */
    void tellAboutTheLock(EditorNotice notice) {
        lockNotice = notice;
        lockNoticeHolder = holderOf(lock.stateProperty().get());
        session.notice(notice);
    }

    /**
     * Whose lock {@code state} is, as the notices about a lock see it: this editor's or nobody's is one (a message
     * to the holder stays true when the holder lets go, "it is yours to edit" when the operator takes it), each other
     * session's its own, and a lost lock one more.
     */
    private static String holderOf(LockState state) {
        if (state instanceof LockState.HeldByOther other) {
            return "other:" + other.holder().sessionId();
        }
        if (state instanceof LockState.HeldInAnotherWindow elsewhere) {
            return "elsewhere:" + elsewhere.holder().sessionId();
        }
        return state instanceof LockState.Lost ? "lost" : ""; // Free, Acquiring, Held: nobody else's
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
            // "X's lock ended — it is yours to edit", or a message from someone waiting on an earlier lock, is
            // superseded by the next holder's lock (or a loss): it must not stand beside a lock message saying
            // someone else holds the record now.
            if (lockNotice != null && !holderOf(now).equals(lockNoticeHolder)) {
                if (session.noticeProperty().get() == lockNotice) {
                    session.notice(null);
                }
                lockNotice = null;
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
            tellAboutTheLock(
                    EditorNotice.news(tr("{0}''s lock on this customer ended — it is yours to edit", lastHolder)));
        });
    }
}
