package org.lockstep.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Every entry path reads values through {@link FieldParser}: amounts by the grammar, text in NFC. */
class FieldParserTest {

    @ParameterizedTest(name = "\"{0}\" → {1}")
    @CsvSource(textBlock = """
            1500,      1500.00
            '1,500.5', 1500.50
            ' 42 ',    42.00
            1.5,       1.50
            """)
    void creditLimitsParseFromWhatOperatorsType(String text, String formatted) {
        assertThat(FieldParser.NEUTRAL.format(FieldParser.NEUTRAL.parse(CustomerField.CREDIT_LIMIT, text)))
                .isEqualTo(formatted);
    }

    @ParameterizedTest(name = "{0} \"{1}\"")
    @CsvSource(delimiter = '|', textBlock = """
            und | lots     | Credit limit must be a number like 1,500.50, not "lots"
            und | 1,5      | Credit limit must be a number like 1,500.50, not "1,5" ("," separates thousands, "." marks decimals)
            und | 1.500,50 | Credit limit must be a number like 1,500.50, not "1.500,50" ("," separates thousands, "." marks decimals)
            de  | 1.5      | Credit limit must be a number like 1.500,50, not "1.5" ("." separates thousands, "," marks decimals)
            fr  | 1.5      | Credit limit must be a number like 1\u202f500,50, not "1.5" (a space separates thousands, "," marks decimals)
            """)
    void anAmountThatIsNotCertainIsRefusedNamingTheFieldTheTextAndTheConvention(String tag, String text,
            String message) {
        FieldParser parser = tag.equals("und") ? FieldParser.NEUTRAL : FieldParser.of(Locale.forLanguageTag(tag));

        assertThatThrownBy(() -> parser.parse(CustomerField.CREDIT_LIMIT, text))
                .isInstanceOfSatisfying(FieldParser.InvalidValueException.class, e -> {
                    assertThat(e.error().field()).isEqualTo(CustomerField.CREDIT_LIMIT);
                    assertThat(e.error().message()).isEqualTo(message);
                });
    }

    @Test
    void aGermanEditorReadsAndShowsDecimalCommas() {
        FieldParser de = FieldParser.of(Locale.GERMANY);

        assertThat(de.parse(CustomerField.CREDIT_LIMIT, "1.500,50")).isEqualTo(new java.math.BigDecimal("1500.50"));
        assertThat(de.format(new java.math.BigDecimal("1500.50"))).isEqualTo("1500,50");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            Jose\u0301 Gonc\u0327alves  | José Gonçalves
            José Gonçalves              | José Gonçalves
            A\u030angstro\u0308m        | Ångström
            """)
    void textIsTakenInNfc(String typed, String stored) {
        Object parsed = FieldParser.NEUTRAL.parse(CustomerField.CONTACT_NAME, typed);

        assertThat(parsed).isEqualTo(stored);
        assertThat(((String) parsed).length()).isEqualTo(stored.length());
    }

    @Test
    void blankIsAbsent() {
        assertThat(FieldParser.NEUTRAL.parse(CustomerField.CREDIT_LIMIT, "  ")).isNull();
        assertThat(FieldParser.NEUTRAL.parse(CustomerField.CITY, "")).isNull();
    }
}
