package org.lockstep.transfer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.lockstep.transfer.CsvRecordReader.NumberedRecord;

class CsvRecordReaderTest {

    static List<NumberedRecord> read(String text) throws IOException {
        List<NumberedRecord> records = new ArrayList<>();
        try (CsvRecordReader reader = CsvRecordReader.of(new StringReader(text))) {
            for (Optional<NumberedRecord> r = reader.next(); r.isPresent(); r = reader.next()) {
                records.add(r.get());
            }
        }
        return records;
    }

    @Test
    void eachRecordKnowsTheLineItStartsOnCountingLineBreaksInsideQuotes() throws IOException {
        List<NumberedRecord> records = read("h1,h2\r\n" // 1
                + "\r\n" // 2
                + "1,\"a\r\nb\"\r\n" // 3-4
                + "2,x\n" // 5
                + "\"3\n\n\",\"y\ry\"\r\n" // 6-9 (a lone CR is a line break too)
                + "4,\"q\"\"\""); // 10, no final line break

        assertThat(records).extracting(NumberedRecord::line).containsExactly(1L, 2L, 3L, 5L, 6L, 10L);
        assertThat(records.get(1).blank()).isTrue();
        assertThat(records.get(2).values()).containsExactly("1", "a\r\nb");
        assertThat(records.get(4).values()).containsExactly("3\n\n", "y\ry");
        assertThat(records.get(5).values()).containsExactly("4", "q\"");
    }

    @Test
    void aByteOrderMarkIsNotPartOfTheFirstColumnName() throws IOException {
        assertThat(read("\uFEFFcompany,city\nA,B\n").get(0).values()).containsExactly("company", "city");
    }

    @Test
    void anUnclosedQuoteIsReportedAtTheLineItOpensOn() throws IOException {
        try (CsvRecordReader reader = CsvRecordReader.of(new StringReader("a,b\n1,2\n3,\"open\n\n4,5\n"))) {
            reader.next();
            reader.next();
            assertThatThrownBy(reader::next).isInstanceOfSatisfying(CsvRecordReader.CsvSyntaxException.class,
                    e -> assertThat(e.line()).isEqualTo(3));
        }
    }

    /** {@code ⇥} stands for a tab. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '#', quoteCharacter = '`', textBlock = """
            COMMA#      a,"b;c⇥d|e",f#     a#  b;c⇥d|e#  f
            SEMICOLON#  a;"b,c⇥d|e";f#     a#  b,c⇥d|e#  f
            TAB#        a⇥"b,c;d|e"⇥f#     a#  b,c;d|e#  f
            PIPE#       a|"b,c;d⇥e"|f#     a#  b,c;d⇥e#  f
            """)
    void eachDelimiterSeparatesValuesAndQuotedValuesKeepTheOthers(CsvDelimiter delimiter, String line, String a,
            String b, String c) throws IOException {
        try (CsvRecordReader reader = CsvRecordReader.of(new StringReader(line.replace("⇥", "\t")), delimiter)) {
            assertThat(reader.next().orElseThrow().values()).containsExactly(a, b.replace("⇥", "\t"), c);
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"COMMA, comma", "SEMICOLON, semicolon", "TAB, tab", "PIPE, pipe"})
    void aQuotedValueFollowedByTextNamesTheFilesDelimiter(CsvDelimiter delimiter, String word) throws IOException {
        String text = "\"a\"b" + delimiter.character() + "c\n";
        try (CsvRecordReader reader = CsvRecordReader.of(new StringReader(text), delimiter)) {
            assertThatThrownBy(reader::next).hasMessage("a quoted value is followed by other text before the next "
                    + word + " (write \"\" for a quote inside a quoted value)");
        }
    }
}
