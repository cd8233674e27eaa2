package org.lockstep.ui.editor;

import static org.lockstep.text.Texts.tr;

import java.util.OptionalLong;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.lockstep.concurrency.TaskScope;
import org.lockstep.domain.Customer;
import org.lockstep.domain.ConcurrencyMode;
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
import org.lockstep.text.Texts;
import org.lockstep.ui.lock.EditLockViewModel;

/**
 * An editor's saves and deletes: the save the lock's mode asks for ({@link CustomerEditing#save}), serialized by a
 * {@link SaveQueue} so an operator never conflicts with their own save, and what each outcome does to the editor's {@link EditorSession}.
 * A save that commits after the editor moved to another record is still reported ({@code onSaved}) and lets the next
 * queued save run; everything else of a stale outcome is dropped. Confined to the FX thread. The view and the
 * operator's actions reach it through the editor view model's {@code saves()}.
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

    /** The notice after a save failed for any reason other than invalid values. */
    public static final String SAVE_FAILED =
            Texts.key("Can't reach the database — your changes are kept. Try Save again.");
    /** The notice after a save whose reply was lost for good: it may or may not have been saved. */
    public static final String SAVE_OUTCOME_UNKNOWN = Texts.key("The connection was lost while saving: Lockstep "
            + "can't tell whether it was saved. Your changes are kept — Save again once the database is back; it will "
            + "not save twice.");

    private final EditorSession session;
    private final EditorStatus status;
    private final CustomerEditing editing;
    private final EditLockViewModel lock;
    private final TaskScope scope;
    private final ConflictFlow conflicts;
    private final SaveQueue saves = new SaveQueue(this::start);
    private Runnable controlCommitter = () -> {};
    // The request id each create goes under, when the editor keeps drafts ({@link #setCreateRequests}); else the store
    // chooses one per create.
    private Supplier<UUID> createRequests;
    // Where a notice naming another's lock goes ("Bob is editing this customer — your changes are kept"): to the
    // lock's wiring, which takes it back once that lock ends or passes to someone else (a lock two owners ago must
    // not stand in the message area). Until wired, straight to the session.
    private Consumer<EditorNotice> lockNotices;

    /**
     * @param status    whether Save and Delete are possible now
     * @param editing   the saves and deletes, as the editor's writer
     * @param lock      the editor's lock: the mode a save takes, the token it is fenced by
     * @param scope     the editor's calls: renewed when it moves to another record, so stale outcomes are told apart
     * @param conflicts where a zero-row save or delete goes
     */
    public EditorSaves(EditorSession session, EditorStatus status, CustomerEditing editing, EditLockViewModel lock,
            TaskScope scope, ConflictFlow conflicts) {
        this.session = session;
        this.status = status;
        this.editing = editing;
        this.lock = lock;
        this.scope = scope;
        this.conflicts = conflicts;
        this.lockNotices = session::notice;
    }

    /**
     * Sends every notice that names the lock standing now (a save or delete refused by another's lock) to
     * {@code tell}, after the lock learned of that holder, so that the notice lasts only as long as that lock.
     */
    public void setLockNotices(Consumer<EditorNotice> tell) {
        lockNotices = tell == null ? session::notice : tell;
    }

    /** Whether a save is in flight (another one may queue behind it). */
    public boolean inFlight() {
        return saves.inFlight();
    }

    /** Whether a save is in flight, observable: "Saving…" shows while it is. */
    public javafx.beans.property.ReadOnlyBooleanProperty inFlightProperty() {
        return saves.inFlightProperty();
    }

    /** The editor moved to another record: waiting saves and their follow-ups are dropped (the edits went too). */
    public void forgetWaiting() {
        saves.clear();
    }

    /**
     * Saves the edits: a create for a new customer, else the save the lock's mode asks for, in the background.
     * Controls first commit any value still being typed. A save requested while another is in flight is queued.
     *
     * @return whether a save was started or queued; {@code false} when {@link EditorStatus#canSaveProperty()} is false
     */
    public boolean save() {
        return submit(OptionalLong.empty());
    }

    /** Saves as {@link #save()}; a save that restores an earlier version names it, for the history. */
    private boolean submit(OptionalLong restoredFrom) {
        controlCommitter.run();
        if (!status.canSave.get()) {
            return false;
        }
        EditBuffer.Snapshot snapshot = session.buffer().snapshot();
        saves.submit(restoredFrom.isPresent() ? snapshot.restoring(restoredFrom.getAsLong()) : snapshot);
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
     * the decision opens.
     */
    public void requestDelete() {
        if (status.canDelete.get()) {
            delete(session.buffer().base());
        }
    }

    /** "Save without lock" after this editor lost its lease: goes on optimistically and saves now. */
    public boolean saveWithoutLock() {
        lock.continueOptimistically();
        return save();
    }

    /** The confirmation question before a delete, naming the customer. */
    public String deleteQuestion() {
        EditBuffer buffer = session.buffer();
        Customer base = buffer.base();
        String name = base == null ? status.displayName.get() : base.data().displayName();
        long id = session.customerId().orElse(-1);
        return buffer.dirtyProperty().get()
                ? tr("Delete {0} (Customer #{1})? This cannot be undone. Your unsaved changes are lost too.", name, id)
                : tr("Delete {0} (Customer #{1})? This cannot be undone.", name, id);
    }

    /**
     * "Restore this version": puts a version's values into the fields and saves them on the editor's current base, as
     * the save the lock's mode asks for, recorded in the history as restoring {@code version} ("Restored version 4").
     * It may conflict like any save (then the merge opens, and what the merge saves is a merge, no restore).
     *
     * @param version the version restored, whose values {@code values} are
     * @return whether a save started; {@code false} when the editor takes no edits now, or the record already holds
     *         these values (the notice says so)
     */
    public boolean restore(long version, CustomerData values) {
        if (session.state() != EditorState.EDITING || !status.editable.get()) {
            return false;
        }
        EditBuffer buffer = session.buffer();
        for (CustomerField f : CustomerField.values()) {
            buffer.text(f).set(buffer.parser().format(values.get(f)));
        }
        if (!buffer.dirtyProperty().get()) {
            session.notice(EditorNotice.info(tr("This customer already holds these values; nothing to restore.")));
            return false;
        }
        return submit(OptionalLong.of(version));
    }

    /**
     * Creates go under the request id {@code requests} gives at the moment each is sent: the draft's ({@link
     * DraftKeeper#createRequest}), so that a create whose commit the client did not live to see is recognised when
     * its draft is restored and saved again, never made twice (issue 28).
     */
    public void setCreateRequests(Supplier<UUID> requests) {
        createRequests = requests;
    }

    /** Installs what makes the view's controls commit a value still being typed, before every save's snapshot. */
    public void setControlCommitter(Runnable committer) {
        controlCommitter = committer == null ? () -> {} : committer;
    }

    private void start(EditBuffer.Snapshot mine) {
        TaskScope.Stamp stamp = scope.stamp();
        Customer base = session.buffer().base();
        if (base == null) {
            UUID request = createRequests == null ? null : createRequests.get();
            scope.executeTracked(() -> request == null ? editing.create(mine.data())
                    : editing.create(mine.data(), request), created -> saved(stamp, mine, created),
                    e -> failed(stamp, mine, e));
            return;
        }
        ConcurrencyMode mode = lock.modeProperty().get();
        OptionalLong token = lock.savesUnderLease() ? lock.token() : OptionalLong.empty();
        OptionalLong restoredFrom = mine.restoredFrom();
        scope.executeTracked(() -> restoredFrom.isPresent()
                ? editing.restore(mode, token, base, mine.data(), restoredFrom.getAsLong())
                : editing.save(mode, token, base, mine.data()),
                outcome -> outcome.handle(new SaveOutcome.Handler() {
                    @Override
                    public void saved(SaveOutcome.Saved saved) {
                        EditorSaves.this.saved(stamp, mine, saved.saved());
                    }

                    @Override
                    public void conflict(SaveOutcome.Conflict conflict) {
                        conflicted(stamp, mine, base, conflict);
                    }

                    @Override
                    public void locked(SaveOutcome.Locked locked) {
                        saves.abandon(mine);
                        if (stamp.isCurrent()) {
                            // Another session holds the lease: nothing was written, every edit stays.
                            lock.lockedOnSave(locked.holder());
                            lockNotices.accept(EditorNotice.error(
                                    tr("{0} — your changes are kept.", lockedBy(locked.holder())), ""));
                        }
                    }

                    @Override
                    public void leaseLost(SaveOutcome.LeaseLost lost) {
                        saves.abandon(mine);
                        if (stamp.isCurrent()) {
                            lock.leaseLostOnSave(lost.current()); // read-only with the edits until the operator decides
                        }
                    }
                }), e -> failed(stamp, mine, e));
    }

    private void saved(TaskScope.Stamp stamp, EditBuffer.Snapshot mine, Customer stored) {
        if (stamp.isCurrent()) {
            session.savedHere(stored, mine);
        } else {
            session.committed(stored);
        }
        next();
    }

    /** The save in flight is over: the next waiting save runs, unless the database already holds its values. */
    private void next() {
        saves.next(s -> CustomerEditing.alreadyStored(session.buffer().base(), s.data()));
    }

    private void conflicted(TaskScope.Stamp stamp, EditBuffer.Snapshot mine, Customer base,
            SaveOutcome.Conflict outcome) {
        if (CustomerEditing.sameAsTheirs(outcome, mine.data())) {
            if (stamp.isCurrent()) {
                conflicts.sameAsTheirs(mine, outcome.theirs().orElseThrow());
                session.conflictCounted(base.id());
            }
            next();
            return;
        }
        if (!stamp.isCurrent()) {
            next();
            return;
        }
        EditBuffer.Snapshot latest = saves.abandon(mine);
        conflicts.saveConflicted(base, latest.data(), outcome);
        session.conflictCounted(base.id());
    }

    private void failed(TaskScope.Stamp stamp, EditBuffer.Snapshot mine, Throwable failure) {
        if (!stamp.isCurrent()) {
            // A save of the record shown before; saves queued for the record shown now still run.
            next();
            return;
        }
        saves.abandon(mine);
        if (failure instanceof InvalidCustomerException invalid) {
            session.buffer().rejected(invalid.errors());
        } else if (failure instanceof RecordBusyException busy) {
            session.notice(EditorNotice.error(tr("{0}. Your changes are kept.", busy.getMessage()), ""));
        } else if (failure instanceof OutcomeUnknownException unknownOutcome) {
            session.notice(EditorNotice.error(tr(SAVE_OUTCOME_UNKNOWN), EditorNotice.detail(unknownOutcome)));
        } else {
            session.notice(EditorNotice.error(tr(SAVE_FAILED), EditorNotice.detail(failure)));
        }
    }

    /** A versioned delete of the base, fenced by the lease while this editor holds it. */
    private void delete(Customer base) {
        String name = base.data().displayName();
        TaskScope.Stamp stamp = scope.stamp();
        OptionalLong token = lock.savesUnderLease() ? lock.token() : OptionalLong.empty();
        scope.executeTracked(() -> editing.delete(base, token), outcome -> outcome.handle(new DeleteOutcome.Handler() {
            @Override
            public void deleted(DeleteOutcome.Deleted deleted) {
                if (stamp.isCurrent()) {
                    session.deleted(base.id(), EditorNotice.info(tr("Deleted {0}.", name)));
                } else {
                    session.deletedElsewhere(base.id()); // the record shown before: only the outside needs to know
                }
            }

            @Override
            public void conflict(DeleteOutcome.Conflict conflict) {
                if (!stamp.isCurrent()) {
                    return;
                }
                if (conflict.theirs().isEmpty()) {
                    session.deleted(base.id(),
                            EditorNotice.info(tr("This customer was already deleted by someone else.")));
                } else {
                    conflicts.deleteConflicted(base, conflict.theirs().get());
                    session.conflictCounted(base.id());
                }
            }

            @Override
            public void locked(DeleteOutcome.Locked locked) {
                if (stamp.isCurrent()) {
                    lock.lockedOnSave(locked.holder());
                    lockNotices.accept(
                            EditorNotice.error(tr("Not deleted: {0}.", lockedBy(locked.holder())), ""));
                }
            }

            @Override
            public void leaseLost(DeleteOutcome.LeaseLost lost) {
                if (stamp.isCurrent()) {
                    session.notice(EditorNotice.error(tr("Not deleted: your lock for editing ended first."), ""));
                    lock.leaseLostOnSave(lost.current());
                }
            }
        }), failure -> {
            if (stamp.isCurrent()) {
                session.notice(EditorNotice.error(tr("Can't reach the database — nothing was deleted. Try again."),
                        EditorNotice.detail(failure)));
            }
        });
    }

    /** "Locked by Bob until 10:07", or "Locked by you in another window until 10:07". */
    private String lockedBy(LeaseInfo holder) {
        return LockMessages.lockedBy(holder, lock.heldInAnotherWindow(holder), session.zone());
    }
}
