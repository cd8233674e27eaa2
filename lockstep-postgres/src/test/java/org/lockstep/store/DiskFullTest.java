package org.lockstep.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import org.junit.jupiter.api.Test;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.StoreUnavailableException;
import org.lockstep.server.Database;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.FreshDatabase;

/**
 * A save on a server whose disk is full (SQLSTATE 53100, "could not extend file …: No space left on device"): one
 * sentence that says it is the server's disk, which file, that nothing was written and the edits are kept — and the
 * row read back is the version before. The server's refusal is raised by a trigger with the server's own code and
 * words, as PostgreSQL raises it when it cannot extend a table's file.
 */
@DatabaseTest
class DiskFullTest {

    @FreshDatabase
    Database db;

    @Test
    void aSaveOnAFullDiskSaysWhichDiskAndThatNothingWasWritten() {
        JdbiCustomerRepository alice = new JdbiCustomerRepository(db.jdbi(), "Alice", "alice-session");
        Customer stored = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "FULL-1").build());
        db.jdbi().useHandle(h -> h.execute("""
                CREATE FUNCTION test_disk_full() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN RAISE EXCEPTION 'could not extend file "base/16384/16385": No space left on device'
                    USING ERRCODE = 'disk_full', HINT = 'Check free disk space.'; END $$;
                CREATE TRIGGER test_disk_full BEFORE UPDATE ON customer FOR EACH ROW EXECUTE FUNCTION test_disk_full();
                """));

        assertThatThrownBy(() -> alice.save(stored.id(), stored.version(),
                stored.data().with(CustomerField.CITY, "Curitiba")))
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessage("The database server's disk is full (ERROR: could not extend file \"base/16384/16385\":"
                        + " No space left on device): nothing was written and your changes are kept. Free some space"
                        + " on that disk (or ask the server's administrator to), then save again");
        Customer read = alice.find(stored.id()).orElseThrow();
        assertThat(read.version()).isEqualTo(stored.version());
        assertThat(read.data().city()).isEqualTo(stored.data().city());
    }
}
