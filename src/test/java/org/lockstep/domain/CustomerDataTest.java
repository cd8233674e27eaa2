package org.lockstep.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.math.BigDecimal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CustomerDataTest {

    @Test
    void normalizingMakesBlankTextAbsentAndStripsSingleLineText() {
        CustomerData data = aCustomer().with(CustomerField.CITY, "  Oslo ").with(CustomerField.FAX, "   ").build();

        CustomerData normalized = data.normalized();

        assertThat(normalized.city()).isEqualTo("Oslo");
        assertThat(normalized.fax()).isNull();
    }

    @Test
    void normalizingKeepsInnerLinesOfMultiLineTextAndUnifiesLineBreaks() {
        CustomerData data = aCustomer().with(CustomerField.NOTES, "  first\r\nsecond\rthird\n\n").build();

        assertThat(data.normalized().notes()).isEqualTo("  first\nsecond\nthird");
    }

    @Test
    void amountsCompareByValue() {
        CustomerData a = aCustomer().with(CustomerField.CREDIT_LIMIT, "1000").build();
        CustomerData b = aCustomer().with(CustomerField.CREDIT_LIMIT, "1000.00").build();

        assertThat(a.sameValues(b)).isTrue();
        assertThat(a.normalized().creditLimit()).isEqualTo(new BigDecimal("1000.00"));
    }

    @Test
    void withReplacesOneFieldAndRejectsAValueOfTheWrongType() {
        CustomerData data = aCustomer().build();

        assertThat(data.with(CustomerField.COUNTRY, "Norway").country()).isEqualTo("Norway");
        assertThat(data.with(CustomerField.COUNTRY, "Norway").city()).isEqualTo(data.city());
        assertThatThrownBy(() -> data.with(CustomerField.CREDIT_LIMIT, "12"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void everyFieldRoundTripsThroughTheMap() {
        CustomerData data = aCustomer().with(CustomerField.NOTES, "n").with(CustomerField.FAX, "f").build();

        assertThat(CustomerData.fromMap(data.toMap())).isEqualTo(data);
    }

    @ParameterizedTest
    @CsvSource(textBlock = """
            credit_limit,  CREDIT_LIMIT
            Postal Code,   POSTAL_CODE
            ' EMAIL ',     EMAIL
            contact-name,  CONTACT_NAME
            """)
    void fieldsAreFoundByColumnNameLeniently(String name, CustomerField expected) {
        assertThat(CustomerField.byColumn(name)).contains(expected);
    }

    @Test
    void unknownColumnsAreNotFields() {
        assertThat(CustomerField.byColumn("shoe_size")).isEmpty();
    }

    @ParameterizedTest
    @CsvSource(textBlock = """
            1500,      1500.00
            '1,500.5', 1500.50
            ' 42 ',    42.00
            """)
    void creditLimitsParseFromWhatOperatorsType(String text, String formatted) {
        assertThat(FieldParser.format(FieldParser.parse(CustomerField.CREDIT_LIMIT, text))).isEqualTo(formatted);
    }

    @Test
    void aNonNumericCreditLimitNamesTheFieldAndTheText() {
        assertThatThrownBy(() -> FieldParser.parse(CustomerField.CREDIT_LIMIT, "lots"))
                .isInstanceOf(FieldParser.InvalidValueException.class)
                .hasMessage("Credit limit must be a number, not \"lots\"");
    }
}
