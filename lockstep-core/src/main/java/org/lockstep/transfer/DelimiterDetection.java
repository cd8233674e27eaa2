package org.lockstep.transfer;

import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.lockstep.transfer.CsvRecordReader.CsvSyntaxException;
import org.lockstep.transfer.CsvRecordReader.NumberedRecord;

/**
 * Tells from a file's header line which {@link CsvDelimiter} separates its values, or that it cannot tell.
 *
 * <p>The header is the one line whose every name is known, so it decides: each candidate that occurs in the header
 * outside quoted names is tried, and the candidate that reads the header as known names only is the delimiter. A
 * header with one candidate uses it (an unknown name is then reported as such); with none it is one column, read
 * as comma-separated. When several candidates occur and not exactly one of them reads known names only, the file is
 * ambiguous and the operator must say which with {@code --delimiter}: a guess might split "Straße, Nr." into two
 * columns and store half an address in the wrong field.
 */
public final class DelimiterDetection {

    /** Longest header read, in characters: a stray quote must not make detection read a whole large file. */
    static final int MAX_HEADER_CHARS = 1 << 20;

    private DelimiterDetection() {
    }

    /** What detection found. */
    public sealed interface Result {
    }

    /** The file's values are separated by this. */
    public record Detected(CsvDelimiter delimiter) implements Result {
    }

    /** Several delimiters are possible; the message says which and why, for the header's line. */
    public record Undecided(String message) implements Result {
    }

    /**
     * Detects the delimiter of a UTF-8 file.
     *
     * @param unknown the names of a header that no field or mapping accounts for (empty when all are known)
     * @throws IOException when the file cannot be read
     */
    public static Result detect(Path file, Function<List<String>, List<String>> unknown) throws IOException {
        try (Reader reader = CsvRecordReader.utf8(file)) {
            return detect(headerLine(reader), unknown);
        }
    }

    /**
     * Detects the delimiter of a header line.
     *
     * @param header  the header's text, without the line break that ends it
     * @param unknown as for {@link #detect(Path, Function)}
     */
    public static Result detect(String header, Function<List<String>, List<String>> unknown) {
        Map<CsvDelimiter, Integer> counts = countOutsideQuotes(header);
        if (counts.isEmpty()) {
            return new Detected(CsvDelimiter.COMMA);
        }
        if (counts.size() == 1) {
            return new Detected(counts.keySet().iterator().next());
        }
        List<CsvDelimiter> fitting = new ArrayList<>();
        List<String> misfits = new ArrayList<>();
        for (CsvDelimiter d : counts.keySet()) {
            Optional<List<String>> names = names(header, d);
            List<String> strangers = names.map(unknown).orElse(null);
            if (strangers != null && strangers.isEmpty()) {
                fitting.add(d);
            } else {
                misfits.add("by " + d.plural() + ", " + (strangers == null ? "the header is not readable"
                        : ColumnLookup.quoted(strangers) + (strangers.size() == 1 ? " is not a known column"
                                : " are not known columns")));
            }
        }
        if (fitting.size() == 1) {
            return new Detected(fitting.get(0));
        }
        String which = "header: cannot tell whether the columns are separated by " + alternatives(counts) + ": ";
        String why = fitting.isEmpty() ? String.join("; ", misfits)
                : "more than one reading names known columns only";
        return new Undecided(which + why + "; say which with --delimiter");
    }

    /** The header's names read with {@code d}, or empty when the header is not valid CSV that way. */
    private static Optional<List<String>> names(String header, CsvDelimiter d) {
        try (CsvRecordReader reader = CsvRecordReader.of(new StringReader(header), d)) {
            return reader.next().map(NumberedRecord::values);
        } catch (CsvSyntaxException | IOException e) {
            return Optional.empty();
        }
    }

    /** How often each candidate occurs outside double-quoted text; candidates that do not occur are left out. */
    static Map<CsvDelimiter, Integer> countOutsideQuotes(String header) {
        Map<CsvDelimiter, Integer> counts = new EnumMap<>(CsvDelimiter.class);
        boolean quoted = false;
        for (int i = 0; i < header.length(); i++) {
            char c = header.charAt(i);
            if (c == '"') {
                quoted = !quoted; // "" inside a quoted value toggles twice
            } else if (!quoted) {
                for (CsvDelimiter d : CsvDelimiter.values()) {
                    if (c == d.character()) {
                        counts.merge(d, 1, Integer::sum);
                    }
                }
            }
        }
        return counts;
    }

    /**
     * The first record's text: up to the first line break outside double quotes (a quoted name may span lines),
     * after a byte-order mark, at most {@link #MAX_HEADER_CHARS} characters.
     */
    static String headerLine(Reader reader) throws IOException {
        Reader in = CsvRecordReader.withoutByteOrderMark(reader);
        StringBuilder line = new StringBuilder();
        boolean quoted = false;
        for (int c = in.read(); c >= 0 && line.length() < MAX_HEADER_CHARS; c = in.read()) {
            if (c == '"') {
                quoted = !quoted;
            } else if (!quoted && (c == '\n' || c == '\r')) {
                break;
            }
            line.append((char) c);
        }
        return line.toString();
    }

    private static String alternatives(Map<CsvDelimiter, Integer> counts) {
        List<String> words = counts.entrySet().stream()
                .map(e -> e.getKey().plural() + " (" + e.getValue() + ")").toList();
        return String.join(", ", words.subList(0, words.size() - 1)) + " or " + words.get(words.size() - 1);
    }
}
