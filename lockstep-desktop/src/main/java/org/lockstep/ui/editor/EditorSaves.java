package org.lockstep.ui.editor;

import static org.lockstep.text.Texts.tr;

import org.lockstep.concurrency.TaskScope;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerField;
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
 * queued save run; everything else of a stale outcome is dropped. Confined to the FX thread. The view and the
 * operator's actions reach it through {@link CustomerEditorViewModel#saves()}.
 *
 * <p>Saves from one editor are serialized: a save requested while another is in flight waits in the queue and then
 * uses the version that one returned. A queued save whose values the database already holds is skipped rather than
 * written as an empty new version. Saves and deletes go out fenced by the lease's token while this editor holds it;
 * one refused by another's lease, or by a lost one, keeps every edit. In the trainer's "Last write wins (unsafe)"
 * mode a save is a blind {@link org.lockstep.domain.CustomerRepository#overwrite} instead: no version check and never
 * a merge, so a save committed by another operator in between is lost without any error — the bug the other modes
 * prevent, shown on purpose.
 */
public final class EditorSaves {

    private final CustomerEditorViewModel editor;
    private final CustomerEditing editing;
    private final EditLockViewModel lock;
    private final TaskScope scope;
    private final ConflictFlow conflicts;
    private final SaveQueue saves = new SaveQueue(this::start);
    private Runnable controlCommitter = () -> {};

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

    /**
     * Saves the edits: a create for a new customer, else the save the lock's mode asks for, in the background.
     * Controls first commit any value still being typed. A save requested while another is in flight is queued.
     *
     * @return whether a save was started or queued; {@code false} when {@link EditorStatus#canSaveProperty()} is false
     */
    public boolean save() {
        controlCommitter.run();
        if (!editor.status().canSave.get()) {
            return false;
        }
        saves.submit(editor.buffer().snapshot());
        return true;
    }

    /**
     * Saves, and runs {@code whenSaved} once this save and every save queued before it have committed. Nothing
     * runs when the save fails or conflicts.
     *
     * @return as {@link #save()}
     */
    public boolean saveAndThen(Runnable whenSaved) {
        saves.whenDrained(whenSaved);
        boolean submitted = save();
        if (!submitted) {
            saves.cancel(whenSaved);
        }
        return submitted;
    }

    /**
     * A versioned delete ({@code DELETE … WHERE id = ? AND version = ?}) of the record as loaded. The view asks for
     * confirmation first ({@link #deleteQuestion()}). If someone changed the record since, nothing is deleted and
     * the notice offers to reload.
     */
    public void requestDelete() {
        if (editor.status().canDelete.get()) {
            delete(editor.buffer().base());
        }
    }

    /** "Save without lock" after this editor lost its lease: goes on optimistically and saves now. */
    public boolean saveWithoutLock() {
        lock.continueOptimistically();
        return save();
    }

    /** The confirmation question before a delete, naming the customer. */
    public String deleteQuestion() {
        EditBuffer buffer = editor.buffer();
        Customer base = buffer.base();
        String name = base == null ? editor.status().displayName.get() : base.data().displayName();
        long id = editor.customerId().orElse(-1);
        return buffer.dirtyProperty().get()
                ? tr("Delete {0} (Customer #{1})? This cannot be undone. Your unsaved changes are lost too.", name, id)
                : tr("Delete {0} (Customer #{1})? This cannot be undone.", name, id);
    }

    /**
     * "Restore this version": puts a version's values into the fields and saves them as an ordinary save on the
     * editor's current base, so it may conflict like any save (then the merge opens).
     *
     * @return whether a save started; {@code false} when the editor takes no edits now, or the record already holds
     *         these values (the notice says so)
     */
    public boolean restore(CustomerData values) {
        if (editor.stateProperty().get() != EditorState.EDITING || !editor.status().editable.get()) {
            return false;
        }
        EditBuffer buffer = editor.buffer();
        for (CustomerField f : CustomerField.values()) {
            buffer.text(f).set(buffer.parser().format(values.get(f)));
        }
        if (!buffer.dirtyProperty().get()) {
            editor.notice(EditorNotice.info(tr("This customer already holds these values; nothing to restore.")));
            return false;
        }
        return save();
    }

    /** Installs what makes the view's controls commit a value still being typed, before every save's snapshot. */
    public void setControlCommitter(Runnable committer) {
        controlCommitter = committer == null ? () -> {} : committer;
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
                    editor.notice(
                            EditorNotice.error(tr("{0} — your changes are kept.", lockedBy(locked.holder())), ""));
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
            editor.notice(EditorNotice.error(tr("{0}. Your changes are kept.", busy.getMessage()), ""));
        } else if (failure instanceof OutcomeUnknownException unknownOutcome) {
            editor.notice(EditorNotice.error(tr(CustomerEditorViewModel.SAVE_OUTCOME_UNKNOWN),
                    EditorNotice.detail(unknownOutcome)));
        } else {
            editor.notice(EditorNotice.error(tr(CustomerEditorViewModel.SAVE_FAILED),
                    EditorNotice.detail(failure)));
        }
    }

    /** A versioned delete of the base, fenced by the lease while this editor holds it. */
    void delete(Customer base) {
        String name = base.data().displayName();
        TaskScope.Stamp stamp = scope.stamp();
        var token = lock.savesUnderLease() ? lock.token() : java.util.OptionalLong.empty();
        scope.executeTracked(() -> editing.delete(base, token), outcome -> {
            if (outcome instanceof DeleteOutcome.Deleted) {
                editor.deleted(stamp, base.id(), EditorNotice.info(tr("Deleted {0}.", name)));
            } else if (!stamp.isCurrent()) {
                return;
            } else if (outcome instanceof DeleteOutcome.Conflict c && c.theirs().isPresent()) {
                conflicts.deleteConflicted(base, c.theirs().get());
                editor.helpers().readHotRecord(base.id()); // the repository counted this conflict
            } else if (outcome instanceof DeleteOutcome.Locked locked) {
                editor.notice(EditorNotice.error(tr("Not deleted: {0}.", lockedBy(locked.holder())), ""));
                lock.lockedOnSave(locked.holder());
            } else if (outcome instanceof DeleteOutcome.LeaseLost lost) {
                editor.notice(EditorNotice.error(tr("Not deleted: your lock for editing ended first."), ""));
                lock.leaseLostOnSave(lost.current());
            } else {
                editor.deleted(stamp, base.id(),
                        EditorNotice.info(tr("This customer was already deleted by someone else.")));
            }
        }, failure -> {
            if (stamp.isCurrent()) {
                editor.notice(EditorNotice.error(tr("Can't reach the database — nothing was deleted. Try again."),
                        EditorNotice.detail(failure)));
            }
        });
    }

    /** "Locked by Bob until 10:07", or "Locked by you in another window until 10:07". */
    String lockedBy(LeaseInfo holder) {
        return LockMessages.lockedBy(holder, lock.heldInAnotherWindow(holder), editor.zone());
    }

}
