package org.lockstep.domain;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** The one rule for line breaks and control characters that the validator, the CLI and the editor's paste share. */
class LineRuleTest {

    @Provide
    Arbitrary<String> pasted() {
        return Arbitraries.strings().withChars("ab é😀 \r\n\t\u000B\f\u0085\u2028\u2029").ofMaxLength(30);
    }

    @Property
    void aFoldedPasteIsOneLineTheValidatorAccepts(@ForAll("pasted") String text) {
        String line = LineRule.toOneLine(text);

        assertThat(LineRule.breaks(line, false)).isFalse();
        assertThat(LineRule.hasBreaks(line)).isFalse();
        assertThat(LineRule.toOneLine(line)).isEqualTo(line);
        assertThat(line.replace(" ", "")).isEqualTo(text.replaceAll("[\\s\\u0085\\u2028\\u2029]", ""));
    }

    @Property
    void textWithoutBreaksIsLeftAlone(@ForAll("pasted") String text) {
        String plain = text.replaceAll("[\\r\\n\\t\\u000B\\f\\u0085\\u2028\\u2029]", "");

        assertThat(LineRule.toOneLine(plain)).isEqualTo(plain);
        assertThat(LineRule.hasBreaks(plain)).isFalse();
    }

    @Example
    void aNameFromAnEmailKeepsItsWordsApart() {
        assertThat(LineRule.toOneLine("Maria\r\nda Silva\tJr.")).isEqualTo("Maria da Silva Jr.");
        assertThat(LineRule.toOneLine("Maria\n\n\tda")).isEqualTo("Maria da");
    }

    @Example
    void aOneLineFieldRefusesAnyControlCharacterAMultiLineFieldAllowsLineBreaksAndTabs() {
        assertThat(LineRule.breaks("Maria\nda Silva", false)).isTrue();
        assertThat(LineRule.breaks("Maria\tda Silva", false)).isTrue();
        assertThat(LineRule.breaks("Maria da Silva", false)).isFalse();
        assertThat(LineRule.breaks("line one\nline\ttwo", true)).isFalse();
        assertThat(LineRule.breaks("Recife\u0007", true)).isTrue();
        assertThat(LineRule.breaks("Olinda\u001b[31m", false)).isTrue();
    }
}
