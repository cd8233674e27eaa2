package org.lockstep.transfer;

import java.io.BufferedReader;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;

/**
 * Reads a CSV text record by record (RFC 4180: commas, quotes, CRLF and line breaks inside quoted values; or another
 * {@link CsvDelimiter} in place of the comma) and tells on which line of the file each record starts, counting the
 * line breaks inside quoted values, so that a message can point an operator at the right line. A UTF-8 byte-order
 * mark at the start is skipped.
 */
public final class CsvRecordReader implements Closeable {

    private static final char BOM = '\uFEFF';

    /** The character that stands for bytes that are not UTF-8 (U+FFFD REPLACEMENT CHARACTER). */
    public static final char UNDECODABLE = '\uFFFD';

    private final CSVParser parser;
    private final Iterator<CSVRecord> records;
    private final CsvDelimiter delimiter;

    /**
     * One record.
     *
     * @param line   the line of the file it starts on, 1-based
     * @param values its values, in column order
     */
    public record NumberedRecord(long line, List<String> values) {

        /** Whether every value is blank: an empty line, or a row of empty cells a spreadsheet left behind. */
        public boolean blank() {
            return values.stream().allMatch(String::isBlank);
        }
    }

    /** A file that is not readable CSV text at a given line; nothing after that line can be trusted. */
    public static final class CsvSyntaxException extends RuntimeException {
        private final long line;

        CsvSyntaxException(long line, String message, Throwable cause) {
            super(message, cause);
            this.line = line;
        }

        /** The line where the unreadable record starts. */
        public long line() {
            return line;
        }
    }

    private CsvRecordReader(Reader reader, CsvDelimiter delimiter) throws IOException {
        this.delimiter = delimiter;
        this.parser = CSVParser.parse(withoutByteOrderMark(reader), format(delimiter));
        this.records = parser.iterator();
    }

    private static CSVFormat format(CsvDelimiter delimiter) {
        // Empty lines are kept as records (and skipped by callers) so that line numbers stay exact: with
        // ignoreEmptyLines, Commons CSV would swallow them while reading the next record.
        return CSVFormat.RFC4180.builder().setDelimiter(delimiter.character()).setIgnoreEmptyLines(false).get();
    }

    /** The text without the UTF-8 byte-order mark a spreadsheet may have put first. */
    static BufferedReader withoutByteOrderMark(Reader reader) throws IOException {
        BufferedReader buffered = reader instanceof BufferedReader b ? b : new BufferedReader(reader);
        buffered.mark(1);
        if (buffered.read() != BOM) {
            buffered.reset();
        }
        return buffered;
    }

    /**
     * Opens a UTF-8 file whose values are separated by commas. Bytes that are not UTF-8 become {@link #UNDECODABLE}
     * rather than failing the read, so that the caller can tell on which line they are (a decoder that reports them
     * fails while reading ahead, lines before the record at fault).
     */
    public static CsvRecordReader open(Path file) throws IOException {
        return open(file, CsvDelimiter.COMMA);
    }

    /** As {@link #open(Path)}, for values separated by {@code delimiter}. */
    public static CsvRecordReader open(Path file, CsvDelimiter delimiter) throws IOException {
        return new CsvRecordReader(utf8(file), delimiter);
    }

    /** A reader of a UTF-8 file that turns bytes that are not UTF-8 into {@link #UNDECODABLE}. */
    static Reader utf8(Path file) throws IOException {
        return new InputStreamReader(Files.newInputStream(file), StandardCharsets.UTF_8);
    }

    /** Reads comma-separated values from a character stream, e.g. a resource already decoded. */
    public static CsvRecordReader of(Reader reader) throws IOException {
        return of(reader, CsvDelimiter.COMMA);
    }

    /** Reads values separated by {@code delimiter} from a character stream. */
    public static CsvRecordReader of(Reader reader, CsvDelimiter delimiter) throws IOException {
        return new CsvRecordReader(reader, delimiter);
    }

    /**
     * The next record, or empty at the end of the text.
     *
     * @throws CsvSyntaxException when the record is not valid CSV (e.g. a quoted value never closed)
     */
    public Optional<NumberedRecord> next() {
        // The parser has consumed every line up to the end of the previous record; this one starts on the next.
        long line = parser.getCurrentLineNumber() + 1;
        try {
            if (!records.hasNext()) {
                return Optional.empty();
            }
            return Optional.of(new NumberedRecord(line, records.next().toList()));
        } catch (UncheckedIOException | IllegalStateException e) {
            throw new CsvSyntaxException(line, describe(e, delimiter), e);
        }
    }

    private static String describe(Throwable e, CsvDelimiter delimiter) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            String m = t.getMessage() == null ? "" : t.getMessage();
            if (m.contains("EOF reached before encapsulated token finished")) {
                return "a quoted value starting here is never closed with a \"";
            }
            // Commons CSV 1.14 says "Invalid character between…", earlier versions "invalid char between…".
            if (m.toLowerCase(Locale.ROOT).contains("between encapsulated token and delimiter")) {
                return "a quoted value is followed by other text before the next " + delimiter.word() + " (write "
                        + "\"\" for a quote inside a quoted value)";
            }
        }
        return "not readable as CSV: " + e.getMessage();
    }

    @Override
    public void close() throws IOException {
        parser.close();
    }
}
