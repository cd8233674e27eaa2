package org.lockstep.domain.merge;

import java.util.ArrayList;
import java.util.List;

/**
 * The outcome of a {@link TextMerge}: the text as a sequence of stable runs of lines and conflict hunks.
 *
 * @param segments in text order
 */
public record TextMergeResult(List<Segment> segments) {

    public TextMergeResult {
        segments = List.copyOf(segments);
    }

    /** A part of the merged text. */
    public sealed interface Segment {
    }

    /** Lines that need no decision: unchanged, or changed by one side only, or changed alike by both. */
    public record Stable(List<String> lines) implements Segment {
        public Stable {
            lines = List.copyOf(lines);
        }
    }

    /**
     * Lines both sides changed differently.
     *
     * @param base   the lines of the region before either change
     * @param mine   my lines for the region
     * @param theirs their lines for the region
     */
    public record Conflict(List<String> base, List<String> mine, List<String> theirs) implements Segment {
        public Conflict {
            base = List.copyOf(base);
            mine = List.copyOf(mine);
            theirs = List.copyOf(theirs);
        }
    }

    /** How to resolve one conflict hunk. */
    public enum HunkChoice {
        /** Keep my lines. */
        MINE,
        /** Keep their lines. */
        THEIRS,
        /** Keep my lines, then theirs. */
        BOTH
    }

    /** The conflict hunks, in text order. */
    public List<Conflict> conflicts() {
        return segments.stream().filter(Conflict.class::isInstance).map(Conflict.class::cast).toList();
    }

    /** Whether the merge needs no decision. */
    public boolean isClean() {
        return conflicts().isEmpty();
    }

    /**
     * The merged text with each conflict hunk resolved by the choice at its index.
     *
     * @param choices one per {@link #conflicts() conflict}, in order
     * @return the text, lines joined with {@code \n}; {@code null} when it has no lines
     * @throws IllegalArgumentException when the number of choices differs from the number of conflicts
     */
    public String resolve(List<HunkChoice> choices) {
        if (choices.size() != conflicts().size()) {
            throw new IllegalArgumentException(conflicts().size() + " conflicts need as many choices, got "
                    + choices.size());
        }
        List<String> lines = new ArrayList<>();
        int next = 0;
        for (Segment s : segments) {
            if (s instanceof Stable stable) {
                lines.addAll(stable.lines());
            } else if (s instanceof Conflict c) {
                HunkChoice choice = choices.get(next++);
                if (choice != HunkChoice.THEIRS) {
                    lines.addAll(c.mine());
                }
                if (choice != HunkChoice.MINE) {
                    lines.addAll(c.theirs());
                }
            }
        }
        return lines.isEmpty() ? null : String.join("\n", lines);
    }

    /** The merged text of a clean merge. */
    public String text() {
        return resolve(List.of());
    }
}
