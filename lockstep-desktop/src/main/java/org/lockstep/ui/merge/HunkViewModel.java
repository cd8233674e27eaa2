package org.lockstep.ui.merge;

import static org.lockstep.text.Texts.tr;

import java.util.List;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import org.lockstep.domain.merge.TextMergeResult;
import org.lockstep.domain.merge.TextMergeResult.HunkChoice;

/**
 * One conflict hunk of a multi-line field: the lines both sides changed differently, with the operator's choice of
 * mine, theirs or both (mine then theirs). Undecided until chosen.
 */
public final class HunkViewModel {

    private final int index;
    private final int count;
    private final TextMergeResult.Conflict hunk;
    private final ReadOnlyObjectWrapper<HunkChoice> choice = new ReadOnlyObjectWrapper<>(this, "choice");

    HunkViewModel(int index, int count, TextMergeResult.Conflict hunk) {
        this.index = index;
        this.count = count;
        this.hunk = hunk;
    }

    /** Its position among the field's hunks, from 0. */
    public int index() {
        return index;
    }

    /** "Lines both changed, 1 of 2". */
    public String title() {
        return tr("Lines both changed, {0, number} of {1, number}", index + 1, count);
    }

    /** The hunk's lines before either change, joined with line breaks; empty when it had none. */
    public String baseLines() {
        return join(hunk.base());
    }

    /** My lines for the hunk. */
    public String mineLines() {
        return join(hunk.mine());
    }

    /** Their lines for the hunk. */
    public String theirsLines() {
        return join(hunk.theirs());
    }

    /** The operator's choice; {@code null} while undecided. */
    public ReadOnlyObjectProperty<HunkChoice> choiceProperty() {
        return choice.getReadOnlyProperty();
    }

    /** The operator's choice; {@code null} while undecided. */
    public HunkChoice getChoice() {
        return choice.get();
    }

    /** Whether the operator has chosen. */
    public boolean isDecided() {
        return choice.get() != null;
    }

    /** Chooses mine, theirs or both for this hunk; the field's Result is rebuilt from the choices. */
    public void choose(HunkChoice value) {
        choice.set(value);
    }

    private static String join(List<String> lines) {
        return String.join("\n", lines);
    }
}
