package org.lockstep.ui.merge;

import static org.lockstep.text.Texts.tr;

import java.util.ArrayList;
import java.util.List;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.merge.FieldMerge;
import org.lockstep.domain.merge.FieldMerge.Resolution;
import org.lockstep.domain.merge.TextMergeResult;
import org.lockstep.domain.merge.TextMergeResult.HunkChoice;
import org.lockstep.ui.EditorLocale;

/**
 * One field of the merge dialog: its base, mine and theirs as text, who won, and the Result the operator may edit.
 * A conflict is resolved by Use mine, Use theirs, a choice for every hunk of a multi-line field, or by editing the
 * Result directly.
 *
 * <p>For multi-line text, Use mine and Use theirs choose a side in every hunk where both changed the same lines;
 * lines only one side changed stay merged, so neither side's separate edits are lost. Editing Result replaces all of
 * that with what the operator typed.
 */
public final class MergeRowViewModel {

    /** How the operator settled a conflict. */
    public enum Decision {
        /** Not yet. */
        NONE,
        /** Use mine. */
        MINE,
        /** Use theirs. */
        THEIRS,
        /** A choice in every hunk. */
        HUNKS,
        /** Typed into Result. */
        EDITED
    }

    private final FieldMerge merge;
    private final List<HunkViewModel> hunks;
    private final StringProperty result = new SimpleStringProperty(this, "result");
    private final ReadOnlyObjectWrapper<Decision> decision = new ReadOnlyObjectWrapper<>(this, "decision",
            Decision.NONE);
    private final ReadOnlyBooleanWrapper resolved = new ReadOnlyBooleanWrapper(this, "resolved");
    private final ReadOnlyBooleanWrapper edited = new ReadOnlyBooleanWrapper(this, "edited");
    private final ReadOnlyStringWrapper status = new ReadOnlyStringWrapper(this, "status");
    private final ReadOnlyStringWrapper error = new ReadOnlyStringWrapper(this, "error", "");
    private boolean applying;
    private Runnable onChange = () -> {};

    MergeRowViewModel(FieldMerge merge) {
        this.merge = merge;
        List<HunkViewModel> list = new ArrayList<>();
        if (merge.isConflict() && merge.text().isPresent()) {
            List<TextMergeResult.Conflict> conflicts = merge.text().get().conflicts();
            for (int i = 0; i < conflicts.size(); i++) {
                HunkViewModel hunk = new HunkViewModel(i, conflicts.size(), conflicts.get(i));
                hunk.choiceProperty().addListener((obs, was, now) -> hunkChosen());
                list.add(hunk);
            }
        }
        this.hunks = List.copyOf(list);
        // A conflict's Result starts empty: pre-filled with mine it read as decided while the status said "choose"
        // (issue 16). Save merged stays closed until the operator decides; other fields keep the merged value.
        result.set(merge.isConflict() ? "" : EditorLocale.fields().format(merge.result()));
        result.addListener((obs, was, now) -> {
            if (!applying) {
                edited.set(true);
                if (merge.isConflict()) {
                    decision.set(Decision.EDITED);
                }
            }
            update();
        });
        update();
    }

    /** Called by the owning {@link MergeViewModel} after every change of the Result or the decision. */
    void setOnChange(Runnable onChange) {
        this.onChange = onChange;
    }

    /** The field. */
    public CustomerField field() {
        return merge.field();
    }

    /** The field's label, e.g. "Postal code". */
    public String label() {
        return merge.field().label();
    }

    /** Who won without the operator: unchanged, mine, theirs, both the same, lines combined, or a conflict. */
    public Resolution resolution() {
        return merge.resolution();
    }

    /** Whether both sides changed it differently, so the operator must decide (even once decided). */
    public boolean isConflict() {
        return merge.isConflict();
    }

    /** Whether anyone changed it. */
    public boolean isChanged() {
        return merge.isChanged();
    }

    /** Whether the field holds multi-line text. */
    public boolean isMultiLine() {
        return merge.field().multiLine();
    }

    /** The base value as the editor shows it; empty when absent. */
    public String baseText() {
        return EditorLocale.fields().format(merge.base());
    }

    /** My value as the editor shows it. */
    public String mineText() {
        return EditorLocale.fields().format(merge.mine());
    }

    /** Their value as the editor shows it. */
    public String theirsText() {
        return EditorLocale.fields().format(merge.theirs());
    }

    /** The conflict hunks of a multi-line conflict, in text order; empty otherwise. */
    public List<HunkViewModel> hunks() {
        return hunks;
    }

    /**
     * The Result as text: what Save merged writes for this field. The view binds it bidirectionally. Empty for a
     * conflict until the operator decides.
     */
    public StringProperty resultProperty() {
        return result;
    }

    /** The Result as text. */
    public String getResult() {
        return result.get();
    }

    /** How a conflict was settled; {@link Decision#NONE} for a field that never conflicted. */
    public ReadOnlyObjectProperty<Decision> decisionProperty() {
        return decision.getReadOnlyProperty();
    }

    /** Whether nothing is left to decide: true for every field that did not conflict. */
    public ReadOnlyBooleanProperty resolvedProperty() {
        return resolved.getReadOnlyProperty();
    }

    /** Whether nothing is left to decide. */
    public boolean isResolved() {
        return resolved.get();
    }

    /** Whether the operator typed into Result. */
    public ReadOnlyBooleanProperty editedProperty() {
        return edited.getReadOnlyProperty();
    }

    /** Who won, in words: "mine", "theirs", "both the same", "lines combined", "Conflict: choose", "Resolved: theirs". */
    public ReadOnlyStringProperty statusProperty() {
        return status.getReadOnlyProperty();
    }

    /** Who won, in words. */
    public String getStatus() {
        return status.get();
    }

    /** Why the Result cannot be saved, e.g. "Email must look like name@example.com"; empty when it can. */
    public ReadOnlyStringProperty errorProperty() {
        return error.getReadOnlyProperty();
    }

    /** Why the Result cannot be saved; empty when it can. */
    public String getError() {
        return error.get();
    }

    void setError(String message) {
        error.set(message);
    }

    /** Resolves with my value (for multi-line text: my lines in every hunk). */
    public void useMine() {
        decide(Decision.MINE, HunkChoice.MINE, mineText(), false);
    }

    /** Resolves with their value (for multi-line text: their lines in every hunk). */
    public void useTheirs() {
        decide(Decision.THEIRS, HunkChoice.THEIRS, theirsText(), false);
    }

    /** "Use mine for all": mine where nothing is decided yet; a hunk already chosen keeps its choice. */
    void useMineIfUndecided() {
        if (isConflict() && !isResolved()) {
            decide(Decision.MINE, HunkChoice.MINE, mineText(), true);
        }
    }

    /** "Use theirs for all": theirs where nothing is decided yet. */
    void useTheirsIfUndecided() {
        if (isConflict() && !isResolved()) {
            decide(Decision.THEIRS, HunkChoice.THEIRS, theirsText(), true);
        }
    }

    private void decide(Decision how, HunkChoice side, String plainValue, boolean keepChosenHunks) {
        if (!isConflict()) {
            setResult(plainValue);
            return;
        }
        if (hunks.isEmpty()) {
            decision.set(how);
            setResult(plainValue);
            return;
        }
        applying = true;
        boolean mixed = false;
        try {
            for (HunkViewModel h : hunks) {
                if (keepChosenHunks && h.isDecided()) {
                    mixed |= h.getChoice() != side;
                } else {
                    h.choose(side);
                }
            }
        } finally {
            applying = false;
        }
        decision.set(mixed ? Decision.HUNKS : how);
        setResult(resolvedText());
    }

    private void hunkChosen() {
        if (applying) {
            return;
        }
        boolean all = hunks.stream().allMatch(HunkViewModel::isDecided);
        decision.set(all ? Decision.HUNKS : Decision.NONE);
        setResult(resolvedText());
    }

    /** The text with each hunk's choice; an undecided hunk shows my lines, the domain merge's proposal. */
    private String resolvedText() {
        TextMergeResult text = merge.text().orElseThrow();
        List<HunkChoice> choices = hunks.stream()
                .map(h -> h.isDecided() ? h.getChoice() : HunkChoice.MINE).toList();
        return EditorLocale.fields().format(text.resolve(choices));
    }

    private void setResult(String value) {
        applying = true;
        try {
            result.set(value);
        } finally {
            applying = false;
        }
        update();
    }

    private void update() {
        resolved.set(!isConflict() || decision.get() != Decision.NONE);
        status.set(describe());
        onChange.run();
    }

    private String describe() {
        boolean then = edited.get();
        String auto = switch (merge.resolution()) {
            case UNCHANGED -> then ? tr("unchanged, then edited by you") : tr("unchanged");
            case MINE -> then ? tr("mine, then edited by you") : tr("mine");
            case THEIRS -> then ? tr("theirs, then edited by you") : tr("theirs");
            case BOTH_SAME -> then ? tr("both the same, then edited by you") : tr("both the same");
            case LINES_COMBINED -> then ? tr("lines combined, then edited by you") : tr("lines combined");
            case CONFLICT -> null;
        };
        if (auto != null) {
            return auto;
        }
        return switch (decision.get()) {
            case NONE -> hunks.size() > 1 && hunks.stream().anyMatch(HunkViewModel::isDecided)
                    ? tr("Both changed: {0, number} of {1, plural, one {# part chosen} other {# parts chosen}}",
                            hunks.stream().filter(HunkViewModel::isDecided).count(), hunks.size())
                    : tr("Conflict: choose");
            case MINE -> hunks.isEmpty() ? tr("Resolved: mine") : tr("Resolved: my lines");
            case THEIRS -> hunks.isEmpty() ? tr("Resolved: theirs") : tr("Resolved: their lines");
            case HUNKS -> tr("Resolved: chosen part by part");
            case EDITED -> tr("Resolved: edited by you");
        };
    }
}
