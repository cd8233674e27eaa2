package org.lockstep.ui;

import java.time.Duration;
import java.util.UUID;
import org.lockstep.domain.TrainingRecords;
import org.lockstep.server.Database;
import org.lockstep.server.LabConnections;
import org.lockstep.store.JdbiConflictReports;
import org.lockstep.store.JdbiCustomerRepository;
import org.lockstep.store.JdbiHistoryRepository;
import org.lockstep.store.JdbiLeaseRepository;
import org.lockstep.store.JdbiMessageRepository;
import org.lockstep.store.JdbiPresenceRepository;
import org.lockstep.store.JdbiTrainingRecords;

/** The UI's backend on a test database, wired as the application wires it. */
public final class PostgresBackends {

    private PostgresBackends() {
    }

    /** The trainer demo's clients on {@code db}: each operator on a pool of their own. */
    public static DemoClients demoClients(Database db, Duration leaseTtl, Duration lockIdle) {
        TrainingRecords records = new JdbiTrainingRecords(db.jdbi());
        return new DemoClients() {
            @Override
            public UiContext.Backend open(String operator) {
                Database client = db.anotherClient("Lockstep demo (" + operator + ")");
                return backend(client, operator, leaseTtl, lockIdle, client::close, null);
            }

            @Override
            public TrainingRecords records() {
                return records;
            }
        };
    }

    /** One operator's backend on {@code db}, as a client session of its own. */
    public static UiContext.Backend backend(Database db, String user, Duration leaseTtl, Duration lockIdle,
            Runnable shutdown, DemoClients demo) {
        String session = user + "-" + UUID.randomUUID();
        return new UiContext.Backend(new JdbiCustomerRepository(db.jdbi(), user, session),
                new JdbiHistoryRepository(db.jdbi()), new JdbiLeaseRepository(db.jdbi(), user, session),
                leaseTtl, lockIdle, db::changeFeed,
                new JdbiPresenceRepository(db.jdbi(), user, session, JdbiPresenceRepository.DEFAULT_TTL),
                new JdbiMessageRepository(db.jdbi(), user, session), LabConnections.runner(db), shutdown, demo,
                new JdbiConflictReports(db.jdbi()));
    }
}
