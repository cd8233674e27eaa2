package org.lockstep.domain;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The rules a customer must satisfy before it is written. The database enforces the same rules with CHECK
 * constraints; validating first gives the operator a message that names the field instead of a constraint name.
 */
public final class CustomerValidator {

    /** Credit limits fit {@code numeric(12,2)}: at most 10 digits before the point. */
    public static final BigDecimal MAX_CREDIT_LIMIT = new BigDecimal("9999999999.99");

    // Deliberately simple: one @, something before it, a dot in the domain, no spaces. RFC 5322 allows more, but
    // operators mistype far more often than they enter quoted local parts.
    private static final Pattern EMAIL = Pattern.compile("[^@\\s]+@[^@\\s]+\\.[^@\\s.]+");

    private CustomerValidator() {
    }

    /**
     * Whether text holds control characters: escape sequences that would garble a terminal or a table cell. Multi-line
     * fields may hold line breaks and tabs.
     */
    private static boolean hasControlCharacters(String s, boolean multiLine) {
        return s.chars().anyMatch(c -> Character.getType(c) == Character.CONTROL
                && !(multiLine && (c == '\n' || c == '\t')));
    }

    /**
     * Checks every rule and returns all violations, in field order; empty when the record may be saved.
     *
     * @param data the values to check, normalized or not
     */
    public static List<FieldError> validate(CustomerData data) {
        CustomerData d = data.normalized();
        List<FieldError> errors = new ArrayList<>();
        if (d.company() == null && d.contactName() == null) {
            errors.add(new FieldError(CustomerField.COMPANY, "Company or contact name is required"));
        }
        for (CustomerField f : CustomerField.values()) {
            if (d.get(f) instanceof String s) {
                if (s.length() > f.maxLength()) {
                    errors.add(new FieldError(f, f.label() + " is too long: " + s.length() + " characters, at most "
                            + f.maxLength()));
                }
                if (hasControlCharacters(s, f.multiLine())) {
                    errors.add(new FieldError(f, f.multiLine()
                            ? f.label() + " must not contain control characters (tabs and line breaks are fine)"
                            : f.label() + " must be one line of text, without line breaks or control characters"));
                }
            }
        }
        if (d.email() != null && !EMAIL.matcher(d.email()).matches()) {
            errors.add(new FieldError(CustomerField.EMAIL, "Email must look like name@example.com"));
        }
        BigDecimal credit = d.creditLimit();
        if (credit != null) {
            if (credit.signum() < 0) {
                errors.add(new FieldError(CustomerField.CREDIT_LIMIT, "Credit limit must not be negative"));
            } else if (credit.compareTo(MAX_CREDIT_LIMIT) > 0) {
                errors.add(new FieldError(CustomerField.CREDIT_LIMIT, "Credit limit must be at most 9,999,999,999.99"));
            } else if (credit.stripTrailingZeros().scale() > 2) {
                errors.add(new FieldError(CustomerField.CREDIT_LIMIT, "Credit limit has at most two decimals"));
            }
        }
        return List.copyOf(errors);
    }
}
