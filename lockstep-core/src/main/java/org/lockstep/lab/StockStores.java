package org.lockstep.lab;

/** Opens a {@link StockStore} with a given number of connections; the composition root decides where they go. */
@FunctionalInterface
public interface StockStores {

    /**
     * Opens a store able to hold {@code connections} sessions at once.
     *
     * @throws RuntimeException with a readable message when the database cannot be reached
     */
    StockStore open(int connections);

    /**
     * How many connections could be opened now, checked before {@link #open(int)}. Unlimited unless the stores are
     * database connections.
     *
     * @throws RuntimeException with a readable message when the database cannot be reached
     */
    default ConnectionRoom room() {
        return ConnectionRoom.UNLIMITED;
    }
}
