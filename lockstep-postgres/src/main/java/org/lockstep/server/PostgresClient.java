package org.lockstep.server;

import java.util.Objects;
import java.util.UUID;
import org.lockstep.client.StoreClient;
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
import org.lockstep.store.JdbiConflictReports;
import org.lockstep.store.JdbiCustomerRepository;
import org.lockstep.store.JdbiHistoryRepository;
import org.lockstep.store.JdbiLeaseRepository;
import org.lockstep.store.JdbiMessageRepository;
import org.lockstep.store.JdbiPresenceRepository;
import org.lockstep.store.Operators;
import org.lockstep.store.JdbiTrainingRecords;

/**
 * A {@link StoreClient} on an open {@link Database}: the Jdbi repositories of one client session, named
 * {@code <user>-<random UUID>}, so that presence, messages and the list act as it and each editor writes as a writer
 * id derived from it (editing.WriterIds). The one place the desktop's repositories are wired, for the application
 * and for the desktop's tests alike.
 */
public final class PostgresClient implements StoreClient {

    private final Database db;
    private final Runnable close;
    private final Operator operator;
    private final CustomerRepository customers;
    private final HistoryRepository history;
    private final LeaseRepository leases;
    private final PresenceRepository presence;
    private final MessageRepository messages;

    private PostgresClient(Database db, String user, Runnable close) {
        this.db = Objects.requireNonNull(db, "db");
        this.close = Objects.requireNonNull(close, "close");
        // The name the database records for this login: the login itself on a team server, whatever --user said.
        this.operator = Operators.whoami(db.jdbi(), Objects.requireNonNull(user, "user"));
        String name = operator.name();
        String session = name + "-" + UUID.randomUUID();
        this.customers = new JdbiCustomerRepository(db.jdbi(), name, session);
        this.history = new JdbiHistoryRepository(db.jdbi());
        this.leases = new JdbiLeaseRepository(db.jdbi(), name, session);
        this.presence = new JdbiPresenceRepository(db.jdbi(), name, session, JdbiPresenceRepository.DEFAULT_TTL);
        this.messages = new JdbiMessageRepository(db.jdbi(), name, session);
    }

    /**
     * A client of {@code db} acting as {@code user} in a new session.
     *
     * @param close what {@link #close()} does: e.g. {@link Database#closeAndStopIfLast()} for the application's own
     *              database, nothing for a database its opener closes
     */
    public static PostgresClient of(Database db, String user, Runnable close) {
        return new PostgresClient(db, user, close);
    }

    @Override
    public Operator operator() {
        return operator;
    }

    @Override
    public CustomerRepository customers() {
        return customers;
    }

    @Override
    public HistoryRepository history() {
        return history;
    }

    @Override
    public LeaseRepository leases() {
        return leases;
    }

    @Override
    public PresenceRepository presence() {
        return presence;
    }

    @Override
    public MessageRepository messages() {
        return messages;
    }

    @Override
    public ChangeFeed changeFeed(ChangeFeed.Listener listener) {
        return db.changeFeed(listener);
    }

    @Override
    public LabRunner lab() {
        return LabConnections.runner(db);
    }

    @Override
    public ConflictReports reports() {
        return new JdbiConflictReports(db.jdbi());
    }

    @Override
    public TrainingRecords trainingRecords() {
        return new JdbiTrainingRecords(db.jdbi());
    }

    /** {@inheritDoc} On a pool of its own on the same server ({@link Database#anotherClient}). */
    @Override
    public StoreClient anotherClient(String operator, String application) {
        Database client = db.anotherClient(application);
        return new PostgresClient(client, operator, client::close);
    }

    @Override
    public void close() {
        close.run();
    }
}
