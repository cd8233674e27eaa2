package org.lockstep.domain;

/**
 * A stream of committed changes, as they happen. Implementations deliver events in commit order on their own thread;
 * after a lost connection they reconnect by themselves and announce it through {@link Listener#resync()}, since the
 * changes sent meanwhile are gone and whatever the client shows must be read again.
 */
public interface ChangeFeed extends AutoCloseable {

    /** Whether the feed is connected. */
    enum Status { CONNECTING, LIVE, RECONNECTING, CLOSED }

    /** Hears the feed. Calls come from the feed's thread, one at a time. */
    interface Listener {
        /** A batch of changes, in order (everything pending when the feed last woke). */
        void changes(java.util.List<ChangeEvent> events);

        /** The feed's status changed. */
        default void status(Status status) {
        }

        /** The feed reconnected after a loss: notifications may have been missed, read again what is shown. */
        default void resync() {
        }

        /**
         * Why the feed cannot connect, in the operator's words, when the store can tell (the server's disk is full,
         * the server has no connection left): told while {@link Status#RECONNECTING}, again when the reason
         * changes, and as an empty text when a later attempt fails for a reason it cannot tell. The next
         * {@link Status#LIVE} ends it.
         */
        default void cannotConnect(String why) {
        }
    }

    /** Starts listening; returns at once. */
    void start();

    /** The current status. */
    Status status();

    /** Stops listening and closes the connection. */
    @Override
    void close();
}
