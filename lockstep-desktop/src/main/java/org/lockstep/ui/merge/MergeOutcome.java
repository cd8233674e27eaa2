package org.lockstep.ui.merge;

import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerData;

/**
 * How a merge ended — the one value a {@link MergeViewModel} finishes with, once. The editor that opened the merge
 * handles every kind ({@link Handler}): the merged save committed, the operator dropped their edits, went back to
 * them, re-created a deleted record with them, or accepted that someone deleted it.
 */
public sealed interface MergeOutcome {

    /** What to do with each kind of ending, one method per kind: a kind added later breaks every handler's compile. */
    interface Handler {
        void saved(Saved outcome);

        void discarded(Discarded outcome);

        void cancelled(Cancelled outcome);

        void recreated(Recreated outcome);

        void deletionAccepted(DeletionAccepted outcome);
    }

    /** Calls the method of {@code handler} for this kind of ending. */
    void handle(Handler handler);

    /**
     * Save merged committed, or theirs already held the Result: {@code stored} is the editor's new clean base.
     *
     * @param stored the record as the database holds it after the merge
     */
    record Saved(Customer stored) implements MergeOutcome {
        @Override
        public void handle(Handler handler) {
            handler.saved(this);
        }
    }

    /** "Discard my changes": the editor shows {@code theirs}, clean. */
    record Discarded(Customer theirs) implements MergeOutcome {
        @Override
        public void handle(Handler handler) {
            handler.discarded(this);
        }
    }

    /** Esc, Back or closing the window: back to the editor with {@code mine}, its values as it passed them. */
    record Cancelled(CustomerData mine) implements MergeOutcome {
        @Override
        public void handle(Handler handler) {
            handler.cancelled(this);
        }
    }

    /** "Re-create with my values" for a record someone deleted created {@code created}. */
    record Recreated(Customer created) implements MergeOutcome {
        @Override
        public void handle(Handler handler) {
            handler.recreated(this);
        }
    }

    /** "Discard" for a record someone deleted: the edits are dropped and the editor shows customer {@code id} gone. */
    record DeletionAccepted(long id) implements MergeOutcome {
        @Override
        public void handle(Handler handler) {
            handler.deletionAccepted(this);
        }
    }
}
