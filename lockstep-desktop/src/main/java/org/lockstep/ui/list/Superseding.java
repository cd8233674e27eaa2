package org.lockstep.ui.list;

import org.lockstep.domain.CancelSignal;

/**
 * The reads of one kind (pages, or counts) that the list has in flight, where only the latest matters: starting a
 * new one supersedes the others, whose answers are then dropped and whose statements the database stops working on
 * (the {@link CancelSignal}). So an operator typing "berg" never waits for the server to finish searching "b", "be"
 * and "ber" first. Confined to the FX thread, like the view model.
 */
final class Superseding {

    /** What a read started under: its generation, and the signal that cancels it. */
    record Ticket(long generation, CancelSignal cancel) {
    }

    private long generation;
    private CancelSignal inFlight = new CancelSignal();

    /** Cancels every read started so far and returns the ticket of the next one. */
    Ticket supersede() {
        inFlight.cancel();
        inFlight = new CancelSignal();
        return new Ticket(++generation, inFlight);
    }

    /** A ticket for one more read of the current generation (the next page of the same query). */
    Ticket current() {
        return new Ticket(generation, inFlight);
    }

    /** Whether nothing superseded the read of {@code ticket}: its answer is still wanted. */
    boolean isCurrent(Ticket ticket) {
        return ticket.generation() == generation;
    }
}
