package org.lockstep.store;

import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.MessageRepository;
import org.lockstep.server.Database;
import org.lockstep.testing.CustomerBuilder;
import org.lockstep.testing.MessageRepositoryContractTest;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.TeamServer;

/**
 * The message repository's contract, kept by the Jdbi store on a team server: Bob's login is an operator, Sam's a
 * member of {@code lockstep_supervisors}, and the database — never the client — says which requests each may read.
 */
@DatabaseTest
class JdbiMessageRepositoryContractTest extends MessageRepositoryContractTest {

    static TeamServer team;
    static Database bob;
    static Database sam;

    @BeforeAll
    static void setUp() throws Exception {
        team = TeamServer.create();
        bob = team.open(team.bob());
        sam = team.open(team.sam());
    }

    @AfterAll
    static void tearDown() throws Exception {
        for (Database db : new Database[]{bob, sam}) {
            if (db != null) {
                db.close();
            }
        }
        if (team != null) {
            team.close();
        }
    }

    @Override
    protected MessageRepository operator() {
        return new JdbiMessageRepository(bob.jdbi(), team.bob(), "bob-" + UUID.randomUUID());
    }

    @Override
    protected String operatorName() {
        return team.bob();
    }

    @Override
    protected MessageRepository supervisor() {
        return new JdbiMessageRepository(sam.jdbi(), team.sam(), "sam-" + UUID.randomUUID());
    }

    @Override
    protected long aCustomer() {
        return new JdbiCustomerRepository(bob.jdbi(), team.bob()).create(CustomerBuilder.aCustomer()
                .with(CustomerField.EXTERNAL_REF, "MC-" + UUID.randomUUID()).build()).id();
    }
}
