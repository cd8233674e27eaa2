package org.lockstep.drafts;

/** A file under {@code drafts/} that is not a whole draft this Lockstep can read; it is kept, never deleted. */
public final class UnreadableDraftException extends Exception {

    private static final long serialVersionUID = 1L;

    /** Why a draft could not be read. */
    public enum Reason {
        /** Not a whole draft: cut short, or changed by hand. */
        DAMAGED,
        /** Written by a newer Lockstep, in a format this one does not know. */
        NEWER
    }

    private final Reason reason;

    UnreadableDraftException(Reason reason, String detail) {
        super(detail);
        this.reason = reason;
    }

    /** Why it could not be read. */
    public Reason reason() {
        return reason;
    }
}
