package org.lockstep.domain;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The rules a customer must satisfy before it is written, whoever writes it: the editor, the merge dialog, the
 * command line and the CSV import all call {@link #validate}. The database enforces the lengths and the credit limit
 * with CHECK constraints; validating first gives the operator a message that names the field instead of a
 * constraint name.
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
     * The first bidirectional override, embedding or isolate in text (U+202A–U+202E, U+2066–U+2069), if any. They
     * reorder how the characters around them are shown, so that a value can read differently from what it holds
     * (the "Trojan Source" trick, CVE-2021-42574; Unicode Standard Annex #9, sections 2.1–2.4). Names and addresses
     * in right-to-left scripts need none of them: the bidirectional algorithm lays such text out by itself.
     */
    private static Optional<String> bidiControl(String s) {
        for (int i = 0; i < s.length(); i++) {
            String name = switch (s.charAt(i)) {
                case '\u202A' -> "a left-to-right embedding (U+202A)";
                case '\u202B' -> "a right-to-left embedding (U+202B)";
                case '\u202C' -> "a pop directional formatting (U+202C)";
                case '\u202D' -> "a left-to-right override (U+202D)";
                case '\u202E' -> "a right-to-left override (U+202E)";
                case '\u2066' -> "a left-to-right isolate (U+2066)";
                case '\u2067' -> "a right-to-left isolate (U+2067)";
                case '\u2068' -> "a first strong isolate (U+2068)";
                case '\u2069' -> "a pop directional isolate (U+2069)";
                default -> null;
            };
            if (name != null) {
                return Optional.of(name);
            }
        }
        return Optional.empty();
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
                bidiControl(s).ifPresent(control -> errors.add(new FieldError(f, f.label() + " contains " + control
                        + ", which can disguise text")));
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
