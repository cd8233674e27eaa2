package org.lockstep.ui.merge;

import java.util.ArrayList;
import java.util.List;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.FieldParser;
import org.lockstep.ui.EditorLocale;

/**
 * One field that differs between two versions of a record, as text: what the delete-conflict dialog lists.
 *
 * @param field  the field
 * @param before its value in the older version, as the editor shows it; empty when absent
 * @param after  its value in the newer version
 */
public record FieldChange(CustomerField field, String before, String after) {

    /** The fields whose values differ (amounts by value), in field order. */
    public static List<FieldChange> between(CustomerData older, CustomerData newer) {
        List<FieldChange> out = new ArrayList<>();
        FieldParser shown = EditorLocale.fields();
        for (CustomerField f : CustomerField.values()) {
            if (!CustomerData.sameValue(older.get(f), newer.get(f))) {
                out.add(new FieldChange(f, shown.format(older.get(f)), shown.format(newer.get(f))));
            }
        }
        return List.copyOf(out);
    }
}
