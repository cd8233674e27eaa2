package org.lockstep.ui.merge;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.FieldParser;
import org.lockstep.drafts.MergeDraft;
import org.lockstep.ui.EditorLocale;

/**
 * The operator's choices in a merge dialog as a {@link MergeDraft} (issue 28), and back: what the editor journals
 * while the dialog is open, and what a restored draft chooses again in a merge opened anew. Confined to the FX thread,
 * like the rows.
 */
final class MergeChoices {

    private MergeChoices() {
    }

    /**
     * The choices made so far in {@code rows}, merged against {@code theirs}: every conflict decided (mine, theirs,
     * part by part when every part is chosen, or written) and every other field whose Result the operator wrote.
     */
    static MergeDraft of(Customer theirs, List<MergeRowViewModel> rows) {
        Map<CustomerField, String> resolved = new EnumMap<>(CustomerField.class);
        Map<CustomerField, MergeDraft.Choice> choices = new EnumMap<>(CustomerField.class);
        for (MergeRowViewModel row : rows) {
            MergeDraft.Choice choice = choiceIn(row);
            if (choice != null) {
                resolved.put(row.field(), row.getResult());
                choices.put(row.field(), choice);
            }
        }
        return new MergeDraft(theirs.version(), theirs.data(), resolved, choices);
    }

    private static MergeDraft.Choice choiceIn(MergeRowViewModel row) {
        if (!row.isConflict()) {
            return row.editedProperty().get() ? MergeDraft.Choice.typed() : null;
        }
        return switch (row.decisionProperty().get()) {
            case NONE -> null;
            case MINE -> MergeDraft.Choice.mine();
            case THEIRS -> MergeDraft.Choice.theirs();
            case HUNKS -> MergeDraft.Choice.parts(row.hunks().stream().map(HunkViewModel::getChoice).toList());
            case EDITED -> MergeDraft.Choice.typed();
        };
    }

    /**
     * Chooses again in {@code rows}, merged against {@code theirs}, what {@code kept} chose. Mine and what the operator
     * wrote apply wherever the field still conflicts (mine did not change since); theirs and a choice part by part
     * only where theirs' value is still the one the operator chose from: a value someone saved since was never seen,
     * so its field is left to decide. A written Result applies to a field that no longer conflicts too.
     */
    static void restore(MergeDraft kept, Customer theirs, List<MergeRowViewModel> rows) {
        FieldParser shown = EditorLocale.fields();
        for (MergeRowViewModel row : rows) {
            CustomerField field = row.field();
            MergeDraft.Choice choice = kept.choices().get(field);
            if (choice == null) {
                continue;
            }
            boolean theirsAsSeen =
                    shown.format(kept.theirs().get(field)).equals(shown.format(theirs.data().get(field)));
            switch (choice.how()) {
                case MINE -> {
                    if (row.isConflict()) {
                        row.useMine();
                    }
                }
                case THEIRS -> {
                    if (row.isConflict() && theirsAsSeen) {
                        row.useTheirs();
                    }
                }
                case PARTS -> {
                    if (row.isConflict() && theirsAsSeen && row.hunks().size() == choice.parts().size()) {
                        for (int i = 0; i < choice.parts().size(); i++) {
                            row.hunks().get(i).choose(choice.parts().get(i));
                        }
                    }
                }
                case TYPED -> {
                    String text = kept.resolved().get(field);
                    if (!text.equals(row.getResult())) {
                        row.resultProperty().set(text);
                    }
                }
            }
        }
    }
}
