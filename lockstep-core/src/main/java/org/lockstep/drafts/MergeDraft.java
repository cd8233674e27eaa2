package org.lockstep.drafts;

import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerField;

/**
 * A merge dialog's state in a {@link Draft}: the other side it merged with and the operator's choices so far. On a
 * restore the merge is opened again from the draft's base, its edits and this version; if the customer moved on
 * again since, the newer version is merged instead and these choices are offered where they still apply.
 *
 * @param theirsVersion the stored version the merge was made against
 * @param theirs        that version's values
 * @param resolved      the text chosen or written for each field in conflict that the operator had settled
 */
public record MergeDraft(long theirsVersion, CustomerData theirs, Map<CustomerField, String> resolved) {

    public MergeDraft {
        Objects.requireNonNull(theirs, "theirs");
        if (theirsVersion < 1) {
            throw new IllegalArgumentException("theirsVersion " + theirsVersion + " is not a stored version");
        }
        resolved = resolved.isEmpty() ? Map.of() : Map.copyOf(new EnumMap<>(resolved));
    }
}
