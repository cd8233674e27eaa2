package org.lockstep.domain.merge;

import java.util.Optional;
import org.lockstep.domain.CustomerField;

/**
 * How one field merged.
 *
 * @param field      the field
 * @param base       its value in the version both sides started from
 * @param mine       my value
 * @param theirs     their value
 * @param resolution who won, or that a decision is needed
 * @param result     the merged value; for a {@link Resolution#CONFLICT} the proposal before a decision (mine for a
 *                   plain field; for text, the lines that merged cleanly with my side of each conflict hunk)
 * @param text       for multi-line fields both sides changed: the line-by-line merge; otherwise empty
 */
public record FieldMerge(CustomerField field, Object base, Object mine, Object theirs, Resolution resolution,
        Object result, Optional<TextMergeResult> text) {

    /** Who won a field, or that the operator must decide. */
    public enum Resolution {
        /** Neither side changed it. */
        UNCHANGED,
        /** Only I changed it: mine. */
        MINE,
        /** Only they changed it: theirs. */
        THEIRS,
        /** Both changed it to the same value. */
        BOTH_SAME,
        /** Both changed different lines of the text; the result has both changes. */
        LINES_COMBINED,
        /** Both changed it differently: a real conflict. */
        CONFLICT
    }

    /** Whether the operator must decide this field. */
    public boolean isConflict() {
        return resolution == Resolution.CONFLICT;
    }

    /** Whether anyone changed this field. */
    public boolean isChanged() {
        return resolution != Resolution.UNCHANGED;
    }
}
