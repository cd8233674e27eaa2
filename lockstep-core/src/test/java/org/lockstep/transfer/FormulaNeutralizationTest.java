package org.lockstep.transfer;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The cell rule on its own: which values get a quote, and that import's reading undoes export's writing for every
 * text. (The same law through the real export, import and database: {@code ExportImportRoundTripTest}.)
 */
class FormulaNeutralizationTest {

    /** {@code {TAB}}, {@code {CR}}, {@code {LF}} and {@code {NBSP}} stand for those characters. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', ignoreLeadingAndTrailingWhitespace = false, textBlock = """
            =HYPERLINK("http://x")|'=HYPERLINK("http://x")
            +44 20 7946 0958|'+44 20 7946 0958
            -- call first|'-- call first
            @SUM(A1)|'@SUM(A1)
            {TAB}indented|'{TAB}indented
            {CR}=1|'{CR}=1
            {LF}=1|'{LF}=1
            `  =1+2`|`'  =1+2`
            {NBSP}=1|'{NBSP}=1
            '=already text|''=already text
            ''+two quotes|'''+two quotes
            ' -spaced|'' -spaced
            's-Hertogenbosch|'s-Hertogenbosch
            'quoted'|'quoted'
            '|'
            A=B|A=B
            1500.50|1500.50
            ` x`|` x`
            ＝full width|＝full width
            """)
    void liveCellsAndQuotedLiveCellsGetOneMoreQuote(String value, String cell) {
        String v = unescape(value);
        String c = unescape(cell);

        assertThat(FormulaNeutralization.neutralize(v)).isEqualTo(c);
        assertThat(FormulaNeutralization.restore(c)).isEqualTo(v);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            '=1|true
            ''+1|true
            '  -1|true
            =1|false
            's-Hertogenbosch|false
            '|false
            plain|false
            """)
    void aValueIsReadDifferentlyWhenWrittenRawOnlyIfItStartsWithQuotesBeforeALiveCell(String value, boolean changed) {
        assertThat(FormulaNeutralization.changedByRestore(value)).isEqualTo(changed);
    }

    @Property
    void readingUndoesWriting(@ForAll("texts") String value) {
        assertThat(FormulaNeutralization.restore(FormulaNeutralization.neutralize(value))).isEqualTo(value);
    }

    @Property
    void noWrittenCellStartsWithAFormulaCharacter(@ForAll("texts") String value) {
        String cell = FormulaNeutralization.neutralize(value);
        String trimmed = cell.replaceFirst("^\\p{Zs}+", "");

        assertThat(trimmed).doesNotStartWith("=").doesNotStartWith("+").doesNotStartWith("-")
                .doesNotStartWith("@").doesNotStartWith("\t").doesNotStartWith("\r").doesNotStartWith("\n");
    }

    @Property
    void aValueRawExportMayWriteReadsBackAsItIs(@ForAll("texts") String value) {
        if (!FormulaNeutralization.changedByRestore(value)) {
            assertThat(FormulaNeutralization.restore(value)).isEqualTo(value);
        }
    }

    /** Texts built mostly from the characters the rule looks at, so that the interesting cases are common. */
    @Provide
    Arbitrary<String> texts() {
        Arbitrary<String> pieces = Arbitraries.of("'", "=", "+", "-", "@", "\t", "\r", "\n", " ", "\u00A0", "a",
                "Z", "1", "\"", ",", ";", "😀", "é", "株");
        return Arbitraries.oneOf(pieces.list().ofMaxSize(8).map(l -> String.join("", l)),
                Arbitraries.strings().ofMaxLength(12));
    }

    private static String unescape(String s) {
        return s.replace("{TAB}", "\t").replace("{CR}", "\r").replace("{LF}", "\n").replace("{NBSP}", "\u00A0");
    }
}
