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
 * external refs and ids against each other and against the database, collecting every problem; only when there is
 * none does a second pass stream the rows into one transaction ({@link CustomerBulkStore#write}). Neither pass holds
 * the file's rows in memory: the first keeps each row's key and line in runs of {@link KeyLines#RUN_SIZE}, sorted
 * and spilled to temporary files beyond that, and asks the database about a thousand refs at a time; the second hands
 * the store one row at a time, which it writes in batches. So files of any size import in the same memory (measured:
 * docs/benchmarks.md, "Importing 200,000 rows"), holding only the problems found, each of which is told; the file must
 * be one that can be read twice. The
 * values may be separated by commas, semicolons, tabs or pipes: the header line tells which
 * ({@link DelimiterDetection}), or the caller does.
 */
public final class CsvImport {

    /** External refs asked about in one question to the database (the store's own batch). */
    static final int REFS_PER_QUESTION = 1_000;

    private final CustomerBulkStore store;
    private final FieldParser parser;
    private final int runSize;

    /** An import reading amounts in the neutral format ({@code 1,500.50}). @param store where the rows go */
    public CsvImport(CustomerBulkStore store) {
        this(store, FieldParser.NEUTRAL);
    }

    /**
     * @param store  where the rows go
     * @param parser reads the cells ({@code --locale}): text in NFC, amounts in its locale's separators
     */
    public CsvImport(CustomerBulkStore store, FieldParser parser) {
        this(store, parser, KeyLines.RUN_SIZE);
    }

    /**
     * As {@link #CsvImport(CustomerBulkStore, FieldParser)}, holding at most {@code runSize} rows' keys in memory
     * while it checks them ({@link KeyLines}): tests give a small one, so that a small file is checked from disk.
     */
    CsvImport(CustomerBulkStore store, FieldParser parser, int runSize) {
        this.store = store;
        this.parser = parser;
        this.runSize = runSize;
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

    private void validateRows(CsvRecordReader reader, ImportMapping mapping, ImportKey key, List<Problem> problems)
            throws IOException {
        try (KeyLines refs = new KeyLines(runSize); KeyLines ids = new KeyLines(runSize)) {
            boolean readable = true;
            try {
                for (Optional<NumberedRecord> r = reader.next(); r.isPresent(); r = reader.next()) {
                    if (r.get().blank()) {
                        continue;
                    }
                    ImportMapping.Converted row = mapping.convert(r.get());
                    row.problems().forEach(p -> problems.add(new Problem(row.line(), p)));
                    if (row.id() != null) {
                        ids.add(Long.toString(row.id()), row.line(), null);
                    }
                    String ref = row.data() == null ? null : row.data().externalRef();
                    if (ref != null) {
                        refs.add(ref, row.line(), row.id());
                    }
                }
            } catch (CsvSyntaxException e) {
                problems.add(new Problem(e.line(), e.getMessage()));
                readable = false; // nothing after it can be trusted: no question to the database about it
            }
            ids.merge(first -> {}, (again, first) -> problems.add(new Problem(again.line(), "id: " + again.key()
                    + " is also on line " + first.line())));
            RefsInUse inUse = new RefsInUse(key, readable, problems);
            refs.merge(inUse::check, (again, first) -> problems.add(new Problem(again.line(), "external_ref: \""
                    + again.key() + "\" is also on line " + first.line())));
            inUse.flush();
        }
    }

    /**
     * An external ref is unique: a row may not take one that another customer holds, unless it updates that one.
     * Each ref's first row is asked about in batches of {@value #REFS_PER_QUESTION}, so that no more than a batch is
     * held, however many rows the file has.
     */
    private final class RefsInUse {
        private final ImportKey key;
        private final boolean ask;
        private final List<Problem> problems;
        private final Map<String, KeyLines.Entry> batch = new HashMap<>();

        RefsInUse(ImportKey key, boolean readable, List<Problem> problems) {
            this.key = key;
            this.ask = readable && key != ImportKey.EXTERNAL_REF;
            this.problems = problems;
        }

        void check(KeyLines.Entry firstUse) {
            if (!ask) {
                return;
            }
            batch.put(firstUse.key(), firstUse);
            if (batch.size() == REFS_PER_QUESTION) {
                flush();
            }
        }

        void flush() {
            if (batch.isEmpty()) {
                return;
            }
            Map<String, Long> owners = store.idsByExternalRef(batch.keySet());
            owners.forEach((ref, owner) -> {
                KeyLines.Entry use = batch.get(ref);
                if (key == ImportKey.NONE || !owner.equals(use.id())) {
                    problems.add(new Problem(use.line(), "external_ref: \"" + ref + "\" is already used by customer "
                            + owner + (key == ImportKey.NONE ? " (import with --key external_ref to update it)" : "")));
                }
            });
            batch.clear();
        }
    }

    /**
     * The rows of the second pass, read from {@code reader} one at a time as the store asks for them; the first pass
     * found them valid.
     */
    static Iterator<ImportRow> rows(CsvRecordReader reader, ImportMapping mapping) {
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
