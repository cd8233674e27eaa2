package org.lockstep.server;

import org.lockstep.store.JdbiCustomerBulkStore;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Jdbi;
import org.lockstep.transfer.CsvRecordReader;
import org.lockstep.transfer.CsvRecordReader.NumberedRecord;
import org.lockstep.transfer.ImportMapping;
import org.lockstep.domain.CustomerData;
import org.lockstep.transfer.CustomerBulkStore;
import org.lockstep.transfer.CustomerBulkStore.ImportKey;

/**
 * The sample customers Lockstep loads on first start, so that a new user sees a working editor: the 59 customers
 * of the Chinook sample database ({@code resources/chinook-customers.csv}, MIT licence in
 * {@code resources/LICENSE-chinook.txt}). Its columns map as the import would with {@code --map}:
 * {@code first_name} and {@code last_name} together fill {@code contact_name}, {@code state} fills {@code region},
 * {@code customer_id} becomes {@code external_ref}, and the other columns fill the fields of their name.
 */
public final class SampleData {

    /** The classpath resource holding the sample. */
    public static final String RESOURCE = "/org/lockstep/resources/chinook-customers.csv";

    /** The column mappings applied to the sample's header. */
    public static final List<String> MAPPINGS = List.of(
            "customer_id=external_ref", "first_name=contact_name", "last_name=contact_name", "state=region");

    // The advisory lock that serialises first-start loads: "Lockstep" in ASCII, unlikely to clash with other users
    // of advisory locks on a shared server.
    static final long LOCK_KEY = 0x4C6F636B73746570L;

    private SampleData() {
    }

    /**
     * Loads the sample when the {@code customer} table is empty, in one transaction that takes an advisory lock and
     * only then checks for emptiness, so that two clients starting at once on an empty database load it once.
     *
     * @param jdbi the database
     * @param user the operator's name, recorded as {@code updated_by}
     * @return whether this call loaded the sample
     * @throws org.lockstep.domain.StoreUnavailableException when the database cannot be reached or fails
     */
    public static boolean loadIfEmpty(Jdbi jdbi, String user) {
        JdbiCustomerBulkStore store = new JdbiCustomerBulkStore(jdbi, user);
        if (!store.isEmpty()) {
            return false; // the usual case: skip reading the file
        }
        return store.insertIfEmpty(LOCK_KEY, customers());
    }

    /** The sample's customers, validated and normalized, in file order. */
    public static List<CustomerData> customers() {
        try (InputStream in = SampleData.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("The sample customers " + RESOURCE + " are missing from the build");
            }
            try (CsvRecordReader reader = CsvRecordReader.of(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                ImportMapping mapping = ImportMapping.of(reader.next().orElseThrow().values(), MAPPINGS,
                        ImportKey.NONE);
                if (!mapping.headerProblems().isEmpty()) {
                    throw new IllegalStateException("The sample customers' header is broken: "
                            + mapping.headerProblems());
                }
                List<CustomerData> rows = new ArrayList<>();
                for (Optional<NumberedRecord> r = reader.next(); r.isPresent(); r = reader.next()) {
                    if (r.get().blank()) {
                        continue;
                    }
                    ImportMapping.Converted row = mapping.convert(r.get());
                    if (!row.problems().isEmpty()) {
                        throw new IllegalStateException("The sample customers are broken at line " + row.line()
                                + ": " + row.problems());
                    }
                    rows.add(row.data());
                }
                return rows;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the sample customers: " + e.getMessage(), e);
        }
    }
}
