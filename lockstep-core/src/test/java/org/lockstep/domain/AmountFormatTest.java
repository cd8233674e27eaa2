package org.lockstep.domain;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.Locale;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The amount grammar (ADR 0010): a comma or point is accepted only where its meaning is certain. "invalid" means the
 * text is refused; every other expected value is what must be stored. The Unicode escapes in the tables are
 * Java's own, turned into the characters (a narrow no-break space, a typographic apostrophe, Arabic digits) when the
 * source is compiled.
 */
class AmountFormatTest {

    @ParameterizedTest(name = "neutral \"{0}\" → {1}")
    @CsvSource(delimiter = '|', textBlock = """
            1,500.50       | 1500.50
            12,345         | 12345
            1,234,567.89   | 1234567.89
            1500           | 1500
            1500.5         | 1500.5
            1.5            | 1.5
            1.500          | 1.500
            .5             | 0.5
            0              | 0
            ' 42 '         | 42
            -5             | -5
            +5             | 5
            1,5            | invalid
            1,50           | invalid
            1,5000         | invalid
            ,5             | invalid
            1500,          | invalid
            0,500          | invalid
            1234,567       | invalid
            1,500,00       | invalid
            12,34,567      | invalid
            1.500,50       | invalid
            1 500          | invalid
            1.             | invalid
            1e3            | invalid
            1_000          | invalid
            lots           | invalid
            --5            | invalid
            """)
    void theNeutralFormatReadsAPointAsDecimalsAndACommaOnlyBetweenThousands(String text, String expected) {
        assertParses(AmountFormat.NEUTRAL, text, expected);
    }

    @ParameterizedTest(name = "{0} \"{1}\" → {2}")
    // Arabic digits and separators through ar-EG: plain "ar" has them on JDK 17's locale data but Latin digits on
    // JDK 25's (CLDR 47), and the JDK's data is what an editor's locale reads by (DecimalFormatSymbols).
    @CsvSource(delimiter = '|', textBlock = """
            en    | 1,500.50   | 1500.50
            en    | 12,345     | 12345
            en    | 1,5        | invalid
            en    | 1,50       | invalid
            en    | 1,5000     | invalid
            en    | ,5         | invalid
            en    | 1.5        | 1.5
            de    | 1.500,50   | 1500.50
            de    | 1,5        | 1.5
            de    | 1.5        | invalid
            de    | 1.50       | invalid
            de    | 1.5000     | invalid
            de    | 1.500      | 1500
            de    | 12.345.678 | 12345678
            de    | ,5         | 0.5
            de    | 0.500      | invalid
            de    | 1,500.50   | invalid
            de    | 1500,5     | 1500.5
            pt-BR | 1.500,50   | 1500.50
            pt-BR | 1,5        | 1.5
            pt-BR | 1.5        | invalid
            pt-BR | 1.500      | 1500
            es    | 1.500,50   | 1500.50
            es    | 1,5        | 1.5
            es    | 1.5        | invalid
            fr    | 1 500,50   | 1500.50
            fr    | 1\u202f500,50 | 1500.50
            fr    | 1,5        | 1.5
            fr    | 1.5        | invalid
            fr    | 1 50       | invalid
            de-CH | 1'500.50   | 1500.50
            de-CH | 1\u2019500.50 | 1500.50
            de-CH | 1.5        | 1.5
            de-CH | 1,5        | invalid
            sv    | \u22125    | -5
            ar-EG | \u0661\u066c\u0665\u0660\u0660\u066b\u0665 | 1500.5
            ar-EG | 1\u066c500\u066b5 | 1500.5
            """)
    void anEditorLocaleReadsItsOwnSeparatorsAndRefusesTheOtherConvention(String tag, String text, String expected) {
        assertParses(AmountFormat.of(Locale.forLanguageTag(tag)), text, expected);
    }

    @ParameterizedTest(name = "{0}: {1} shown as \"{2}\", example \"{3}\"")
    @CsvSource(delimiter = '|', textBlock = """
            und   | 1500.5 | 1500.50 | 1,500.50
            en    | 1000   | 1000.00 | 1,500.50
            de    | 1500.5 | 1500,50 | 1.500,50
            pt-BR | 0.125  | 0,125   | 1.500,50
            de-CH | 1500.5 | 1500.50 | 1\u2019500.50
            """)
    void amountsAreShownWithTheLocalesDecimalSeparatorAndNoGrouping(String tag, String amount, String shown,
            String example) {
        AmountFormat format = tag.equals("und") ? AmountFormat.NEUTRAL : AmountFormat.of(Locale.forLanguageTag(tag));

        assertThat(format.format(new BigDecimal(amount))).isEqualTo(shown);
        assertThat(format.example()).isEqualTo(example);
    }

    @Property
    void whatALocaleShowsItReadsBackAsTheSameAmount(@ForAll("amounts") BigDecimal amount,
            @ForAll("locales") Locale locale) {
        AmountFormat format = locale == Locale.ROOT ? AmountFormat.NEUTRAL : AmountFormat.of(locale);

        Optional<BigDecimal> read = format.parse(format.format(amount));

        assertThat(read).hasValueSatisfying(v -> assertThat(v).isEqualByComparingTo(amount));
    }

    @Provide
    Arbitrary<BigDecimal> amounts() {
        return Arbitraries.longs().between(0, 999_999_999_999L).map(cents -> BigDecimal.valueOf(cents, 2));
    }

    @Provide
    Arbitrary<Locale> locales() {
        return Arbitraries.of(Locale.ROOT, Locale.US, Locale.GERMANY, Locale.forLanguageTag("pt-BR"),
                Locale.forLanguageTag("es"), Locale.FRANCE, Locale.forLanguageTag("de-CH"),
                Locale.forLanguageTag("sv"), Locale.forLanguageTag("ar-EG"), Locale.forLanguageTag("fa"),
                Locale.forLanguageTag("hi-IN"));
    }

    private static void assertParses(AmountFormat format, String text, String expected) {
        Optional<BigDecimal> read = format.parse(text);
        if (expected.equals("invalid")) {
            assertThat(read).as(text).isEmpty();
        } else {
            assertThat(read).as(text).hasValueSatisfying(v -> assertThat(v).isEqualByComparingTo(expected));
        }
    }
}
