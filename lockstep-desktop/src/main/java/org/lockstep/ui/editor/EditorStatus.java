package org.lockstep.ui.editor;

import static org.lockstep.text.Texts.tr;

import java.time.Clock;
import java.util.List;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.FieldError;

/**
 * What an editor's controls show, derived from its state in one place: which actions are possible, why Save is
 * blocked, the name, version line and window title. Recomputed whenever an input changes. Confined to the FX thread.
 * The view binds to it through {@link CustomerEditorViewModel#status()}.
 */
public final class EditorStatus {

    final ReadOnlyBooleanWrapper editable = new ReadOnlyBooleanWrapper(this, "editable");
    final ReadOnlyBooleanWrapper canSave = new ReadOnlyBooleanWrapper(this, "canSave");
    final ReadOnlyBooleanWrapper canRevert = new ReadOnlyBooleanWrapper(this, "canRevert");
    final ReadOnlyBooleanWrapper canDelete = new ReadOnlyBooleanWrapper(this, "canDelete");
    final ReadOnlyStringWrapper saveBlockedReason = new ReadOnlyStringWrapper(this, "saveBlockedReason", "");
    final ReadOnlyStringWrapper displayName = new ReadOnlyStringWrapper(this, "displayName", "");
    final ReadOnlyStringWrapper versionLine = new ReadOnlyStringWrapper(this, "versionLine", "");
    final ReadOnlyStringWrapper title = new ReadOnlyStringWrapper(this, "title", "");
    final ReadOnlyStringWrapper saveProgress = new ReadOnlyStringWrapper(this, "saveProgress", "");

    /**
     * The inputs of one recomputation.
     *
     * @param conflictOpen a merge or delete decision is open
     * @param readOnly     the lock makes the fields read-only
     * @param busy         a call is in flight
     * @param saveInFlight the call in flight includes a save (another save may queue behind it)
     */
    record Inputs(EditorState state, boolean conflictOpen, boolean readOnly, List<FieldError> problems,
            boolean dirty, boolean busy, boolean saveInFlight, CustomerData current, Customer base, long id,
            String user, Clock clock) {
    }

    void refresh(Inputs in) {
        EditorState s = in.state();
        boolean open = (s == EditorState.NEW || s == EditorState.EDITING) && !in.conflictOpen();
        boolean writable = open && !in.readOnly();
        editable.set(writable);
        // A save may be requested while another is in flight (it queues), but not while a load or delete runs.
        boolean otherCallInFlight = in.busy() && !in.saveInFlight();
        canSave.set(writable && in.problems().isEmpty() && (in.dirty() || s == EditorState.NEW) && !otherCallInFlight);
        // Revert stays possible while read-only: dropping one's own edits never needs the lease.
        canRevert.set(open && in.dirty() && !in.busy());
        canDelete.set(writable && s == EditorState.EDITING && !in.busy());
        saveBlockedReason.set(open && !in.problems().isEmpty() ? EditorTexts.blockedReason(in.problems()) : "");
        displayName.set(in.current().displayName());
        versionLine.set(EditorTexts.versionLine(s, in.base(), in.clock()));
        saveProgress.set(in.saveInFlight() ? tr("Saving…") : "");
        title.set(EditorTexts.title(s, in.dirty(), displayName.get(), in.id(), in.user()));
    }

    /** The fields take edits. */
    public ReadOnlyBooleanProperty editableProperty() {
        return editable.getReadOnlyProperty();
    }

    /** Save would do something: the edits are valid and differ from the base (or the customer is new). */
    public ReadOnlyBooleanProperty canSaveProperty() {
        return canSave.getReadOnlyProperty();
    }

    /** Revert would do something. */
    public ReadOnlyBooleanProperty canRevertProperty() {
        return canRevert.getReadOnlyProperty();
    }

    /** Delete is possible: a stored customer, nothing in flight. */
    public ReadOnlyBooleanProperty canDeleteProperty() {
        return canDelete.getReadOnlyProperty();
    }

    /** "Can't save: …" with the first problem, or empty when nothing blocks a save. */
    public ReadOnlyStringProperty saveBlockedReasonProperty() {
        return saveBlockedReason.getReadOnlyProperty();
    }

    /** The customer's name as edited now: the company, else the contact, else "(unnamed)". */
    public ReadOnlyStringProperty displayNameProperty() {
        return displayName.getReadOnlyProperty();
    }

    /** "version N · saved by X at T", "Loading…" or "New customer · not saved yet". */
    public ReadOnlyStringProperty versionLineProperty() {
        return versionLine.getReadOnlyProperty();
    }

    /** "Saving…" while a save of this editor is in flight, else empty; "Saved version N" follows as a notice. */
    public ReadOnlyStringProperty saveProgressProperty() {
        return saveProgress.getReadOnlyProperty();
    }

    /** The window title: "• Acme — Customer #3 — Lockstep — alice" ("•" while there are unsaved edits). */
    public ReadOnlyStringProperty titleProperty() {
        return title.getReadOnlyProperty();
    }
}
