package org.lockstep.transfer;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.StringReader;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * How a header line decides the delimiter, with Lockstep's own notion of a known column
 * ({@link ImportMapping#unknownColumns}). The import command's tests cover the same through files and the database.
 */
class DelimiterDetectionTest {

    static DelimiterDetection.Result detect(String header, String... mappings) {
        return DelimiterDetection.detect(header.replace("⇥", "\t"),
                names -> ImportMapping.unknownColumns(names, List.of(mappings)));
    }

    /** {@code ⇥} stands for a tab; MAP is one {@code --map}, if any. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '#', quoteCharacter = '`', textBlock = """
            company#                               #                 COMMA
            company,city#                          #                 COMMA
            company;city;credit_limit#             #                 SEMICOLON
            company⇥city#                          #                 TAB
            company|city#                          #                 PIPE
            "company";"city"#                      #                 SEMICOLON
            "a,b";city#                            #                 SEMICOLON
            company,"city;x"#                      #                 COMMA
            company;Postal Code;E-Mail#            #                 SEMICOLON
            company;city;#                         #                 SEMICOLON
            company;Ort,Land#                      Ort,Land=city#    SEMICOLON
            company;city,#                         #                 UNDECIDED
            company,city;country#                  city;country=city# COMMA
            company,id;version,updated_at#         #                 UNDECIDED
            company,city⇥notes#                    #                 UNDECIDED
            company;city,notes#                    #                 UNDECIDED
            `"company",a;b`#                       #                 UNDECIDED
            """)
    void theReadingThatNamesKnownColumnsOnlyWins(String header, String mapping, String expected) {
        DelimiterDetection.Result r = mapping == null ? detect(header) : detect(header, mapping);

        if (expected.equals("UNDECIDED")) {
            assertThat(r).isInstanceOfSatisfying(DelimiterDetection.Undecided.class,
                    u -> assertThat(u.message()).startsWith("header: cannot tell whether the columns are separated by ")
                            .endsWith("; say which with --delimiter"));
        } else {
            assertThat(r).isEqualTo(new DelimiterDetection.Detected(CsvDelimiter.valueOf(expected)));
        }
    }

    /** The header line ends at the first line break outside quotes; a byte-order mark is not part of it. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '#', quoteCharacter = '`', textBlock = """
            `company;city\\nA;B`#          company;city
            `company;city\\r\\nA;B`#       company;city
            `\uFEFFcompany;city\\nA`#      company;city
            `"com\\npany";city\\nA`#       "com\\npany";city
            `company`#                     company
            """)
    void theHeaderLineEndsAtTheFirstLineBreakOutsideQuotes(String text, String header) throws IOException {
        assertThat(DelimiterDetection.headerLine(new StringReader(unescape(text)))).isEqualTo(unescape(header));
    }

    private static String unescape(String s) {
        return s.replace("\\n", "\n").replace("\\r", "\r");
    }
}
