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

    @ParameterizedTest(name = "{0}: \"{1}\" and \"{2}\" are the same value: {3}")
    @CsvSource(delimiter = '|', textBlock = """
            CONTACT_NAME | Jose\u0301          | José         | true
            CITY         | Sa\u0303o Paulo     | São Paulo    | true
            NOTES        | Caf\u00e9 na rua   | Cafe\u0301 na rua | true
            CONTACT_NAME | Jose               | José         | false
            COMPANY      | \u212bngstr\u00f6m AB | Ångström AB  | true
            """)
    void textsThatDifferOnlyInTheirUnicodeFormAreTheSameValue(CustomerField field, String a, String b,
            boolean same) {
        CustomerData x = aCustomer().with(field, a).build();
        CustomerData y = aCustomer().with(field, b).build();

        assertThat(CustomerData.sameValue(a, b)).isEqualTo(same);
        assertThat(x.sameValues(y)).isEqualTo(same);
        assertThat(x.normalized().get(field).equals(y.normalized().get(field))).isEqualTo(same);
    }

    @Test
    void normalizingPutsEveryTextInNfc() {
        CustomerData data = aCustomer().with(CustomerField.CONTACT_NAME, "Lui\u0301s Gonc\u0327alves")
                .with(CustomerField.NOTES, "Cafe\u0301\r\nok").build();

        CustomerData normalized = data.normalized();

        assertThat(normalized.contactName()).isEqualTo("Lu\u00eds Gon\u00e7alves").hasSize(14);
        assertThat(normalized.notes()).isEqualTo("Caf\u00e9\nok");
    }

    @Test
    void aSearchTermIsStrippedAndInNfc() {
        assertThat(CustomerPageRequest.searchTerm("  Jose\u0301 ")).isEqualTo("Jos\u00e9");
        assertThat(CustomerPageRequest.first("Jose\u0301").search()).isEqualTo("Jos\u00e9");
        assertThat(CustomerPageRequest.searchTerm(null)).isEmpty();
    }
}
