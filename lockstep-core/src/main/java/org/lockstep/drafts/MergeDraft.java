package org.lockstep.drafts;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.merge.TextMergeResult.HunkChoice;

/**
 * A merge dialog's state in a {@link Draft}: the other side it merged with and the operator's choices so far. On a
 * restore the merge is opened again from the draft's base, its edits and this version; if the customer moved on
 * again since, the newer version is merged instead and these choices are offered where they still apply: mine and
 * what the operator wrote always (mine did not change), theirs and a choice part by part only where theirs' value of
 * that field is still the one chosen from.
 *
 * @param theirsVersion the stored version the merge was made against
 * @param theirs        that version's values
 * @param resolved      the Result's text of each field the operator settled (chose a side for, or wrote into)
 * @param choices       how each of those fields was settled; a field in {@code resolved} without one counts as
 *                      {@link Choice#typed()} (its text as written)
 */
public record MergeDraft(long theirsVersion, CustomerData theirs, Map<CustomerField, String> resolved,
        Map<CustomerField, Choice> choices) {

    /** How the operator settled one field of the merge. */
    public enum How {
        /** Use mine. */
        MINE,
        /** Use theirs. */
        THEIRS,
        /** A choice in every conflicting part of a multi-line field, in text order ({@link Choice#parts()}). */
        PARTS,
        /** Written into the Result by the operator ({@link MergeDraft#resolved()} holds the text). */
        TYPED
    }

    /**
     * One field's choice.
     *
     * @param how   mine, theirs, part by part or typed
     * @param parts for {@link How#PARTS}, the choice of each conflicting part in text order; else empty
     */
    public record Choice(How how, List<HunkChoice> parts) {

        public Choice {
            Objects.requireNonNull(how, "how");
            parts = List.copyOf(parts);
            if ((how == How.PARTS) == parts.isEmpty()) {
                throw new IllegalArgumentException(how == How.PARTS ? "a choice part by part names its parts"
                        : "only a choice part by part has parts");
            }
        }

        /** Use mine. */
        public static Choice mine() {
            return new Choice(How.MINE, List.of());
        }

        /** Use theirs. */
        public static Choice theirs() {
            return new Choice(How.THEIRS, List.of());
        }

        /** What the operator wrote into the Result. */
        public static Choice typed() {
            return new Choice(How.TYPED, List.of());
        }

        /** A choice in every conflicting part, in text order. */
        public static Choice parts(List<HunkChoice> each) {
            return new Choice(How.PARTS, each);
        }
    }

    public MergeDraft {
        Objects.requireNonNull(theirs, "theirs");
        if (theirsVersion < 1) {
            throw new IllegalArgumentException("theirsVersion " + theirsVersion + " is not a stored version");
        }
        resolved = resolved.isEmpty() ? Map.of() : Map.copyOf(new EnumMap<>(resolved));
        Map<CustomerField, Choice> how = new EnumMap<>(CustomerField.class);
        for (CustomerField field : resolved.keySet()) {
            how.put(field, choices.getOrDefault(field, Choice.typed()));
        }
        if (!resolved.keySet().containsAll(choices.keySet())) {
            throw new IllegalArgumentException("a choice without its Result's text: " + choices.keySet());
        }
        choices = how.isEmpty() ? Map.of() : Map.copyOf(how);
    }

    /** A merge whose settled fields all hold what the operator wrote. */
    public MergeDraft(long theirsVersion, CustomerData theirs, Map<CustomerField, String> resolved) {
        this(theirsVersion, theirs, resolved, Map.of());
    }
}
