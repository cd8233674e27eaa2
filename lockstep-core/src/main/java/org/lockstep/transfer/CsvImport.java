package org.lockstep.transfer;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import org.lockstep.transfer.CsvRecordReader.CsvSyntaxException;
import org.lockstep.transfer.CsvRecordReader.NumberedRecord;
import org.lockstep.domain.FieldParser;
import org.lockstep.transfer.CustomerBulkStore.ImportCounts;
import org.lockstep.transfer.CustomerBulkStore.ImportKey;
import org.lockstep.transfer.CustomerBulkStore.ImportRow;

/**
 * Imports customers from a CSV file, all or nothing. A first pass reads and validates every record and checks
 * external refs against each other and against the database, collecting every problem; only when there is none
 * does a second pass stream the rows into one transaction ({@link CustomerBulkStore#write}). Neither pass holds the
 * file's rows in memory, so files of any size import; the file must therefore be one that can be read twice. The
 * values may be separated by commas, semicolons, tabs or pipes: the header line tells which
 * ({@link DelimiterDetection}), or the caller does.
 */
public final class CsvImport {

    private final CustomerBulkStore store;
    private final FieldParser parser;

    /** An import reading amounts in the neutral format ({@code 1,500.50}). @param store where the rows go */
    public CsvImport(CustomerBulkStore store) {
        this(store, FieldParser.NEUTRAL);
    }

    /**
     * @param store  where the rows go
     * @param parser reads the cells ({@code --locale}): text in NFC, amounts in its locale's separators
     */
    public CsvImport(CustomerBulkStore store, FieldParser parser) {
        this.store = store;
        this.parser = parser;
    }

    /**
     * A problem that keeps the import from running.
     *
     * @param line    the line of the file where the record starts (1 for the header)
     * @param message what is wrong, naming the field
     */
    public record Problem(long line, String message) {
        @Override
        public String toString() {
            return "line " + line + ": " + message;
        }
    }

    /** How an import ended. */
    public sealed interface Outcome {
    }

    /** Every row was written. */
    public record Imported(ImportCounts counts) implements Outcome {
    }

    /** Nothing was written because of these problems, in line order. */
    public record Rejected(List<Problem> problems) implements Outcome {
    }

    /** Where a row's external ref came from, for duplicate and database checks. */
    private record RefUse(long line, Long id) {
    }

    /**
     * Imports a file, telling from its header line which delimiter separates the values ({@link DelimiterDetection}).
     *
     * @param file     a UTF-8 CSV file with a header line, with or without a byte-order mark
     * @param mappings {@code SOURCE=FIELD} texts, see {@link ImportMapping#of}
     * @param key      with a key, rows whose key names an existing customer update it; the rest are inserted
     * @return {@link Rejected} also when the header does not tell the delimiter
     * @throws IllegalArgumentException when the file is empty, or a mapping or the key does not fit the header
     * @throws IOException              when the file cannot be read
     * @throws org.lockstep.domain.StoreUnavailableException when the database cannot be reached or fails
     */
    public Outcome run(Path file, List<String> mappings, ImportKey key) throws IOException {
        DelimiterDetection.Result detected = DelimiterDetection.detect(file,
                header -> ImportMapping.unknownColumns(header, mappings));
        if (detected instanceof DelimiterDetection.Undecided undecided) {
            return new Rejected(List.of(new Problem(1, undecided.message())));
        }
        return run(file, mappings, key, ((DelimiterDetection.Detected) detected).delimiter());
    }

    /**
     * Imports a file whose values are separated by {@code delimiter}; otherwise as
     * {@link #run(Path, List, ImportKey)}.
     */
    public Outcome run(Path file, List<String> mappings, ImportKey key, CsvDelimiter delimiter) throws IOException {
        List<Problem> problems = new ArrayList<>();
        try (CsvRecordReader reader = CsvRecordReader.open(file, delimiter)) {
            ImportMapping mapping = mapping(reader, file, mappings, key, delimiter);
            mapping.headerProblems().forEach(p -> problems.add(new Problem(1, p)));
            validateRows(reader, mapping, key, problems);
        }
        if (!problems.isEmpty()) {
            problems.sort(Comparator.comparingLong(Problem::line));
            return new Rejected(List.copyOf(problems));
        }
        try (CsvRecordReader reader = CsvRecordReader.open(file, delimiter)) {
            ImportMapping mapping = mapping(reader, file, mappings, key, delimiter);
            return new Imported(store.write(key, rows(reader, mapping)));
        }
    }

    private ImportMapping mapping(CsvRecordReader reader, Path file, List<String> mappings, ImportKey key,
            CsvDelimiter delimiter) {
        NumberedRecord header = reader.next().orElseThrow(() -> new IllegalArgumentException(file
                + " is empty; expected a header line naming the columns"));
        return ImportMapping.of(header.values(), mappings, key, parser, delimiter);
    }

    private void validateRows(CsvRecordReader reader, ImportMapping mapping, ImportKey key, List<Problem> problems) {
        Map<String, RefUse> refs = new HashMap<>();
        Map<Long, Long> idLines = new HashMap<>();
        try {
            for (Optional<NumberedRecord> r = reader.next(); r.isPresent(); r = reader.next()) {
                if (r.get().blank()) {
                    continue;
                }
                ImportMapping.Converted row = mapping.convert(r.get());
                row.problems().forEach(p -> problems.add(new Problem(row.line(), p)));
                if (row.id() != null) {
                    Long first = idLines.putIfAbsent(row.id(), row.line());
                    if (first != null) {
                        problems.add(new Problem(row.line(), "id: " + row.id() + " is also on line " + first));
                    }
                }
                String ref = row.data() == null ? null : row.data().externalRef();
                if (ref != null) {
                    RefUse first = refs.putIfAbsent(ref, new RefUse(row.line(), row.id()));
                    if (first != null) {
                        problems.add(new Problem(row.line(), "external_ref: \"" + ref + "\" is also on line "
                                + first.line()));
                    }
                }
            }
        } catch (CsvSyntaxException e) {
            problems.add(new Problem(e.line(), e.getMessage()));
            return;
        }
        checkRefsAgainstDatabase(refs, key, problems);
    }

    /** An external ref is unique: a row may not take one that another customer holds, unless it updates that one. */
    private void checkRefsAgainstDatabase(Map<String, RefUse> refs, ImportKey key, List<Problem> problems) {
        if (key == ImportKey.EXTERNAL_REF || refs.isEmpty()) {
            return;
        }
        Map<String, Long> owners = store.idsByExternalRef(refs.keySet());
        owners.forEach((ref, owner) -> {
            RefUse use = refs.get(ref);
            if (key == ImportKey.NONE || !owner.equals(use.id())) {
                problems.add(new Problem(use.line(), "external_ref: \"" + ref + "\" is already used by customer "
                        + owner + (key == ImportKey.NONE ? " (import with --key external_ref to update it)" : "")));
            }
        });
    }

    /** The rows of the second pass; the first pass found them valid. */
    private static Iterator<ImportRow> rows(CsvRecordReader reader, ImportMapping mapping) {
        return new Iterator<>() {
            private ImportRow next = advance();

            private ImportRow advance() {
                for (Optional<NumberedRecord> r = reader.next(); r.isPresent(); r = reader.next()) {
                    if (r.get().blank()) {
                        continue;
                    }
                    ImportMapping.Converted row = mapping.convert(r.get());
                    if (!row.problems().isEmpty()) {
                        throw new IllegalStateException("The file changed while it was imported (line " + row.line()
                                + ": " + row.problems().get(0) + "); nothing was imported");
                    }
                    return new ImportRow(row.line(), row.id(), row.version(), row.data());
                }
                return null;
            }

            @Override
            public boolean hasNext() {
                return next != null;
            }

            @Override
            public ImportRow next() {
                if (next == null) {
                    throw new NoSuchElementException();
                }
                ImportRow current = next;
                next = advance();
                return current;
            }
        };
    }
}
