package org.lockstep.ui.merge;

import org.lockstep.domain.Customer;

/**
 * How a delete that met a newer version ended — the one value a {@link DeleteConflictViewModel} finishes with, once:
 * the record is gone (Delete anyway, or someone else deleted it meanwhile), or the operator kept it as it is now.
 */
public sealed interface DeleteDecision {

    /** What to do with each kind of ending, one method per kind: a kind added later breaks every handler's compile. */
    interface Handler {
        void deleted(Deleted decision);

        void kept(Kept decision);
    }

    /** Calls the method of {@code handler} for this kind of ending. */
    void handle(Handler handler);

    /** Customer {@code id} no longer exists. */
    record Deleted(long id) implements DeleteDecision {
        @Override
        public void handle(Handler handler) {
            handler.deleted(this);
        }
    }

    /** Keep (or Esc): the editor shows {@code now}, the record as it is now. */
    record Kept(Customer now) implements DeleteDecision {
        @Override
        public void handle(Handler handler) {
            handler.kept(this);
        }
    }
}
