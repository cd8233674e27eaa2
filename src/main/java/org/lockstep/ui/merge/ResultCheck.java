package org.lockstep.ui.merge;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.CustomerValidator;
import org.lockstep.domain.FieldError;
import org.lockstep.domain.FieldParser;

/**
 * Checks the merge's Result like the editor checks its fields: each text parsed by {@link FieldParser} (the credit
 * limit must be a number), then the record's rules ({@link CustomerValidator}). Pure Java.
 *
 * @param byField the reasons per field, joined with "; "; a field without problems is absent
 * @param all     every reason, record-wide ones first, then in field order
 */
record ResultCheck(Map<CustomerField, String> byField, List<String> all) {

    ResultCheck {
        byField = Map.copyOf(byField);
        all = List.copyOf(all);
    }

    /** Whether the Result may be saved. */
    boolean ok() {
        return all.isEmpty();
    }

    /** Parses and checks the Result's texts by field. */
    static ResultCheck of(Map<CustomerField, String> texts) {
        List<FieldError> errors = new ArrayList<>();
        Map<CustomerField, Object> values = new EnumMap<>(CustomerField.class);
        texts.forEach((field, text) -> {
            try {
                values.put(field, FieldParser.parse(field, text));
            } catch (FieldParser.InvalidValueException e) {
                errors.add(e.error());
            }
        });
        errors.addAll(CustomerValidator.validate(CustomerData.fromMap(values)));
        return of(errors);
    }

    /** Groups reasons, e.g. those the database gave back in an {@code InvalidCustomerException}. */
    static ResultCheck of(List<FieldError> errors) {
        Map<CustomerField, Set<String>> byField = new EnumMap<>(CustomerField.class);
        Set<String> general = new LinkedHashSet<>();
        for (FieldError e : errors) {
            if (e.field() == null) {
                general.add(e.message());
            } else {
                byField.computeIfAbsent(e.field(), f -> new LinkedHashSet<>()).add(e.message());
            }
        }
        Map<CustomerField, String> joined = new EnumMap<>(CustomerField.class);
        List<String> all = new ArrayList<>(general);
        byField.forEach((field, messages) -> {
            joined.put(field, String.join("; ", messages));
            all.addAll(messages);
        });
        return new ResultCheck(joined, all);
    }

    /**
     * The Result's values; call only when {@link #of(Map)} found them {@link #ok()}.
     *
     * @throws FieldParser.InvalidValueException when a text does not parse
     */
    static CustomerData values(Map<CustomerField, String> texts) {
        Map<CustomerField, Object> values = new EnumMap<>(CustomerField.class);
        texts.forEach((field, text) -> values.put(field, FieldParser.parse(field, text)));
        return CustomerData.fromMap(values);
    }
}
