package org.lockstep.ui.merge;

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
        problems.set(check.ok() ? "" : "Cannot be saved yet: " + String.join("; ", check.all()));
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

    /** Save merged came back refused: "Not saved: {@code why}". */
    void notSaved(String why) {
        error.set("Not saved: " + why);
    }

    /** A call failed: says what was not done and why, and that the merge is still here to try {@code retry} again. */
    void failed(String what, Throwable failure, String retry) {
        busy.set(false);
        if (failure instanceof InvalidCustomerException invalid) {
            error.set(what + ": the database did not accept some values. Correct the Result and try " + retry
                    + " again.");
            show(ResultCheck.of(invalid.errors()));
            return;
        }
        error.set(what + ": " + message(failure) + ". Nothing is lost: your merge is still here; try " + retry
                + " again.");
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
