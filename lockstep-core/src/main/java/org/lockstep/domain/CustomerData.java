package org.lockstep.domain;

import static org.lockstep.text.Texts.tr;

import java.math.BigDecimal;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;

/**
 * The editable values of a customer, without identity or version: what an editor edits, what a save writes and
 * what a merge combines. Text values are {@code null} when absent, never blank; {@link #normalized()} makes them so.
 *
 * @param creditLimit a non-negative amount with at most two decimals, or {@code null}
 */
public record CustomerData(
        String externalRef,
        String company,
        String contactName,
        String contactTitle,
        String email,
        String phone,
        String fax,
        String address,
        String city,
        String region,
        String postalCode,
        String country,
        String notes,
        BigDecimal creditLimit) {

    /** A record with every value absent. */
    public static final CustomerData EMPTY = new CustomerData(
            null, null, null, null, null, null, null, null, null, null, null, null, null, null);

    /** The value of one field: a {@link String}, or a {@link BigDecimal} for {@link CustomerField#CREDIT_LIMIT}. */
    public Object get(CustomerField field) {
        return switch (field) {
            case EXTERNAL_REF -> externalRef;
            case COMPANY -> company;
            case CONTACT_NAME -> contactName;
            case CONTACT_TITLE -> contactTitle;
            case EMAIL -> email;
            case PHONE -> phone;
            case FAX -> fax;
            case ADDRESS -> address;
            case CITY -> city;
            case REGION -> region;
            case POSTAL_CODE -> postalCode;
            case COUNTRY -> country;
            case NOTES -> notes;
            case CREDIT_LIMIT -> creditLimit;
        };
    }

    /**
     * A copy with one field replaced.
     *
     * @param value a {@link String} for text fields, a {@link BigDecimal} (or {@code null}) for the credit limit
     * @throws IllegalArgumentException when the value's type does not fit the field
     */
    public CustomerData with(CustomerField field, Object value) {
        Map<CustomerField, Object> values = toMap();
        if (value != null && field.numeric() != (value instanceof BigDecimal)) {
            throw new IllegalArgumentException(field.column() + " does not take a " + value.getClass().getSimpleName());
        }
        values.put(field, value);
        return fromMap(values);
    }

    /** The values by field; absent values map to {@code null}. The map is a fresh, mutable copy. */
    public Map<CustomerField, Object> toMap() {
        Map<CustomerField, Object> values = new EnumMap<>(CustomerField.class);
        for (CustomerField f : CustomerField.values()) {
            values.put(f, get(f));
        }
        return values;
    }

    /** Builds a record from values by field; missing keys are absent values. */
    public static CustomerData fromMap(Map<CustomerField, ?> values) {
        return new CustomerData(
                (String) values.get(CustomerField.EXTERNAL_REF),
                (String) values.get(CustomerField.COMPANY),
                (String) values.get(CustomerField.CONTACT_NAME),
                (String) values.get(CustomerField.CONTACT_TITLE),
                (String) values.get(CustomerField.EMAIL),
                (String) values.get(CustomerField.PHONE),
                (String) values.get(CustomerField.FAX),
                (String) values.get(CustomerField.ADDRESS),
                (String) values.get(CustomerField.CITY),
                (String) values.get(CustomerField.REGION),
                (String) values.get(CustomerField.POSTAL_CODE),
                (String) values.get(CustomerField.COUNTRY),
                (String) values.get(CustomerField.NOTES),
                (BigDecimal) values.get(CustomerField.CREDIT_LIMIT));
    }

    /**
     * The same values with text in Unicode NFC ({@link UnicodeText#nfc}), blank text made absent, single-line text
     * stripped of surrounding blanks, line breaks in multi-line text made {@code \n}, and the credit limit at scale 2.
     * Saves write normalized values, so that two records that look the same to an operator also compare equal.
     */
    public CustomerData normalized() {
        Map<CustomerField, Object> values = toMap();
        for (CustomerField f : CustomerField.values()) {
            Object v = values.get(f);
            if (v instanceof String s) {
                String n = UnicodeText.nfc(s);
                String t = f.multiLine() ? n.replace("\r\n", "\n").replace('\r', '\n').stripTrailing() : n.strip();
                values.put(f, t.isBlank() ? null : t);
            } else if (v instanceof BigDecimal d) {
                values.put(f,
                        d.setScale(Math.max(2, d.stripTrailingZeros().scale()), java.math.RoundingMode.UNNECESSARY));
            }
        }
        return fromMap(values);
    }

    /**
     * Whether two values of a field are the same to an operator: text by equality once both are in NFC (so "José"
     * typed on macOS, with a combining accent, equals "José" typed elsewhere), numbers by value (1000 equals
     * 1000.00), absent equal to absent.
     */
    public static boolean sameValue(Object a, Object b) {
        if (a instanceof BigDecimal x && b instanceof BigDecimal y) {
            return x.compareTo(y) == 0;
        }
        if (a instanceof String x && b instanceof String y) {
            return UnicodeText.sameText(x, y);
        }
        return Objects.equals(a, b);
    }

    /** Whether every field holds the {@link #sameValue same value} in both records. */
    public boolean sameValues(CustomerData other) {
        for (CustomerField f : CustomerField.values()) {
            if (!sameValue(get(f), other.get(f))) {
                return false;
            }
        }
        return true;
    }

    /** A short name for lists and titles: the company, else the contact name, else "(unnamed)". */
    public String displayName() {
        if (company != null && !company.isBlank()) {
            return company;
        }
        return contactName != null && !contactName.isBlank() ? contactName : tr("(unnamed)");
    }
}
