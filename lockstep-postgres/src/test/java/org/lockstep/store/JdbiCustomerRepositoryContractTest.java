package org.lockstep.store;

import org.lockstep.domain.CustomerRepository;
import org.lockstep.server.Database;
import org.lockstep.testing.CustomerRepositoryContractTest;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.FreshDatabase;

/** The customer repository's contract, kept by the Jdbi store: one database for the class's cases. */
@DatabaseTest
class JdbiCustomerRepositoryContractTest extends CustomerRepositoryContractTest {

    @FreshDatabase
    static Database db;

    @Override
    protected CustomerRepository client(String user) {
        return new JdbiCustomerRepository(db.jdbi(), user);
    }
}
