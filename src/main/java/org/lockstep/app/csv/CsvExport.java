package org.lockstep.app.csv;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.FieldParser;
import org.lockstep.store.CustomerBulkStore;

/**
 * Writes every customer to a UTF-8 CSV file (RFC 4180, CRLF between records) whose header {@link CsvImport} reads
 * back unchanged: {@code id}, the field columns, then {@code version}, {@code updated_at} (ISO-8601, UTC) and
 * {@code updated_by}, which an import skips. Rows stream from the database to the file, so any number fits.
 */
public final class CsvExport {

    /** The header, in column order. */
    public static final List<String> HEADER = header();

    private final CustomerBulkStore store;

    /** @param store where the customers come from */
    public CsvExport(CustomerBulkStore store) {
        this.store = store;
    }

    private static List<String> header() {
        List<String> names = new ArrayList<>();
        names.add("id");
        CustomerField.all().forEach(f -> names.add(f.column()));
        names.addAll(List.of("version", "updated_at", "updated_by"));
        return List.copyOf(names);
    }

    /**
     * Writes the file. It is written beside the target under a temporary name and moved into place only when
     * complete, so a failure never leaves a half-written file where a good one was.
     *
     * @return the number of customers written
     * @throws IOException when the file cannot be written
     * @throws org.lockstep.domain.StoreUnavailableException when the database cannot be reached or fails
     */
    public long write(Path file) throws IOException {
        Path target = file.toAbsolutePath();
        // Not Files.createTempFile: its owner-only permissions would stay on the finished file.
        Path temp = Files.createFile(target.resolveSibling("." + target.getFileName() + "."
                + ProcessHandle.current().pid() + "-" + System.nanoTime() + ".part"));
        try {
            long count;
            try (Writer out = Files.newBufferedWriter(temp, StandardCharsets.UTF_8);
                 CSVPrinter printer = new CSVPrinter(out, CSVFormat.RFC4180)) {
                printer.printRecord(HEADER);
                count = writeRows(printer);
            }
            Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            return count;
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    private long writeRows(CSVPrinter printer) throws IOException {
        long[] count = {0};
        try {
            store.forEachCustomer(c -> {
                try {
                    printer.printRecord(row(c));
                    count[0]++;
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        return count[0];
    }

    private static List<String> row(Customer c) {
        List<String> values = new ArrayList<>(HEADER.size());
        values.add(Long.toString(c.id()));
        CustomerField.all().forEach(f -> values.add(FieldParser.NEUTRAL.format(c.data().get(f))));
        values.add(Long.toString(c.version()));
        values.add(c.updatedAt().toString());
        values.add(c.updatedBy() == null ? "" : c.updatedBy());
        return values;
    }
}
