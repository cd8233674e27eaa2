package org.lockstep.domain.merge;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.lockstep.domain.merge.TextMergeResult.HunkChoice;

/** Line-by-line merges, written with {@code |} for a line break. */
class TextMergeTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = ';', textBlock = """
            # case;                                   base;      mine;        theirs;      merged
            edits to different lines combine;         a|b|c;     A|b|c;       a|b|C;       A|b|C
            edits to neighbouring lines combine;      a|b|c;     A|b|c;       a|B|c;       A|B|c
            my insertion and their edit combine;      a|b;       a|x|b;       a|B;         a|x|B
            additions at both ends combine;           m;         top|m;       m|bottom;    top|m|bottom
            the same edit on both sides is taken once; a|b|c;    a|B|c;       a|B|c;       a|B|c
            my deletion and their far edit combine;   a|b|c|d;   b|c|d;       a|b|c|D;     b|c|D
            only my change;                           a|b;       a|b|c;       a|b;         a|b|c
            from nothing on one side;                 '';        new;         '';          new
            """)
    void cleanMerges(String name, String base, String mine, String theirs, String merged) {
        TextMergeResult result = TextMerge.merge(text(base), text(mine), text(theirs));

        assertThat(result.isClean()).as(name).isTrue();
        assertThat(result.text()).isEqualTo(text(merged));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = ';', textBlock = """
            # case;                           base;    mine;     theirs;   hunk base; hunk mine; hunk theirs; mine wins; theirs wins; both
            same line edited differently;     a|b|c;   a|B1|c;   a|B2|c;   b;         B1;        B2;          a|B1|c;    a|B2|c;      a|B1|B2|c
            both insert at the same place;    a|c;     a|b1|c;   a|b2|c;   '';        b1;        b2;          a|b1|c;    a|b2|c;      a|b1|b2|c
            my edit inside their deletion;    a|b|c|d; a|B|c|d;  a|d;      b|c;       B|c;       '';          a|B|c|d;   a|d;         a|B|c|d
            """)
    void conflictingHunks(String name, String base, String mine, String theirs, String hunkBase, String hunkMine,
            String hunkTheirs, String mineWins, String theirsWins, String both) {
        TextMergeResult result = TextMerge.merge(text(base), text(mine), text(theirs));

        assertThat(result.conflicts()).as(name).containsExactly(
                new TextMergeResult.Conflict(lines(hunkBase), lines(hunkMine), lines(hunkTheirs)));
        assertThat(result.resolve(List.of(HunkChoice.MINE))).isEqualTo(text(mineWins));
        assertThat(result.resolve(List.of(HunkChoice.THEIRS))).isEqualTo(text(theirsWins));
        assertThat(result.resolve(List.of(HunkChoice.BOTH))).isEqualTo(text(both));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = ';', textBlock = """
            # case;                            base;          mine;          theirs;        conflicts
            two separate conflicts;            a|b|c|d|e;     A1|b|c|d|E1;   A2|b|c|d|E2;   2
            a conflict beside a clean edit;    a|b|c|d|e;     A1|b|c|d|e;    A2|b|c|d|E;    1
            """)
    void conflictsAreCountedPerHunk(String name, String base, String mine, String theirs, int conflicts) {
        assertThat(TextMerge.merge(text(base), text(mine), text(theirs)).conflicts()).as(name).hasSize(conflicts);
    }

    private static String text(String piped) {
        return piped == null || piped.isEmpty() ? null : piped.replace('|', '\n');
    }

    private static List<String> lines(String piped) {
        return piped == null || piped.isEmpty() ? List.of() : List.of(piped.split("\\|", -1));
    }
}
