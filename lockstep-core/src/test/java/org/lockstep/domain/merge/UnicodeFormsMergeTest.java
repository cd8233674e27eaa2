package org.lockstep.domain.merge;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.merge.FieldMerge.Resolution;

/**
 * A three-way merge treats the NFC and NFD forms of one text as one value (ADR 0010): typing the same name on a Mac
 * is neither a change nor a conflict. The tables write the forms with Java's Unicode escapes: {@code e\u0301} is "e"
 * with a combining acute accent (NFD), {@code \u00e9} the precomposed "é" (NFC).
 */
class UnicodeFormsMergeTest {

    @ParameterizedTest(name = "base \"{0}\", mine \"{1}\", theirs \"{2}\" → {3} \"{4}\"")
    @CsvSource(delimiter = '|', textBlock = """
            Jos\u00e9  | Jose\u0301 | Jos\u00e9  | UNCHANGED | Jos\u00e9
            Jose\u0301 | Jos\u00e9  | Jos\u00e9  | UNCHANGED | Jos\u00e9
            Jos\u00e9  | Jose\u0301 | Jo         | THEIRS    | Jo
            Jos\u00e9  | Jo         | Jose\u0301 | MINE      | Jo
            Jo         | Jose\u0301 | Jos\u00e9  | BOTH_SAME | Jos\u00e9
            Jo         | Jose\u0301 | Josef      | CONFLICT  | Jos\u00e9
            """)
    void theNfcAndNfdFormsOfATextAreOneValue(String base, String mine, String theirs, Resolution resolution,
            String result) {
        FieldMerge merged = ThreeWayMerge.mergeField(CustomerField.CONTACT_NAME, base, mine, theirs);

        assertThat(merged.resolution()).isEqualTo(resolution);
        assertThat(merged.result()).isEqualTo(result);
    }

    @ParameterizedTest(name = "notes: {0}")
    @CsvSource(delimiter = '|', textBlock = """
            theirs retyped a line in NFD, I changed another | Caf\u00e9;pay 30 | Caf\u00e9;pay 60 | Cafe\u0301;pay 30 | MINE           | Caf\u00e9;pay 60
            both changed other lines, one side in NFD       | Caf\u00e9;a;pay 30 | Cafe\u0301;b;pay 30 | Caf\u00e9;a;pay 60 | LINES_COMBINED | Caf\u00e9;b;pay 60
            """)
    void multiLineTextMergesLineByLineInNfc(String description, String base, String mine, String theirs,
            Resolution resolution, String result) {
        FieldMerge merged = ThreeWayMerge.mergeField(CustomerField.NOTES, lines(base), lines(mine), lines(theirs));

        assertThat(merged.resolution()).isEqualTo(resolution);
        assertThat(merged.result()).isEqualTo(lines(result));
    }

    private static String lines(String text) {
        return text.replace(';', '\n');
    }
}
