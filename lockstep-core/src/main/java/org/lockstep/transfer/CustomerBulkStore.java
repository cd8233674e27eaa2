package org.lockstep.transfer;

import java.util.Collection;
import java.util.Iterator;
import java.util.Map;
import java.util.function.Consumer;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerData;

/**
 * Where CSV transfer reads and writes customers in bulk: an import written in one transaction, and a streaming read of
 * every customer for export. The store implements it ({@code store.JdbiCustomerBulkStore}); {@link CsvImport} and
 * {@link CsvExport} are plain code on top, so a screen can offer them as the command line does.
 *
 * <p>An import's update raises the version by one and stamps who and when like any save, so an operator editing the
 * same customer meanwhile gets a conflict on their next save instead of silently overwriting the imported values
 * (PoEAA, Optimistic Offline Lock).
 */
public interface CustomerBulkStore {

    /** Which column decides whether an imported row updates an existing customer. */
    public enum ImportKey {
        /** Every row is a new customer. */
        NONE,
        /** A row whose {@code external_ref} belongs to a customer updates that customer. */
        EXTERNAL_REF,
        /** A row whose {@code id} belongs to a customer updates that customer. */
        ID
    }

    /**
     * One row to import.
     *
     * @param line    the line in the file where the row starts, for messages
     * @param id      the row's {@code id} value when the key is {@link ImportKey#ID}, else {@code null}
     * @param version the row's {@code version} value (as {@code export} writes it) when the file has one, else
     *                {@code null}: a keyed row then updates its customer only if it is still at that version
     * @param data    the values, validated and normalized
     */
    public record ImportRow(long line, Long id, Long version, CustomerData data) {

        /** A row without a version column. */
        public ImportRow(long line, Long id, CustomerData data) {
            this(line, id, null, data);
        }
    }

    /**
     * What an import wrote.
     *
     * @param inserted  new customers
     * @param updated   existing customers whose values were replaced (each one version up)
     * @param unchanged existing customers that already held the row's values; left as they were, version and all
     */
    public record ImportCounts(long inserted, long updated, long unchanged) {
    }

    /**
     * Writes all rows in one transaction: with a key, rows whose key names an existing customer replace its values
     * (version + 1), unless it already holds exactly those values; all other rows are inserted at version 1 with a
     * new id. Either every row is written or, when anything fails, none is. Never repeated: the rows are streamed
     * once.
     *
     * @throws org.lockstep.domain.InvalidCustomerException when the database rejects a value (e.g. an external ref
     *         another customer took meanwhile)
     * @throws org.lockstep.domain.StoreUnavailableException when the database cannot be reached or fails; nothing
     *         was written
     * @throws org.lockstep.domain.OutcomeUnknownException when the connection was lost and whether the import
     *         committed cannot be told
     */
    ImportCounts write(ImportKey key, Iterator<ImportRow> rows);

    /**
     * Which of the given external refs existing customers hold, and their ids.
     *
     * @return ref → customer id, for the refs in use
     * @throws org.lockstep.domain.StoreUnavailableException when the database cannot be reached or fails
     */
    Map<String, Long> idsByExternalRef(Collection<String> refs);

    /**
     * Passes every customer, in id order, to {@code action}, in constant memory and from one snapshot: a customer
     * saved meanwhile appears once, as it was when the read began.
     *
     * @throws org.lockstep.domain.StoreUnavailableException when the database cannot be reached or fails;
     *         exceptions thrown by {@code action} pass through unchanged
     */
    void forEachCustomer(Consumer<Customer> action);
}
