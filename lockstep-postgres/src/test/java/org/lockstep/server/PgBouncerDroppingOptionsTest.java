package org.lockstep.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.lockstep.domain.ChangeFeed;
import org.lockstep.domain.Customer;
import org.lockstep.store.JdbiCustomerRepository;
import org.lockstep.store.PgChangeFeed;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.PgBouncer;
import org.lockstep.testing.db.PgBouncerExtension;
import org.lockstep.testing.db.RecordingFeedListener;
import org.lockstep.testing.db.TestDatabases;

/**
 * A transaction-pooling PgBouncer that takes the startup parameter {@code options} and drops it
 * ({@code ignore_startup_parameters = extra_float_digits,options}), reached as if it were the server (issue 28). It
 * used to let {@code get} and {@code set} through with no statement or lock timeout, and the change feed said Live
 * while its LISTEN ended with PgBouncer's transaction. Lockstep now reads back a mark it sends among the startup
 * options and refuses in one sentence, before writing anything; the same client through PgBouncer with
 * {@code --listen-url} works ({@link ThroughPgBouncerTest} for the whole of it).
 */
@DatabaseTest
class PgBouncerDroppingOptionsTest {

    static final String SENTENCE = PgBouncer.DROPPED_OPTIONS_REFUSAL;

    @RegisterExtension
    static final PgBouncerExtension bouncer = new PgBouncerExtension(20, 2, PgBouncer.IGNORING_OPTIONS);

    @Test
    void openingThroughItIsRefusedInOneSentenceAndWritesNothing() throws Exception {
        TestDatabases.Server s = TestDatabases.server();
        String database = TestDatabases.freshName();
        assertThatThrownBy(() -> Database.open(bouncer.get().url(database), s.user(), s.password(), "dropped options"))
                .isInstanceOf(IllegalStateException.class).hasMessage(SENTENCE);
        // Refused before the migrations and the sample: the empty database is still empty.
        assertThat(tablesIn(database)).isZero();
        // With the server itself as the listen URL, the same PgBouncer carries the pool's statements.
        try (Database db = Database.open(new ServerUrls(bouncer.get().url(database), s.url(database)), s.user(),
                s.password(), "with --listen-url")) {
            Customer c = new JdbiCustomerRepository(db.jdbi(), "Alice").create(aCustomer().build());
            assertThat(new JdbiCustomerRepository(db.jdbi(), "Alice").find(c.id())).isPresent();
        }
    }

    @Test
    void aMigratedDatabaseWithCustomersIsRefusedToo() throws Exception {
        TestDatabases.Server s = TestDatabases.server();
        String database = TestDatabases.freshName();
        Customer c;
        try (Database direct = Database.open(s.url(database), s.user(), s.password(), "direct")) {
            c = new JdbiCustomerRepository(direct.jdbi(), "Alice").create(aCustomer().build());
        }
        assertThatThrownBy(() -> Database.open(bouncer.get().url(database), s.user(), s.password(), "dropped options"))
                .isInstanceOf(IllegalStateException.class).hasMessage(SENTENCE);
        try (Database direct = Database.open(s.url(database), s.user(), s.password(), "direct again")) {
            assertThat(new JdbiCustomerRepository(direct.jdbi(), "Alice").find(c.id()).orElseThrow().version())
                    .isEqualTo(c.version());
        }
    }

    @Test
    void theChangeFeedThroughItSaysSoInsteadOfLive() {
        TestDatabases.Server s = TestDatabases.server();
        String database = TestDatabases.freshName();
        try (Database direct = Database.open(s.url(database), s.user(), s.password(), "direct")) {
            RecordingFeedListener told = new RecordingFeedListener();
            try (ChangeFeed feed = new PgChangeFeed(bouncer.get().url(database), s.user(), s.password(), told)) {
                feed.start();
                await().atMost(Duration.ofSeconds(10)).until(() -> !told.reasons().isEmpty());
                assertThat(told.reasons().get(0)).isEqualTo(SENTENCE);
                assertThat(told.statuses()).doesNotContain(ChangeFeed.Status.LIVE);
            }
            // The direct client's own feed, on the server, still goes live.
            try (ChangeFeed feed = direct.changeFeed(events -> {})) {
                feed.start();
                await().atMost(Duration.ofSeconds(10)).until(() -> feed.status() == ChangeFeed.Status.LIVE);
            }
        }
    }

    /** Tables in {@code database} outside the system schemas, as the server counts them. */
    static int tablesIn(String database) throws Exception {
        TestDatabases.Server s = TestDatabases.server();
        try (Connection c = DriverManager.getConnection(s.url(database), s.adminUser(), s.adminPassword());
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT count(*) FROM pg_tables"
                        + " WHERE schemaname NOT IN ('pg_catalog', 'information_schema')")) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
