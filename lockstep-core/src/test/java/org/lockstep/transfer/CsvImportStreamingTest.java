package org.lockstep.transfer;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.FilterReader;
import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lockstep.domain.Customer;
import org.lockstep.domain.FieldParser;
import org.lockstep.transfer.CustomerBulkStore.ImportCounts;
import org.lockstep.transfer.CustomerBulkStore.ImportKey;
import org.lockstep.transfer.CustomerBulkStore.ImportRow;

/**
 * An import holds a bounded part of its file, whatever the file's size (issue 28: 200,000 rows peaked at 883 MB):
 * the first pass keeps the rows' keys in runs (here of 100, so that a 5,000-row file is checked from disk) and asks
 * about a thousand refs at a time, finding every problem an in-memory check finds; the second hands the store one
 * row at a time, read from the file only as the store asks for it. The store is a stub that says what it is asked;
 * the database's side is {@code ImportCommandTest} (lockstep-cli) and {@code JdbiCustomerBulkStoreTest}.
 */
class CsvImportStreamingTest {

    private static final String HEADER = "external_ref,company,city\n";

    @TempDir
    Path dir;

    /** The store's side: answers which refs are taken, and takes the rows; nothing else is expected of it. */
    private static final class StubStore implements CustomerBulkStore {
        final Map<String, Long> taken;
        final List<Integer> questionSizes = new ArrayList<>();
        Consumer<Iterator<ImportRow>> writer = rows -> rows.forEachRemaining(r -> {});

        StubStore(Map<String, Long> taken) {
            this.taken = taken;
        }

        @Override
        public ImportCounts write(ImportKey key, Iterator<ImportRow> rows) {
            writer.accept(rows);
            return new ImportCounts(0, 0, 0);
        }

        @Override
        public Map<String, Long> idsByExternalRef(Collection<String> refs) {
            questionSizes.add(refs.size());
            Map<String, Long> owners = new java.util.HashMap<>();
            refs.stream().filter(taken::containsKey).forEach(r -> owners.put(r, taken.get(r)));
            return owners;
        }

        @Override
        public void forEachCustomer(Consumer<Customer> action) {
            throw new AssertionError("An import does not export");
        }
    }

    @Test
    void everyRepeatedAndTakenRefOfAFileCheckedFromDiskIsFoundWithItsLineAskingAThousandAtATime() throws Exception {
        StringBuilder csv = new StringBuilder(HEADER);
        for (int i = 1; i <= 5_000; i++) {
            // Line i + 1. R-00010 again on line 4,000; R-04500 is another customer's.
            csv.append(i == 3_999 ? "R-00010" : String.format("R-%05d", i)).append(",Company ").append(i)
                    .append(",Lisboa\n");
        }
        Path file = Files.writeString(dir.resolve("refs.csv"), csv);
        StubStore store = new StubStore(Map.of("R-04500", 77L));

        CsvImport.Outcome outcome = new CsvImport(store, FieldParser.NEUTRAL, 100).run(file, List.of(),
                ImportKey.NONE, CsvDelimiter.COMMA);

        assertThat(outcome).isEqualTo(new CsvImport.Rejected(List.of(
                new CsvImport.Problem(4_000, "external_ref: \"R-00010\" is also on line 11"),
                new CsvImport.Problem(4_501, "external_ref: \"R-04500\" is already used by customer 77 (import with"
                        + " --key external_ref to update it)"))));
        assertThat(store.questionSizes).hasSize(5).allMatch(n -> n <= CsvImport.REFS_PER_QUESTION);
        assertThat(store.questionSizes.stream().mapToInt(Integer::intValue).sum()).isEqualTo(4_999);
    }

    @Test
    void theSecondPassReadsTheFileOnlyAsTheStoreAsksForRows() throws Exception {
        StringBuilder csv = new StringBuilder(HEADER);
        for (int i = 1; i <= 10_000; i++) {
            csv.append(String.format("S-%05d,Company %d with a longer name,Lisboa%n", i, i));
        }
        CountingReader counting = new CountingReader(new StringReader(csv.toString()));
        List<Long> readAfterEachRow = new ArrayList<>();
        try (CsvRecordReader reader = CsvRecordReader.of(counting)) {
            ImportMapping mapping = ImportMapping.of(reader.next().orElseThrow().values(), List.of(), ImportKey.NONE);
            Iterator<ImportRow> rows = CsvImport.rows(reader, mapping);
            for (int i = 0; i < 10 && rows.hasNext(); i++) {
                rows.next();
                readAfterEachRow.add(counting.read);
            }
            // Ten rows in, the reader has read its buffers' worth (8 KB each for the file's reader and the CSV
            // parser's), not the file's 520 KB.
            assertThat(readAfterEachRow).allMatch(n -> n <= 3 * 8_192);
            int rest = 0;
            while (rows.hasNext()) {
                rows.next();
                rest++;
            }
            assertThat(rest).isEqualTo(9_990);
        }
        assertThat(counting.read).isEqualTo(csv.length());
    }

    /** A reader that counts the characters taken from it. */
    private static final class CountingReader extends FilterReader {
        long read;

        CountingReader(Reader in) {
            super(in);
        }

        @Override
        public int read(char[] buffer, int off, int len) throws IOException {
            int n = super.read(buffer, off, len);
            if (n > 0) {
                read += n;
            }
            return n;
        }

        @Override
        public int read() throws IOException {
            int c = super.read();
            if (c >= 0) {
                read++;
            }
            return c;
        }
    }
}
