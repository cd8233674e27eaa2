package org.lockstep.ui.editor;

import org.lockstep.concurrency.TaskScope;
import org.lockstep.domain.Customer;
import org.lockstep.domain.DeleteOutcome;
import org.lockstep.domain.InvalidCustomerException;
import org.lockstep.domain.LeaseInfo;
import org.lockstep.domain.OutcomeUnknownException;
import org.lockstep.domain.RecordBusyException;
import org.lockstep.domain.SaveOutcome;
import org.lockstep.editing.CustomerEditing;
import org.lockstep.editing.LockMessages;
import org.lockstep.ui.lock.EditLockViewModel;

/**
 * An editor's saves and deletes: the save the lock's mode asks for ({@link CustomerEditing#save}), serialized by a
 * {@link SaveQueue} so an operator never conflicts with their own save, and what each outcome does to the editor.
 * A save that commits after the editor moved to another record is still reported ({@code onSaved}) and lets the next
 * queued save run; everything else of a stale outcome is dropped. Confined to the FX thread.
 */
final class EditorSaves {

    private final CustomerEditorViewModel editor;
    private final CustomerEditing editing;
    private final EditLockViewModel lock;
    private final TaskScope scope;
    private final ConflictFlow conflicts;
    private final SaveQueue saves = new SaveQueue(this::start);

    EditorSaves(CustomerEditorViewModel editor, CustomerEditing editing, EditLockViewModel lock, TaskScope scope,
            ConflictFlow conflicts) {
        this.editor = editor;
        this.editing = editing;
        this.lock = lock;
        this.scope = scope;
        this.conflicts = conflicts;
    }

    SaveQueue queue() {
        return saves;
    }

    private void start(EditBuffer.Snapshot mine) {
        TaskScope.Stamp stamp = scope.stamp();
        Customer base = editor.buffer().base();
        if (base == null) {
            scope.executeTracked(() -> editing.create(mine.data()), created -> saved(stamp, mine, created),
                    e -> failed(stamp, mine, e));
            return;
        }
        boolean blind = lock.savesLastWriteWins();
        var mode = lock.modeProperty().get();
        var token = lock.savesUnderLease() ? lock.token() : java.util.OptionalLong.empty();
        scope.executeTracked(() -> editing.save(mode, token, base, mine.data()), outcome -> {
            if (outcome instanceof SaveOutcome.Saved s) {
                if (blind && stamp.isCurrent()) {
                    editor.live().clear(); // the newer version it announced was just overwritten: nothing to review
                }
                saved(stamp, mine, s.saved());
            } else if (outcome instanceof SaveOutcome.Conflict c) {
                conflicted(stamp, mine, base, c);
            } else if (outcome instanceof SaveOutcome.Locked locked) {
                saves.abandon(mine);
                if (stamp.isCurrent()) {
                    // Another session holds the lease: nothing was written, every edit stays.
                    editor.notice(EditorNotice.error(lockedBy(locked.holder()) + " — your changes are kept.", ""));
                    lock.lockedOnSave(locked.holder());
                }
            } else if (outcome instanceof SaveOutcome.LeaseLost lost) {
                saves.abandon(mine);
                if (stamp.isCurrent()) {
                    lock.leaseLostOnSave(lost.current()); // read-only with the edits until the operator decides
                }
            }
        }, e -> failed(stamp, mine, e));
    }

    private void saved(TaskScope.Stamp stamp, EditBuffer.Snapshot mine, Customer stored) {
        if (stamp.isCurrent()) {
            editor.savedHere(stored, mine);
        }
        editor.savedElsewhere(stored);
        saves.next(s -> CustomerEditing.alreadyStored(editor.buffer().base(), s.data()));
    }

    private void conflicted(TaskScope.Stamp stamp, EditBuffer.Snapshot mine, Customer base,
            SaveOutcome.Conflict outcome) {
        if (CustomerEditing.sameAsTheirs(outcome, mine.data())) {
            if (stamp.isCurrent()) {
                conflicts.sameAsTheirs(mine, outcome.theirs().orElseThrow());
                editor.helpers().readHotRecord(base.id()); // the repository counted this conflict
            }
            saves.next(s -> CustomerEditing.alreadyStored(editor.buffer().base(), s.data()));
            return;
        }
        if (!stamp.isCurrent()) {
            saves.next(s -> CustomerEditing.alreadyStored(editor.buffer().base(), s.data()));
            return;
        }
        EditBuffer.Snapshot latest = saves.abandon(mine);
        conflicts.saveConflicted(base, latest.data(), outcome);
        editor.helpers().readHotRecord(base.id()); // the repository counted this conflict
    }

    private void failed(TaskScope.Stamp stamp, EditBuffer.Snapshot mine, Throwable failure) {
        if (!stamp.isCurrent()) {
            // A save of the record shown before; saves queued for the record shown now still run.
            saves.next(s -> CustomerEditing.alreadyStored(editor.buffer().base(), s.data()));
            return;
        }
        saves.abandon(mine);
        if (failure instanceof InvalidCustomerException invalid) {
            editor.buffer().rejected(invalid.errors());
        } else if (failure instanceof RecordBusyException busy) {
            editor.notice(EditorNotice.error(busy.getMessage() + ". Your changes are kept.", ""));
        } else if (failure instanceof OutcomeUnknownException unknownOutcome) {
            editor.notice(EditorNotice.error(CustomerEditorViewModel.SAVE_OUTCOME_UNKNOWN,
                    CustomerEditorViewModel.detail(unknownOutcome)));
        } else {
            editor.notice(EditorNotice.error(CustomerEditorViewModel.SAVE_FAILED,
                    CustomerEditorViewModel.detail(failure)));
        }
    }

    /** A versioned delete of the base, fenced by the lease while this editor holds it. */
    void delete(Customer base) {
        String name = base.data().displayName();
        TaskScope.Stamp stamp = scope.stamp();
        var token = lock.savesUnderLease() ? lock.token() : java.util.OptionalLong.empty();
        scope.executeTracked(() -> editing.delete(base, token), outcome -> {
            if (outcome instanceof DeleteOutcome.Deleted) {
                editor.deleted(stamp, base.id(), EditorNotice.info("Deleted " + name + "."));
            } else if (!stamp.isCurrent()) {
                return;
            } else if (outcome instanceof DeleteOutcome.Conflict c && c.theirs().isPresent()) {
                conflicts.deleteConflicted(base, c.theirs().get());
                editor.helpers().readHotRecord(base.id()); // the repository counted this conflict
            } else if (outcome instanceof DeleteOutcome.Locked locked) {
                editor.notice(EditorNotice.error("Not deleted: " + lockedBy(locked.holder()) + ".", ""));
                lock.lockedOnSave(locked.holder());
            } else if (outcome instanceof DeleteOutcome.LeaseLost lost) {
                editor.notice(EditorNotice.error("Not deleted: your lock for editing ended first.", ""));
                lock.leaseLostOnSave(lost.current());
            } else {
                editor.deleted(stamp, base.id(),
                        EditorNotice.info("This customer was already deleted by someone else."));
            }
        }, failure -> {
            if (stamp.isCurrent()) {
                editor.notice(EditorNotice.error("Can't reach the database — nothing was deleted. Try again.",
                        CustomerEditorViewModel.detail(failure)));
            }
        });
    }

    /** "Locked by Bob until 10:07", or "Locked by you in another window until 10:07". */
    String lockedBy(LeaseInfo holder) {
        return LockMessages.lockedBy(holder, lock.heldInAnotherWindow(holder), editor.zone());
    }

}
