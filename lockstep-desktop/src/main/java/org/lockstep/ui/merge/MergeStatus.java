package org.lockstep.ui.merge;

import static org.lockstep.text.Texts.tr;

import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyIntegerWrapper;
import javafx.beans.property.ReadOnlyStringWrapper;
import org.lockstep.domain.InvalidCustomerException;

/**
 * Where a merge dialog stands: what it says (notice, error, problems, progress), whether a call is running, whether
 * it is done, and so which actions are open. Confined to the FX thread, like the view model that owns it.
 */
final class MergeStatus {

    final ReadOnlyStringWrapper notice = new ReadOnlyStringWrapper(this, "notice", "");
    final ReadOnlyStringWrapper error = new ReadOnlyStringWrapper(this, "error", "");
    final ReadOnlyStringWrapper problems = new ReadOnlyStringWrapper(this, "problems", "");
    final ReadOnlyStringWrapper progress = new ReadOnlyStringWrapper(this, "progress", "");
    final ReadOnlyIntegerWrapper conflicts = new ReadOnlyIntegerWrapper(this, "conflicts");
    final ReadOnlyIntegerWrapper resolved = new ReadOnlyIntegerWrapper(this, "resolved");
    final ReadOnlyBooleanWrapper busy = new ReadOnlyBooleanWrapper(this, "busy");
    final ReadOnlyBooleanWrapper deleted = new ReadOnlyBooleanWrapper(this, "deleted");
    final ReadOnlyBooleanWrapper finished = new ReadOnlyBooleanWrapper(this, "finished");
    final ReadOnlyBooleanWrapper canSave = new ReadOnlyBooleanWrapper(this, "canSave");
    final ReadOnlyBooleanWrapper canRecreate = new ReadOnlyBooleanWrapper(this, "canRecreate");

    private final MergeRows rows;

    MergeStatus(MergeRows rows) {
        this.rows = rows;
    }

    /** A new merge is shown: {@code deleted} when theirs is gone; nothing said yet. */
    void showing(boolean gone) {
        deleted.set(gone);
        notice.set("");
        error.set("");
    }

    /** The Result was checked: marks each row's problem, counts the conflicts and opens the actions that apply. */
    void show(ResultCheck check) {
        rows.all().forEach(r -> r.setError(check.byField().getOrDefault(r.field(), "")));
        problems.set(check.ok() ? "" : tr("Cannot be saved yet: {0}", String.join("; ", check.all())));
        int total = rows.conflicts();
        int done = rows.resolved();
        conflicts.set(total);
        resolved.set(done);
        progress.set(MergeHeader.progress(done, total));
        updateActions();
        rows.refreshVisible();
    }

    /** A database call starts: the actions close until it ends. */
    void start() {
        busy.set(true);
        error.set("");
        updateActions();
    }

    /** The call came back. */
    void stopped() {
        busy.set(false);
    }

    /** The dialog is done (saved, discarded, cancelled, re-created) and closes. */
    void finish() {
        finished.set(true);
        updateActions();
    }

    /** Save merged came back refused: someone holds the lock, {@code lockedBy} ("Locked by Bob until 10:30"). */
    void lockedOut(String lockedBy) {
        error.set(tr("Not saved: {0}. Nothing is lost: your merge is still here; try Save merged once the lock"
                + " ends.", lockedBy));
    }

    /** Save merged came back refused: this session's lock for editing was lost. */
    void leaseLost() {
        error.set(tr("Not saved: the lock for editing was lost. Nothing is lost: your merge is still here."));
    }

    /**
     * A call failed: says what was not done and why, and that the merge is still here to try again.
     *
     * @param recreating whether it was Re-create (else Save merged)
     */
    void failed(boolean recreating, Throwable failure) {
        busy.set(false);
        if (failure instanceof InvalidCustomerException invalid) {
            error.set(recreating
                    ? tr("Not re-created: the database did not accept some values. Correct the Result and try"
                            + " Re-create again.")
                    : tr("Not saved: the database did not accept some values. Correct the Result and try"
                            + " Save merged again."));
            show(ResultCheck.of(invalid.errors()));
            return;
        }
        error.set(recreating
                ? tr("Not re-created: {0}. Nothing is lost: your merge is still here; try Re-create again.",
                        message(failure))
                : tr("Not saved: {0}. Nothing is lost: your merge is still here; try Save merged again.",
                        message(failure)));
        updateActions();
    }

    private void updateActions() {
        boolean open = !busy.get() && !finished.get() && problems.get().isEmpty();
        canSave.set(open && !deleted.get() && resolved.get() == conflicts.get());
        canRecreate.set(open && deleted.get());
    }

    static String message(Throwable failure) {
        String m = failure.getMessage();
        return m == null || m.isBlank() ? failure.getClass().getSimpleName() : m;
    }
}
