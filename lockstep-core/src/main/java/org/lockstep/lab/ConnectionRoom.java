package org.lockstep.lab;

/**
 * How many more connections the database accepts from the lab at this moment, and which setting sets that number.
 * The lab checks it before a run opens one connection per buyer: a run the server cannot hold is refused at once,
 * with the numbers, rather than failing after the pool's 10 s wait for connections that never come.
 *
 * @param free      connections the lab's role may still open now, 0 or more
 * @param limitedBy the setting that sets {@code free}, with the numbers behind it, e.g. {@code "max_connections is
 *                  100: 3 reserved for superusers, 95 in use"}
 */
public record ConnectionRoom(int free, String limitedBy) {

    /** No limit known: a store whose sessions are not database connections. */
    public static final ConnectionRoom UNLIMITED = new ConnectionRoom(Integer.MAX_VALUE, "no limit");

    /** Checks the count. */
    public ConnectionRoom {
        if (free < 0) {
            throw new IllegalArgumentException("free connections must be 0 or more, not " + free);
        }
    }

    /**
     * Refuses a run of {@code workers} buyers, each on a connection of its own, when they do not fit.
     *
     * @throws IllegalArgumentException saying how many connections are free, which setting limits them, and how many
     *                                  workers would fit
     */
    public void require(int workers) {
        if (workers <= free) {
            return;
        }
        throw new IllegalArgumentException((workers == 1 ? "1 worker needs 1 database connection"
                : workers + " workers need " + workers + " database connections") + ", but "
                + (free == 0 ? "none is" : free == 1 ? "only 1 is" : "only " + free + " are") + " free ("
                + limitedBy + ")" + (free == 0 ? "; wait for other clients to disconnect"
                        : "; run with " + free + (free == 1 ? " worker" : " workers or fewer"))
                + ". Nothing ran.");
    }
}
