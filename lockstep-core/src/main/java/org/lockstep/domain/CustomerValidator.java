package org.lockstep.domain;

import static org.lockstep.text.Texts.tr;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The rules a customer must satisfy before it is written. The database enforces the lengths and the credit limit's
 * range with CHECK constraints and column types; validating first gives the operator a message that names the field
 * instead of a constraint name. Text is judged in NFC and its length counted in code points ({@link UnicodeText}),
 * as PostgreSQL's {@code char_length} counts it; the limits are {@link CustomerField#maxLength()}.
 */
public final class CustomerValidator {

    /**
     * Credit limits fit {@code numeric(12,2)} ({@code V1__customer.sql}): at most 10 digits before the point. A test
     * reads the column's precision and scale from the database, so the two cannot drift apart.
     */
    public static final BigDecimal MAX_CREDIT_LIMIT = new BigDecimal("9999999999.99");

    /**
     * Ends a rule's message when the value breaking it was stored before and is left unchanged (English; the warning
     * itself is one translated sentence, {@code "{0} — stored so before; …"}).
     */
    public static final String UNCHANGED = " — stored so before; a save keeps it unless you change it";

    // Deliberately simple: one @, something before it, a dot in the domain, no spaces. RFC 5322 allows more, but
    // operators mistype far more often than they enter quoted local parts.
    private static final Pattern EMAIL = Pattern.compile("[^@\\s]+@[^@\\s]+\\.[^@\\s.]+");

    private CustomerValidator() {
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
                case '\u202A' -> tr("a left-to-right embedding (U+202A)");
                case '\u202B' -> tr("a right-to-left embedding (U+202B)");
                case '\u202C' -> tr("a pop directional formatting (U+202C)");
                case '\u202D' -> tr("a left-to-right override (U+202D)");
                case '\u202E' -> tr("a right-to-left override (U+202E)");
                case '\u2066' -> tr("a left-to-right isolate (U+2066)");
                case '\u2067' -> tr("a right-to-left isolate (U+2067)");
                case '\u2068' -> tr("a first strong isolate (U+2068)");
                case '\u2069' -> tr("a pop directional isolate (U+2069)");
                default -> null;
            };
            if (name != null) {
                return Optional.of(name);
            }
        }
        return Optional.empty();
    }

    /**
     * What checking an edit of a stored record found.
     *
     * @param errors   violations that keep the edit from being saved, record-wide ones first, then in field order
     * @param warnings rules broken by values already stored in fields the edit leaves unchanged (written by an older
     *                 Lockstep or another tool): the save keeps them as they are; each message names its field
     */
    public record Findings(List<FieldError> errors, List<FieldError> warnings) {

        /** Copies both lists. */
        public Findings {
            errors = List.copyOf(errors);
            warnings = List.copyOf(warnings);
        }

        /** Whether nothing blocks the save (warnings do not). */
        public boolean ok() {
            return errors.isEmpty();
        }
    }

    /**
     * Checks every rule and returns all violations, in field order; empty when the record may be saved. Use it for
     * a new record; an edit of a stored one goes through {@link #validateChanges}.
     *
     * @param data the values to check, normalized or not
     */
    public static List<FieldError> validate(CustomerData data) {
        CustomerData d = data.normalized();
        List<FieldError> errors = new ArrayList<>(recordErrors(d));
        for (CustomerField f : CustomerField.values()) {
            errors.addAll(fieldErrors(f, d.get(f)));
        }
        return List.copyOf(errors);
    }

    /**
     * Checks an edit of a stored record, judging only what the edit changes: a field whose value is the
     * {@link CustomerData#sameValue same} as in {@code base} is not the operator's doing, so a rule its stored value
     * breaks (a control character written by psql, a rule made stricter since) is a warning, and the save keeps the
     * value; a changed field, and the record-wide rule, must satisfy every rule. The database's own CHECK
     * constraints still refuse what they always refused.
     *
     * @param base the stored record the edit is based on; {@link CustomerData#EMPTY} for a new record, which makes
     *             this the same as {@link #validate}
     * @param mine the edited values, normalized or not
     */
    public static Findings validateChanges(CustomerData base, CustomerData mine) {
        CustomerData b = base.normalized();
        CustomerData d = mine.normalized();
        List<FieldError> errors = new ArrayList<>(recordErrors(d));
        List<FieldError> warnings = new ArrayList<>();
        for (CustomerField f : CustomerField.values()) {
            List<FieldError> broken = fieldErrors(f, d.get(f));
            if (broken.isEmpty()) {
                continue;
            }
            if (CustomerData.sameValue(b.get(f), d.get(f))) {
                broken.forEach(e -> warnings.add(new FieldError(f,
                        tr("{0} — stored so before; a save keeps it unless you change it", e.message()))));
            } else {
                errors.addAll(broken);
            }
        }
        return new Findings(errors, warnings);
    }

    private static List<FieldError> recordErrors(CustomerData d) {
        if (d.company() == null && d.contactName() == null) {
            return List.of(new FieldError(CustomerField.COMPANY, tr("Company or contact name is required")));
        }
        return List.of();
    }

    /** The rules of one field's normalized value; lengths in code points, like PostgreSQL's {@code char_length}. */
    private static List<FieldError> fieldErrors(CustomerField f, Object value) {
        List<FieldError> errors = new ArrayList<>();
        if (value instanceof String s) {
            int length = UnicodeText.length(s);
            if (length > f.maxLength()) {
                errors.add(new FieldError(f, tr("{0} is too long: {1} characters, at most {2}", f.label(), length,
                        f.maxLength())));
            }
            if (LineRule.breaks(s, f.multiLine())) {
                errors.add(new FieldError(f, f.multiLine()
                        ? tr("{0} must not contain control characters (tabs and line breaks are fine)", f.label())
                        : tr("{0} must be one line of text, without line breaks or control characters", f.label())));
            }
            bidiControl(s).ifPresent(control -> errors.add(new FieldError(f,
                    tr("{0} contains {1}, which can disguise text", f.label(), control))));
            if (f == CustomerField.EMAIL && !EMAIL.matcher(s).matches()) {
                errors.add(new FieldError(f, tr("Email must look like name@example.com")));
            }
        } else if (value instanceof BigDecimal credit) {
            if (credit.signum() < 0) {
                errors.add(new FieldError(f, tr("Credit limit must not be negative")));
            } else if (credit.compareTo(MAX_CREDIT_LIMIT) > 0) {
                errors.add(new FieldError(f, tr("Credit limit must be at most 9,999,999,999.99")));
            } else if (credit.stripTrailingZeros().scale() > 2) {
                errors.add(new FieldError(f, tr("Credit limit has at most two decimals")));
            }
        }
        return errors;
    }
}
