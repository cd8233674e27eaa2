package org.lockstep.ui.editor;

import static org.lockstep.text.Texts.tr;

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

    private final CustomerEditorViewModel editor;
    private final EditLockViewModel lock;
    private String lastHolder = "";

    private LockWiring(CustomerEditorViewModel editor, EditLockViewModel lock) {
        this.editor = editor;
        this.lock = lock;
    }

    /** Connects {@code lock} to {@code editor} for the editor's life. */
    static void wire(CustomerEditorViewModel editor, EditLockViewModel lock) {
        new LockWiring(editor, lock).wire();
    }

    private void wire() {
        EditBuffer buffer = editor.buffer();
        buffer.dirtyProperty().addListener((obs, was, now) -> {
            if (now && editor.helpers().attached()) {
                lock.editingStarted();
            }
        });
        for (CustomerField f : CustomerField.values()) {
            buffer.text(f).addListener(o -> lock.activity());
        }
        // Switching to lock mode with edits already made takes the lease at once, as a first change would.
        lock.modeProperty().addListener((obs, was, now) -> {
            if (now == ConcurrencyMode.LOCK_FOR_EDITING && buffer.dirtyProperty().get()
                    && editor.helpers().attached()) {
                lock.editingStarted();
            }
        });
        lock.stateProperty().addListener((obs, was, now) -> {
            if (now instanceof LockState.HeldByOther other) {
                lastHolder = other.holder().holder();
            }
        });
        // The lease ended: without edits show the newest version (never a stale base); with edits keep them, and
        // a Save that meets a newer version becomes a merge.
        lock.setOnFree(() -> {
            if (!buffer.dirtyProperty().get() && editor.customerId().isPresent()
                    && editor.stateProperty().get() == EditorState.EDITING) {
                editor.load(editor.customerId().getAsLong());
            }
        });
        lock.setOnNotifyFree(() -> editor.notice(EditorNotice.info(tr(
                "{0}''s lock on this customer ended — it is yours to edit", lastHolder))));
    }
}
