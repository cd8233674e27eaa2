package org.lockstep.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.lockstep.server.Database;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.CustomerValidator;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.FreshDatabase;

/**
 * {@link CustomerField#maxLength()} is Lockstep's one table of length limits; the migrations state the same limits in
 * the customer table's CHECK constraint ({@code customer_values_check}, which calls {@code lockstep_customer_valid}
 * since V25). This test reads the constraints back from the migrated database ({@code pg_constraint}) with the body of
 * every function they call ({@code pg_depend}), and the credit limit's precision from {@code information_schema.columns},
 * so a migration and the validator can never disagree unnoticed.
 */
@DatabaseTest
class FieldLimitsMatchTheDatabaseTest {

    private static final Pattern LENGTH_CHECK = Pattern.compile(
            "char_length\\(CASE WHEN utf8 THEN normalize\\((\\w+), NFC\\) ELSE \\w+ END\\) > (\\d+)");
    /** U+1F600: one code point, two UTF-16 code units. */
    private static final String GRIN = new String(Character.toChars(0x1F600));

    @FreshDatabase
    static Database db;

    @Test
    void everyTextFieldsLimitIsTheLimitOfItsCheckConstraint() {
        List<String> checks = db.jdbi().withHandle(h -> h.createQuery("""
                        SELECT pg_get_constraintdef(oid) FROM pg_constraint
                        WHERE conrelid = 'customer'::regclass AND contype = 'c'
                        UNION ALL
                        SELECT p.prosrc FROM pg_constraint c
                        JOIN pg_depend d ON d.classid = 'pg_constraint'::regclass AND d.objid = c.oid
                                        AND d.refclassid = 'pg_proc'::regclass
                        JOIN pg_proc p ON p.oid = d.refobjid
                        WHERE c.conrelid = 'customer'::regclass AND c.contype = 'c'""")
                .mapTo(String.class).list());
        Map<String, Integer> inDatabase = new HashMap<>();
        for (String check : checks) {
            Matcher m = LENGTH_CHECK.matcher(check);
            while (m.find()) {
                Integer earlier = inDatabase.put(m.group(1), Integer.parseInt(m.group(2)));
                assertThat(earlier).as("a second length check on " + m.group(1)).isNull();
            }
        }
        Map<String, Integer> inLockstep = new HashMap<>();
        for (CustomerField f : CustomerField.values()) {
            if (!f.numeric()) {
                inLockstep.put(f.column(), f.maxLength());
            }
        }

        assertThat(inDatabase).isEqualTo(inLockstep);
    }

    @Test
    void theLargestCreditLimitIsTheLargestTheColumnHolds() {
        Map<String, Object> column = db.jdbi().withHandle(h -> h.createQuery("""
                        SELECT numeric_precision, numeric_scale FROM information_schema.columns
                        WHERE table_name = 'customer' AND column_name = 'credit_limit'""")
                .mapToMap().one());
        int precision = ((Number) column.get("numeric_precision")).intValue();
        int scale = ((Number) column.get("numeric_scale")).intValue();

        BigDecimal largest = BigDecimal.TEN.pow(precision - scale).subtract(BigDecimal.ONE.movePointLeft(scale));
        assertThat(CustomerValidator.MAX_CREDIT_LIMIT).isEqualByComparingTo(largest);
    }

    /** The database counts as the validator counts: code points, not UTF-16 code units. */
    @ParameterizedTest(name = "{0}")
    @EnumSource(value = CustomerField.class, names = {"COMPANY", "CONTACT_NAME", "PHONE", "POSTAL_CODE", "NOTES"})
    void theDatabaseAcceptsTheLimitInAstralCharactersAndRefusesOneMore(CustomerField field) {
        String atLimit = GRIN.repeat(field.maxLength());
        Map<CustomerField, String> values = new EnumMap<>(CustomerField.class);
        values.put(CustomerField.CONTACT_NAME, "Limit test");
        values.put(field, atLimit);

        long id = insert(values);
        String stored = db.jdbi().withHandle(h -> h.createQuery("SELECT " + field.column()
                + " FROM customer WHERE id = :id").bind("id", id).mapTo(String.class).one());
        assertThat(stored).isEqualTo(atLimit);

        values.put(field, GRIN + atLimit);
        assertThatThrownBy(() -> insert(values)).hasMessageContaining("customer_" + field.column() + "_check");
    }

    private static long insert(Map<CustomerField, String> values) {
        List<String> columns = values.keySet().stream().map(CustomerField::column).toList();
        String sql = "INSERT INTO customer (" + String.join(", ", columns) + ") VALUES ("
                + String.join(", ", columns.stream().map(c -> ":" + c).toList()) + ") RETURNING id";
        return db.jdbi().withHandle(h -> {
            var q = h.createQuery(sql);
            values.forEach((f, v) -> q.bind(f.column(), v));
            return q.mapTo(Long.class).one();
        });
    }
}
