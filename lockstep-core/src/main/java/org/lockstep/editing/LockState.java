package org.lockstep.editing;

import org.lockstep.domain.Lease;
import org.lockstep.domain.LeaseInfo;

/** Where an editor stands with the record's lock for editing. */
public sealed interface LockState {

    /** No lease is held by this editor, and nobody else holds one as far as it knows. */
    record Free() implements LockState {
    }

    /** Taking the lease is in flight. */
    record Acquiring() implements LockState {
    }

    /** This editor holds the lease; saves go out fenced by its token. */
    record Held(Lease lease) implements LockState {
    }

    /** Another operator holds the lease: the editor is read-only until it ends. */
    record HeldByOther(LeaseInfo holder) implements LockState {
    }

    /**
     * Another editor of this operator's client — another window — holds the lease: this one is read-only and writes
     * nothing, neither under that lease nor optimistically past it, until it ends or is released there. One lease,
     * one editor (docs/decisions/0012-one-writer-per-editor.md).
     *
     * @param holder the lease, whose session is the other editor's writer id
     */
    record HeldInAnotherWindow(LeaseInfo holder) implements LockState {
    }

    /**
     * This editor's lease ended without it letting go (taken after a lapse, broken, or its renewals failed): the
     * editor is read-only and keeps its edits; the operator may lock again or save optimistically.
     *
     * @param message what happened, in the operator's words
     */
    record Lost(String message) implements LockState {
    }
}
