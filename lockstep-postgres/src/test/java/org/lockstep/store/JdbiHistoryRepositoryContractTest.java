package org.lockstep.store;

import org.lockstep.domain.CustomerRepository;
import org.lockstep.domain.HistoryRepository;
import org.lockstep.server.Database;
import org.lockstep.testing.HistoryRepositoryContractTest;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.FreshDatabase;

/**
 * The history repository's contract, kept by the Jdbi store: one database for the class's cases, whose triggers write
 * the history and whose clock stamps it. What only PostgreSQL shows — writes by psql under the database role, rows
 * written before V16 with their own old row, the timeline's story — stays in {@code HistoryTest},
 * {@code LeanCustomerTriggersTest} and {@code TimelineFromTheDatabaseTest}.
 */
@DatabaseTest
class JdbiHistoryRepositoryContractTest extends HistoryRepositoryContractTest {

    @FreshDatabase
    static Database db;

    @Override
    protected CustomerRepository client(String user) {
        return new JdbiCustomerRepository(db.jdbi(), user);
    }

    @Override
    protected HistoryRepository history() {
        return new JdbiHistoryRepository(db.jdbi());
    }
}
