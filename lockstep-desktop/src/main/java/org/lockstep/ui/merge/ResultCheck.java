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
 * Checks the merge's Result like the editor checks its fields: each text parsed by {@link FieldParser} in the
 * editor's locale (the credit limit must be a number), then the record's rules for what the Result changes in the
 * stored record ({@link CustomerValidator#validateChanges}). Pure Java.
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

    /**
     * Parses and checks the Result's texts by field.
     *
     * @param parser reads the texts, in the locale they are shown in
     * @param stored the record the Result is saved over (theirs); {@link CustomerData#EMPTY} when it is created anew
     */
    static ResultCheck of(Map<CustomerField, String> texts, FieldParser parser, CustomerData stored) {
        List<FieldError> errors = new ArrayList<>();
        Map<CustomerField, Object> values = new EnumMap<>(CustomerField.class);
        texts.forEach((field, text) -> {
            try {
                values.put(field, parser.parse(field, text));
            } catch (FieldParser.InvalidValueException e) {
                errors.add(e.error());
            }
        });
        errors.addAll(CustomerValidator.validateChanges(stored, CustomerData.fromMap(values)).errors());
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
     * The Result's values; call only when {@link #of(Map, FieldParser, CustomerData)} found them {@link #ok()}.
     *
     * @throws FieldParser.InvalidValueException when a text does not parse
     */
    static CustomerData values(Map<CustomerField, String> texts, FieldParser parser) {
        Map<CustomerField, Object> values = new EnumMap<>(CustomerField.class);
        texts.forEach((field, text) -> values.put(field, parser.parse(field, text)));
        return CustomerData.fromMap(values);
    }
}
