package org.lockstep.domain.merge;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.UnicodeText;
import org.lockstep.domain.merge.FieldMerge.Resolution;

/**
 * Merges a record field by field over three versions: base (what my editor loaded), mine (my edits) and theirs (the
 * record now). Per field: unchanged by both → base; changed only by me → mine; only by them → theirs; by both to
 * the same value → that value; by both, differently → a conflict — except multi-line text (address, notes), which
 * merges line by line ({@link TextMerge}) and conflicts only where both changed the same lines.
 *
 * <p>Values compare as an operator sees them ({@link CustomerData#sameValue}): amounts by value, so 1000 equals
 * 1000.00; text in NFC, so "José" with a combining accent equals "José" precomposed. The laws, checked by property tests: merge(b, m, b) = m; merge(b, b, t) = t; merge(b, x, x) = x; a change
 * by one side to a field the other left alone always survives; swapping mine and theirs gives the same conflicts.
 */
public final class ThreeWayMerge {

    private ThreeWayMerge() {
    }

    /**
     * Merges the three versions of a record.
     *
     * @return one {@link FieldMerge} per field
     */
    public static MergeResult merge(CustomerData base, CustomerData mine, CustomerData theirs) {
        List<FieldMerge> fields = new ArrayList<>();
        for (CustomerField f : CustomerField.values()) {
            fields.add(mergeField(f, base.get(f), mine.get(f), theirs.get(f)));
        }
        return new MergeResult(fields);
    }

    /**
     * Merges one field's three values. Text is compared and merged in NFC ({@link UnicodeText#nfc}), so a value one
     * side typed with combining accents and the other precomposed is one value, not a change or a conflict; the
     * {@link FieldMerge} carries the NFC forms.
     */
    public static FieldMerge mergeField(CustomerField field, Object base, Object mine, Object theirs) {
        base = nfc(base);
        mine = nfc(mine);
        theirs = nfc(theirs);
        boolean iChanged = !CustomerData.sameValue(base, mine);
        boolean theyChanged = !CustomerData.sameValue(base, theirs);
        if (!iChanged && !theyChanged) {
            return new FieldMerge(field, base, mine, theirs, Resolution.UNCHANGED, base, Optional.empty());
        }
        if (!theyChanged) {
            return new FieldMerge(field, base, mine, theirs, Resolution.MINE, mine, Optional.empty());
        }
        if (!iChanged) {
            return new FieldMerge(field, base, mine, theirs, Resolution.THEIRS, theirs, Optional.empty());
        }
        if (CustomerData.sameValue(mine, theirs)) {
            return new FieldMerge(field, base, mine, theirs, Resolution.BOTH_SAME, mine, Optional.empty());
        }
        if (field.multiLine()) {
            TextMergeResult text = TextMerge.merge((String) base, (String) mine, (String) theirs);
            if (text.isClean()) {
                return new FieldMerge(field, base, mine, theirs, Resolution.LINES_COMBINED, text.text(),
                        Optional.of(text));
            }
            List<TextMergeResult.HunkChoice> mineEverywhere = text.conflicts().stream()
                    .map(c -> TextMergeResult.HunkChoice.MINE).toList();
            return new FieldMerge(field, base, mine, theirs, Resolution.CONFLICT, text.resolve(mineEverywhere),
                    Optional.of(text));
        }
        return new FieldMerge(field, base, mine, theirs, Resolution.CONFLICT, mine, Optional.empty());
    }

    private static Object nfc(Object value) {
        return value instanceof String s ? UnicodeText.nfc(s) : value;
    }
}
