package org.lockstep.transfer;

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

/**
 * Writes every customer to a UTF-8 CSV file (RFC 4180, CRLF between records) whose header {@link CsvImport} reads
 * back unchanged: {@code id}, the field columns, then {@code version}, {@code updated_at} (ISO-8601, UTC) and
 * {@code updated_by}, which an import skips. Rows stream from the database to the file, so any number fits.
 *
 * <p>Cells are {@link FormulaNeutralization neutralized} so that a spreadsheet opening the file runs no value as a
 * formula; {@link CsvImport} undoes it, so every value reads back as it was.
 */
public final class CsvExport {

    /** The header, in column order. */
    public static final List<String> HEADER = header();

    /** At most this many cells are named when a raw export is refused. */
    private static final int NAMED_CELLS = 5;

    /** How values become cells. */
    public enum Cells {
        /** Neutralized against spreadsheet formulas ({@link FormulaNeutralization#neutralize}): for people. */
        NEUTRALIZED,
        /**
         * Exactly the values, for programs. A value that import would read one quote shorter
         * ({@link FormulaNeutralization#changedByRestore}) refuses the export instead.
         */
        RAW
    }

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

    /** Writes the file with {@link Cells#NEUTRALIZED neutralized} cells; see {@link #write(Path, Cells)}. */
    public long write(Path file) throws IOException {
        return write(file, Cells.NEUTRALIZED);
    }

    /**
     * Writes the file. It is written beside the target under a temporary name and moved into place only when
     * complete, so a failure never leaves a half-written file where a good one was.
     *
     * @return the number of customers written
     * @throws IOException when the file cannot be written
     * @throws IllegalArgumentException with {@link Cells#RAW}, when a value starts with {@code '} before a formula
     *         character, which a later import would read without that quote; nothing is written then
     * @throws org.lockstep.domain.StoreUnavailableException when the database cannot be reached or fails
     */
    public long write(Path file, Cells cells) throws IOException {
        Path target = file.toAbsolutePath();
        // Not Files.createTempFile: its owner-only permissions would stay on the finished file.
        Path temp = Files.createFile(target.resolveSibling("." + target.getFileName() + "."
                + ProcessHandle.current().pid() + "-" + System.nanoTime() + ".part"));
        try {
            long count;
            try (Writer out = Files.newBufferedWriter(temp, StandardCharsets.UTF_8);
                    CSVPrinter printer = new CSVPrinter(out, CSVFormat.RFC4180)) {
                printer.printRecord(HEADER);
                count = writeRows(printer, cells);
            }
            Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            return count;
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    private long writeRows(CSVPrinter printer, Cells cells) throws IOException {
        long[] count = {0};
        List<String> ambiguous = new ArrayList<>();
        long[] ambiguousCount = {0};
        try {
            store.forEachCustomer(c -> {
                List<String> values = row(c);
                if (cells == Cells.RAW) {
                    for (int i = 0; i < values.size(); i++) {
                        if (FormulaNeutralization.changedByRestore(values.get(i))
                                && ambiguousCount[0]++ < NAMED_CELLS) {
                            ambiguous.add("customer " + c.id() + " " + HEADER.get(i));
                        }
                    }
                }
                try {
                    printer.printRecord(cells == Cells.RAW ? values
                            : values.stream().map(FormulaNeutralization::neutralize).toList());
                    count[0]++;
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        if (ambiguousCount[0] > 0) {
            throw new IllegalArgumentException("--raw: " + ambiguousCount[0] + " value" + (ambiguousCount[0] == 1
                    ? " starts" : "s start") + " with ' before a formula character (" + String.join(", ", ambiguous)
                    + (ambiguousCount[0] > NAMED_CELLS ? ", …" : "") + "), which import would read without that "
                    + "quote; export without --raw; nothing was written");
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
