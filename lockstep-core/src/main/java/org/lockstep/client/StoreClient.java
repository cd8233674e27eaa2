package org.lockstep.client;

import org.lockstep.domain.ChangeFeed;
import org.lockstep.domain.CustomerRepository;
import org.lockstep.domain.HistoryRepository;
import org.lockstep.domain.LeaseRepository;
import org.lockstep.domain.MessageRepository;
import org.lockstep.domain.Operator;
import org.lockstep.domain.PresenceRepository;
import org.lockstep.domain.TrainingRecords;
import org.lockstep.lab.LabRunner;
import org.lockstep.report.ConflictReports;

/**
 * One client of the shared store, acting as one operator in one client session: everything Lockstep's screens read
 * and write, behind the ports the core defines. The customer, lease, presence and message repositories act as the
 * same session ({@link CustomerRepository#sessionId()}); each editor derives a writer id of its own from it. The store
 * module implements it on PostgreSQL (embedded, or a team's server by URL); the application's composition root opens
 * one and hands it to the desktop, and the desktop's tests use the same implementation on a test database, so the
 * wiring of repositories exists once.
 *
 * <p>Calls of the repositories block (off the JavaFX thread); what each may throw is the port's own.
 */
public interface StoreClient {

    /** Who this client is to the database: the name its writes are recorded under, and whether it may break locks. */
    Operator operator();

    /** Customers, acting as the operator in this client's session. */
    CustomerRepository customers();

    /** The customers' version history, as the database's triggers wrote it. */
    HistoryRepository history();

    /** The leases (locks for editing), acting as the same session as {@link #customers()}. */
    LeaseRepository leases();

    /** Who has which customer open, acting as the same session. */
    PresenceRepository presence();

    /** Messages to and from this session's writers. */
    MessageRepository messages();

    /** A feed of committed changes for {@code listener}, not started; the caller starts and closes it. */
    ChangeFeed changeFeed(ChangeFeed.Listener listener);

    /** The contention lab, on the same store. */
    LabRunner lab();

    /** The conflict report (Tools → Conflict report). */
    ConflictReports reports();

    /** The trainer demo's record of what each exercise taught. */
    TrainingRecords trainingRecords();

    /**
     * Another client of the same store, acting as {@code operator} in a session and on connections of its own, as if
     * at another machine (the trainer demo's Alice and Bob). Closing it closes only its own connections.
     *
     * @param application how the store names the client's connections (PostgreSQL's {@code application_name})
     */
    StoreClient anotherClient(String operator, String application);

    /** Lets go of this client's connections (an embedded server stops once no client uses it); not used afterwards. */
    void close();
}
