package org.lockstep.domain;

/**
 * The trainer demo's own customers, each known by its external reference, put back to their starting values before
 * a scenario runs so that every run starts from the same version 1. Calls block: run them off the JavaFX thread.
 */
public interface TrainingRecords {

    /**
     * Deletes any customer whose external reference is {@code start.externalRef()} (its lease goes with it) and
     * inserts {@code start} as a new customer at version 1, in one transaction. The new row has a new id, so the
     * History tab starts empty. Operators following the change feed see the delete and the insert at once.
     *
     * @param start the starting values; {@code start.externalRef()} must not be blank
     * @return the customer as stored
     * @throws StoreUnavailableException when the database cannot be reached; nothing changed then
     */
    Customer reset(CustomerData start);
}
