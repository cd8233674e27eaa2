package org.lockstep.testing;

import org.lockstep.app.Database;
import org.lockstep.domain.CustomerRepository;
import org.lockstep.store.JdbiCustomerRepository;

/** An operator's session on a test database, as the application wires it: the real repository acting as a user. */
public final class Sessions {

    private Sessions() {
    }

    /** The real, Jdbi-backed repository writing as {@code user}. */
    public static CustomerRepository repository(Database db, String user) {
        return new JdbiCustomerRepository(db.jdbi(), user);
    }
}
