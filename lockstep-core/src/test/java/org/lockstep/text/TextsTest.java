package org.lockstep.text;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The rules of {@link Texts} and {@link Language}, in English and in the two translations. */
class TextsTest {

    @AfterEach
    void backToEnglish() {
        Texts.use(Language.ENGLISH);
    }

    @Test
    void englishIsTheKeyWithItsArgumentsFilledIn() {
        assertThat(Texts.tr("{0} is editing this customer (since {1})", "Ana", "10:02"))
                .isEqualTo("Ana is editing this customer (since 10:02)");
    }

    @Test
    void aPlainArgumentWritesAnIdAsItIsAndANumberArgumentInTheLanguage() {
        assertThat(Texts.in(Language.ENGLISH, "customer {0}", 1234567L)).isEqualTo("customer 1234567");
        assertThat(Texts.in(Language.ENGLISH, "{0, number} customers", 1234567L)).isEqualTo("1,234,567 customers");
        assertThat(Texts.in(Language.PORTUGUESE_BRAZIL, "{0, number} customers", 1234567L))
                .startsWith("1.234.567");
    }

    @Test
    void aTextWithoutBracesOrApostrophesComesOutAsWrittenAndOneWithThemAsIcuReadsIt() {
        // Kept as they are, with no format made (Texts.Compiled): what ICU treats specially elsewhere (# in a plural,
        // | in a choice) is plain text at the top of a message.
        assertThat(Texts.in(Language.ENGLISH, "50% # | < > \\ \u00e9")).isEqualTo("50% # | < > \\ \u00e9");
        assertThat(Texts.in(Language.ENGLISH, "Ctrl+N for a new one.", "an unused argument"))
                .isEqualTo("Ctrl+N for a new one.");
        // Through ICU still: an apostrophe is literal unless it quotes a brace, and two stand for one.
        assertThat(Texts.in(Language.ENGLISH, "It's {0}''s", "Ana")).isEqualTo("It's Ana's");
        assertThat(Texts.in(Language.ENGLISH, "'{'0'}' is literal")).isEqualTo("{0} is literal");
    }

    @Test
    void pluralsFollowEachLanguagesRules() {
        String english = "{0, plural, one {# field differs} other {# fields differ}}";
        assertThat(Texts.in(Language.ENGLISH, english, 1)).isEqualTo("1 field differs");
        assertThat(Texts.in(Language.ENGLISH, english, 0)).isEqualTo("0 fields differ");
        assertThat(Texts.in(Language.ENGLISH, english, 1200)).isEqualTo("1,200 fields differ");
    }

    @Test
    void anUntranslatedTextShowsInEnglishAndIsReportedOnce() {
        List<String> missing = new ArrayList<>();
        Consumer<String> before = Texts.onMissing(missing::add);
        try {
            Texts.use(Language.SPANISH);
            String text = "A sentence no translation file holds, {0}";
            assertThat(Texts.tr(text, "Ana")).isEqualTo("A sentence no translation file holds, Ana");
            Texts.tr(text, "Bo");
            assertThat(missing).containsExactly(text);
        } finally {
            Texts.onMissing(before);
        }
    }

    @Test
    void theBundleForFxmlAnswersWithTheCurrentLanguage() {
        assertThat(Texts.bundle().getString("Plain text with no arguments")).isEqualTo("Plain text with no arguments");
        // FXMLLoader fails a "%text" whose key the bundle says it lacks: every text is its own key.
        assertThat(Texts.bundle().containsKey("Plain text with no arguments")).isTrue();
    }

    @Test
    void datesAreWrittenTheWayEachLanguageWritesThem() {
        LocalDateTime t = LocalDateTime.of(2026, 12, 1, 10, 7, 33);
        assertThat(Language.ENGLISH.numericDateTime(true).format(t)).isEqualTo("2026-12-01 10:07:33");
        assertThat(Language.PORTUGUESE_BRAZIL.numericDateTime(false).format(t)).isEqualTo("01/12/2026 10:07");
        assertThat(Language.SPANISH.numericDateTime(true).format(t)).isEqualTo("01/12/2026 10:07:33");
        assertThat(Language.ENGLISH.dayMonthYear().format(t)).isEqualTo("1 Dec 2026");
        assertThat(Language.PORTUGUESE_BRAZIL.dayMonthYear().format(t)).isEqualTo("1 de dez. de 2026");
        assertThat(Language.SPANISH.dayMonthYear().format(t)).isEqualTo("1 dic 2026");
    }

    @Test
    void langTakesTheThreeTagsInAnySpellingAndNamesThemWhenWrong() {
        assertThat(Language.ofTag("pt-BR")).isEqualTo(Language.PORTUGUESE_BRAZIL);
        assertThat(Language.ofTag("pt_br")).isEqualTo(Language.PORTUGUESE_BRAZIL);
        assertThat(Language.ofTag("pt")).isEqualTo(Language.PORTUGUESE_BRAZIL);
        assertThat(Language.ofTag("ES")).isEqualTo(Language.SPANISH);
        assertThat(Language.ofTag("es-MX")).isEqualTo(Language.SPANISH);
        assertThat(Language.ofTag("en-GB")).isEqualTo(Language.ENGLISH);
        assertThatThrownBy(() -> Language.ofTag("de")).hasMessageContaining("--lang de")
                .hasMessageContaining("pt-BR");
    }

    @Test
    void theOperatingSystemsLocaleChoosesTheLanguageElseEnglish() {
        assertThat(Language.forLocale(Locale.forLanguageTag("pt-PT"))).isEqualTo(Language.PORTUGUESE_BRAZIL);
        assertThat(Language.forLocale(Locale.forLanguageTag("es-AR"))).isEqualTo(Language.SPANISH);
        assertThat(Language.forLocale(Locale.GERMANY)).isEqualTo(Language.ENGLISH);
        assertThat(Language.forLocale(Locale.ROOT)).isEqualTo(Language.ENGLISH);
    }
}
