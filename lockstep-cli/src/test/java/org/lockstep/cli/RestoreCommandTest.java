package org.lockstep.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.util.OptionalLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.HistoryEntry;
import org.lockstep.domain.SaveOutcome;
import org.lockstep.server.Database;
import org.lockstep.store.JdbiCustomerRepository;
import org.lockstep.store.JdbiHistoryRepository;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.TestDatabases;

/**
 * {@code lockstep restore} (issue 27) in-process on a real database: the restore is a versioned save of the earlier
 * version's values, recorded in the history as restoring it, and the timeline says so; a stale base or a version the
 * history does not hold saves nothing.
 */
@DatabaseTest
class RestoreCommandTest {

    static Database db;
    static JdbiCustomerRepository alice;
    static JdbiHistoryRepository history;
    static Cli cli;

    @BeforeAll
    static void open() {
        String url = TestDatabases.freshUrlWithCredentials();
        db = Database.open(url, null, null, "Lockstep test");
        alice = new JdbiCustomerRepository(db.jdbi(), "Alice");
        history = new JdbiHistoryRepository(db.jdbi());
        cli = new Cli(url, "Tester");
    }

    @AfterAll
    static void close() {
        db.close();
    }

    /** A customer at version 3: Curitiba, then Manaus. */
    static Customer atVersion3(String ref) {
        Customer v1 = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, ref).build());
        Customer v2 = ((SaveOutcome.Saved) alice.save(v1.id(), 1, v1.data().with(CustomerField.CITY, "Curitiba")))
                .saved();
        return ((SaveOutcome.Saved) alice.save(v2.id(), 2, v2.data().with(CustomerField.CITY, "Manaus"))).saved();
    }

    @Test
    void restoreSavesTheVersionsValuesAsANewVersionRecordedAsItsRestore() {
        Customer v3 = atVersion3("CLI-RESTORE-1");

        Cli.Result r = cli.run("restore", Long.toString(v3.id()), "--to-version", "2", "--if-version", "3");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out().strip()).isEqualTo("id=" + v3.id() + " version=4 restored_from=2");
        assertThat(alice.find(v3.id()).orElseThrow().data().city()).isEqualTo("Curitiba");
        assertThat(history.history(v3.id())).extracting(HistoryEntry::version, HistoryEntry::restoredFrom)
                .containsExactly(tuple(1L, OptionalLong.empty()), tuple(2L, OptionalLong.empty()),
                        tuple(3L, OptionalLong.empty()), tuple(4L, OptionalLong.of(2)));
        Cli.Result timeline = cli.run("timeline", Long.toString(v3.id()));
        assertThat(timeline.out()).contains("v4: restored v2").contains("v3 saved");
    }

    @Test
    void aStaleBaseIsAConflictAndAVersionNeverRecordedIsATypingErrorBothSavingNothing() {
        Customer v3 = atVersion3("CLI-RESTORE-2");

        Cli.Result stale = cli.run("restore", Long.toString(v3.id()), "--to-version", "1", "--if-version", "2");
        Cli.Result never = cli.run("restore", Long.toString(v3.id()), "--to-version", "9", "--if-version", "3");

        assertThat(stale.exitCode()).as(stale.toString()).isEqualTo(ExitCodes.CONFLICT);
        assertThat(stale.err()).contains("is at version 3").contains("nothing saved");
        assertThat(never.exitCode()).as(never.toString()).isEqualTo(ExitCodes.INVALID);
        assertThat(never.err().strip())
                .isEqualTo("lockstep: customer " + v3.id() + " has no recorded version 9 to restore; nothing saved");
        assertThat(alice.find(v3.id()).orElseThrow().version()).isEqualTo(3);
    }
}
