package org.lockstep.domain.merge;

import com.github.difflib.DiffUtils;
import com.github.difflib.patch.AbstractDelta;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A line-by-line three-way merge of text, like {@code git merge-file --diff3}: the changes each side made to the base
 * (found with java-diff-utils' Myers diff) are combined where they touch different lines; where both sides changed
 * the same lines differently, the result holds a {@link TextMergeResult.Conflict conflict hunk} with the base, mine
 * and theirs lines of that region.
 *
 * <p>Two changes overlap when their base line ranges intersect, when both insert at the same place, or when one
 * inserts strictly inside the lines the other replaces. Overlapping changes are grouped transitively; a group whose
 * two sides end up with the same lines is taken as is (both made the same edit). The grouping does not depend on
 * which side is called mine, so swapping mine and theirs swaps the sides of each conflict and nothing else.
 */
public final class TextMerge {

    private TextMerge() {
    }

    /**
     * Merges line by line.
     *
     * @param base   the text both sides started from; {@code null} counts as empty
     * @param mine   my text
     * @param theirs their text
     * @return the merged segments, in order
     */
    public static TextMergeResult merge(String base, String mine, String theirs) {
        List<String> b = lines(base);
        List<String> m = lines(mine);
        List<String> t = lines(theirs);
        List<Change> changes = new ArrayList<>();
        changes.addAll(changes(b, m, Side.MINE));
        changes.addAll(changes(b, t, Side.THEIRS));
        changes.sort(Comparator.comparingInt(Change::start).thenComparingInt(Change::end));

        List<TextMergeResult.Segment> segments = new ArrayList<>();
        int at = 0; // next base line not yet emitted
        int i = 0;
        while (i < changes.size()) {
            List<Change> group = new ArrayList<>(List.of(changes.get(i)));
            int groupStart = changes.get(i).start();
            int groupEnd = changes.get(i).end();
            int j = i + 1;
            while (j < changes.size() && overlaps(group, changes.get(j))) {
                group.add(changes.get(j));
                groupEnd = Math.max(groupEnd, changes.get(j).end());
                j++;
            }
            if (groupStart > at) {
                segments.add(new TextMergeResult.Stable(b.subList(at, groupStart)));
            }
            List<String> baseLines = b.subList(groupStart, groupEnd);
            boolean mineChanged = group.stream().anyMatch(c -> c.side() == Side.MINE);
            boolean theirsChanged = group.stream().anyMatch(c -> c.side() == Side.THEIRS);
            List<String> mineLines = apply(b, groupStart, groupEnd, group, Side.MINE);
            List<String> theirLines = apply(b, groupStart, groupEnd, group, Side.THEIRS);
            if (!theirsChanged || mineLines.equals(theirLines)) {
                segments.add(new TextMergeResult.Stable(mineLines));
            } else if (!mineChanged) {
                segments.add(new TextMergeResult.Stable(theirLines));
            } else {
                segments.add(new TextMergeResult.Conflict(baseLines, mineLines, theirLines));
            }
            at = groupEnd;
            i = j;
        }
        if (at < b.size()) {
            segments.add(new TextMergeResult.Stable(b.subList(at, b.size())));
        }
        return new TextMergeResult(segments);
    }

    /** Splits text into lines at {@code \n}; {@code null} and the empty text have no lines. */
    static List<String> lines(String text) {
        if (text == null || text.isEmpty()) {
            return List.of();
        }
        return List.of(text.split("\n", -1));
    }

    private enum Side { MINE, THEIRS }

    /** One side's change: base lines [start, end) become {@code lines}. */
    private record Change(Side side, int start, int end, List<String> lines) {
        boolean isInsertion() {
            return start == end;
        }
    }

    private static List<Change> changes(List<String> base, List<String> revised, Side side) {
        List<Change> out = new ArrayList<>();
        for (AbstractDelta<String> d : DiffUtils.diff(base, revised).getDeltas()) {
            int start = d.getSource().getPosition();
            out.add(new Change(side, start, start + d.getSource().size(), List.copyOf(d.getTarget().getLines())));
        }
        return out;
    }

    private static boolean overlaps(List<Change> group, Change next) {
        for (Change c : group) {
            if (overlaps(c, next)) {
                return true;
            }
        }
        return false;
    }

    private static boolean overlaps(Change a, Change b) {
        if (a.isInsertion() && b.isInsertion()) {
            return a.start() == b.start();
        }
        if (a.isInsertion()) {
            return b.start() < a.start() && a.start() < b.end();
        }
        if (b.isInsertion()) {
            return a.start() < b.start() && b.start() < a.end();
        }
        return a.start() < b.end() && b.start() < a.end();
    }

    /** The lines of base [from, to) after one side's changes in the group. */
    private static List<String> apply(List<String> base, int from, int to, List<Change> group, Side side) {
        List<String> out = new ArrayList<>();
        int at = from;
        for (Change c : group) {
            if (c.side() != side) {
                continue;
            }
            out.addAll(base.subList(at, c.start()));
            out.addAll(c.lines());
            at = c.end();
        }
        out.addAll(base.subList(at, to));
        return out;
    }
}
