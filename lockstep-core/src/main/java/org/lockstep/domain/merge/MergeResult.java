package org.lockstep.domain.merge;

import java.util.List;
import java.util.Map;
import java.util.EnumMap;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerField;

/**
 * A record's three-way merge: one {@link FieldMerge} per field, in field order.
 *
 * @param fields every field of the record
 */
public record MergeResult(List<FieldMerge> fields) {

    public MergeResult {
        fields = List.copyOf(fields);
    }

    /** The fields that need a decision. */
    public List<FieldMerge> conflicts() {
        return fields.stream().filter(FieldMerge::isConflict).toList();
    }

    /** Whether nothing needs a decision. */
    public boolean isClean() {
        return conflicts().isEmpty();
    }

    /** The merge of one field. */
    public FieldMerge field(CustomerField field) {
        return fields.get(field.ordinal());
    }

    /**
     * The merged record: every field's {@link FieldMerge#result() result}. For a merge with conflicts these are the
     * proposals (mine); callers decide each conflict before saving.
     */
    public CustomerData merged() {
        Map<CustomerField, Object> values = new EnumMap<>(CustomerField.class);
        for (FieldMerge f : fields) {
            values.put(f.field(), f.result());
        }
        return CustomerData.fromMap(values);
    }
}
