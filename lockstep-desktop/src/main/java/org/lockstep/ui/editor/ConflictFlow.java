package org.lockstep.ui.editor;

import static org.lockstep.text.Texts.tr;

import java.util.Optional;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.SaveOutcome;
import org.lockstep.drafts.MergeDraft;
import org.lockstep.ui.merge.DeleteConflictViewModel;
import org.lockstep.ui.merge.DeleteDecision;
import org.lockstep.ui.merge.MergeHeader;
import org.lockstep.ui.merge.MergeOutcome;
import org.lockstep.ui.merge.MergeViewModel;
import org.lockstep.ui.merge.Merges;

/**
 * An editor's conflicts: the merge a zero-row save opens ({@link MergeViewModel}, also for a record someone deleted),
 * the decision a zero-row delete opens ({@link DeleteConflictViewModel}), the review of a live banner, and what each
 * outcome does to the editor's {@link EditorSession}. Nothing is overwritten until the operator chooses. Confined to
 * the FX thread. The view binds to it through {@link CustomerEditorViewModel#conflicts()}.
 */
public final class ConflictFlow {

    private final EditorSession session;
    private final Merges merges;
    private final ReadOnlyObjectWrapper<MergeViewModel> merge = new ReadOnlyObjectWrapper<>(this, "merge");
    private final ReadOnlyObjectWrapper<DeleteConflictViewModel> deleteConflict =
            new ReadOnlyObjectWrapper<>(this, "deleteConflict");

    /** @param merges opens the merges and delete decisions, writing as the editor's writer */
    public ConflictFlow(EditorSession session, Merges merges) {
        this.session = session;
        this.merges = merges;
    }

    /** An open merge of my save with theirs (or the deleted flow), or {@code null}. While open, no edits. */
    public ReadOnlyObjectProperty<MergeViewModel> mergeProperty() {
        return merge.getReadOnlyProperty();
    }

    /** An open decision about a delete that met a newer version, or {@code null}. While open, no edits. */
    public ReadOnlyObjectProperty<DeleteConflictViewModel> deleteConflictProperty() {
        return deleteConflict.getReadOnlyProperty();
    }

    /** Whether a merge or a delete decision is open: the editor takes no edits meanwhile. */
    public boolean open() {
        return merge.get() != null || deleteConflict.get() != null;
    }

    /** Closes whatever is open (their dialogs close with them). */
    public void close() {
        merge.set(null);
        deleteConflict.set(null);
    }

    /** A save of {@code mine} on {@code base} came back zero rows: open the merge (or the deleted flow). */
    public void saveConflicted(Customer base, CustomerData mine, SaveOutcome.Conflict outcome) {
        merge.set(mergeOf(base, mine, outcome));
    }

    /** "Review" on the live banner: the merge of the edits with the newer record now (or the deleted flow). */
    public void review(Customer base, CustomerData mine, Optional<Customer> theirs) {
        if (merge.get() == null) {
            merge.set(mergeOf(base, mine, new SaveOutcome.Conflict(theirs)));
        }
    }

    /**
     * A draft of a merge comes back (issue 28): the merge of {@code mine} on {@code base} with the record now,
     * {@code theirs}, opens again with the operator's choices where they still apply ({@link
     * MergeViewModel#restoreChoices}).
     */
    public void restoreMerge(Customer base, CustomerData mine, Customer theirs, MergeDraft kept) {
        MergeViewModel open = mergeOf(base, mine, new SaveOutcome.Conflict(Optional.of(theirs)));
        open.restoreChoices(kept);
        merge.set(open);
    }

    /**
     * Someone else's save already holds exactly the values this save asked for. It was not this save (the store
     * recognises a retry of this very save by its request id and reports it saved), so nothing of this editor was
     * written. The editor takes theirs as its base and says so, because a change meant to add to theirs (both sold
     * one unit: 5 became 4 twice) is lost unless the operator makes it again.
     */
    public void sameAsTheirs(EditBuffer.Snapshot mine, Customer theirs) {
        session.buffer().saved(theirs, mine);
        session.state(EditorState.EDITING);
        session.notice(EditorNotice.info(tr("{0} saved these same values first (version {1}), so your save "
                + "wrote nothing. If your change was meant to add to theirs (an amount, a count), make it again.",
                MergeHeader.who(theirs.updatedBy()), theirs.version())));
    }

    /** A versioned delete of {@code base} met {@code theirs}: open the decision. */
    public void deleteConflicted(Customer base, Customer theirs) {
        DeleteConflictViewModel open = merges.forDelete(base, theirs);
        open.setOnDecided(decision -> {
            deleteConflict.set(null);
            decision.handle(new DeleteDecision.Handler() {
                @Override
                public void deleted(DeleteDecision.Deleted gone) {
                    session.deleted(gone.id(), EditorNotice.info(tr("Deleted {0}.", theirs.data().displayName())));
                }

                @Override
                public void kept(DeleteDecision.Kept kept) {
                    // As Discard: the edits are reset to the record now, and the other parts hear it (no banner is
                    // left announcing the version the editor now shows).
                    session.resetTo(kept.now(), null);
                }
            });
        });
        deleteConflict.set(open);
    }

    private MergeViewModel mergeOf(Customer base, CustomerData mine, SaveOutcome.Conflict outcome) {
        MergeViewModel open = merges.forConflict(base, mine, outcome);
        open.setOnFinished(ending -> {
            merge.set(null);
            ending.handle(new MergeOutcome.Handler() {
                @Override
                public void saved(MergeOutcome.Saved saved) {
                    session.resetTo(saved.stored(), EditorNotice.savedVersion(saved.stored().version()));
                    session.committed(saved.stored());
                }

                @Override
                public void discarded(MergeOutcome.Discarded discarded) {
                    session.resetTo(discarded.theirs(), null);
                }

                @Override
                public void cancelled(MergeOutcome.Cancelled cancelled) {
                    // The edits never left the buffer: they stay on the old base, so the next Save merges again.
                    session.notice(EditorNotice.info(
                            tr("Your changes are kept, not saved yet; Save opens the merge again.")));
                }

                @Override
                public void recreated(MergeOutcome.Recreated recreated) {
                    session.recreated(recreated.created());
                }

                @Override
                public void deletionAccepted(MergeOutcome.DeletionAccepted accepted) {
                    session.buffer().reset(session.buffer().base());
                    session.deleted(accepted.id(), EditorNotice.info(tr("This customer was deleted by someone else.")));
                }
            });
        });
        return open;
    }
}
