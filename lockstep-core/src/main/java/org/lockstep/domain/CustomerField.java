package org.lockstep.domain;

import static org.lockstep.text.Texts.tr;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.lockstep.text.Texts;

/**
 * The editable fields of a customer record, in display order, with the column name used in SQL, JSON and CSV
 * (snake_case) and the maximum length the schema allows.
 *
 * <p>This is Lockstep's one table of length limits: they are the {@code CHECK (char_length(column) <= N)}
 * constraints of {@code db/migration/V1__customer.sql}, and {@code FieldLimitsMatchTheDatabaseTest} reads those
 * constraints back from {@code pg_constraint} and fails when the two differ, so a migration that changes a limit
 * must change it here too. Validation ({@link CustomerValidator}) rejects a longer value before it reaches the
 * database, counting as the database counts: code points of the NFC text ({@link UnicodeText}).
 */
public enum CustomerField {
    EXTERNAL_REF("external_ref", Texts.key("External ref"), 64, false),
    COMPANY("company", Texts.key("Company"), 160, false),
    CONTACT_NAME("contact_name", Texts.key("Contact name"), 120, false),
    CONTACT_TITLE("contact_title", Texts.key("Contact title"), 80, false),
    EMAIL("email", Texts.key("Email"), 254, false),
    PHONE("phone", Texts.key("Phone"), 40, false),
    FAX("fax", Texts.key("Fax"), 40, false),
    ADDRESS("address", Texts.key("Address"), 500, true),
    CITY("city", Texts.key("City"), 80, false),
    REGION("region", Texts.key("Region"), 80, false),
    POSTAL_CODE("postal_code", Texts.key("Postal code"), 20, false),
    COUNTRY("country", Texts.key("Country"), 80, false),
    NOTES("notes", Texts.key("Notes"), 100_000, true),
    CREDIT_LIMIT("credit_limit", Texts.key("Credit limit"), 15, false);

    private final String column;
    private final String label;
    private final int maxLength;
    private final boolean multiLine;

    CustomerField(String column, String label, int maxLength, boolean multiLine) {
        this.column = column;
        this.label = label;
        this.maxLength = maxLength;
        this.multiLine = multiLine;
    }

    /** The column name: snake_case, as in SQL, JSON keys and CSV headers. */
    public String column() {
        return column;
    }

    /**
     * The label an operator reads in the editor and in error messages, in the current language ({@link Texts}); the
     * command line, which never changes the language, reads it in English.
     */
    public String label() {
        return tr(label);
    }

    /**
     * Maximum length in code points, as PostgreSQL's {@code char_length} counts them (for {@link #CREDIT_LIMIT}, of
     * its text form; its range is {@link CustomerValidator#MAX_CREDIT_LIMIT}).
     */
    public int maxLength() {
        return maxLength;
    }

    /** Whether the value may span several lines (address, notes). */
    public boolean multiLine() {
        return multiLine;
    }

    /** Whether the value is a number rather than text. */
    public boolean numeric() {
        return this == CREDIT_LIMIT;
    }

    /** All fields in display order. */
    public static List<CustomerField> all() {
        return List.of(values());
    }

    /**
     * Finds a field by its column name, ignoring case and surrounding blanks; a space or hyphen counts as an
     * underscore, so {@code "Postal Code"} finds {@link #POSTAL_CODE}.
     *
     * @return the field, or empty when no field has that name
     */
    public static Optional<CustomerField> byColumn(String name) {
        if (name == null) {
            return Optional.empty();
        }
        String wanted = name.strip().toLowerCase(java.util.Locale.ROOT).replace(' ', '_').replace('-', '_');
        return Arrays.stream(values()).filter(f -> f.column.equals(wanted)).findFirst();
    }
}
