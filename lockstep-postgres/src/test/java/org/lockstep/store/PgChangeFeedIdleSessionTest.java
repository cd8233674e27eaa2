package org.lockstep.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.sql.DriverManager;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongUnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.lockstep.domain.ChangeEvent;
import org.lockstep.domain.ChangeFeed;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.server.Database;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.TestDatabases;

/**
 * A server that ends idle sessions ({@code ALTER DATABASE … SET idle_session_timeout = '1s'}, as a team server's
 * administrator may set it): the feed's listening session is never ended, since the feed asks the server something
 * twice per timeout; and when the server does end it (here a feed told to ignore the timeout, as every Lockstep did
 * before), the session is replaced without a word of "Reconnecting", and nothing saved meanwhile is missed.
 */
@DatabaseTest
class PgChangeFeedIdleSessionTest {

    private static final String FEED_SESSIONS = "SELECT count(DISTINCT pid) FROM pg_stat_activity"
            + " WHERE application_name = 'Lockstep live updates' AND datname = current_database()";

    Database db;
    String url;
    PgChangeFeed feed;
    final List<ChangeEvent> events = new CopyOnWriteArrayList<>();
    final List<ChangeFeed.Status> statuses = new CopyOnWriteArrayList<>();
    final List<Integer> feedBackends = new CopyOnWriteArrayList<>();
    final AtomicInteger resyncs = new AtomicInteger();

    @BeforeEach
    void aDatabaseThatEndsSessionsIdleForOneSecond() {
        url = TestDatabases.freshUrl();
        TestDatabases.Server s = TestDatabases.server();
        db = Database.open(url, s.user(), s.password(), "idle session test");
        db.jdbi().useHandle(h -> h.execute("ALTER DATABASE " + url.substring(url.lastIndexOf('/') + 1)
                + " SET idle_session_timeout = '1s'"));
    }

    @AfterEach
    void close() {
        if (feed != null) {
            feed.close();
        }
        db.close();
    }

    private void startFeed(LongUnaryOperator askEvery) {
        TestDatabases.Server s = TestDatabases.server();
        feed = new PgChangeFeed(properties -> {
            var c = DriverManager.getConnection(url, properties);
            try (var st = c.createStatement(); var rs = st.executeQuery("SELECT pg_backend_pid()")) {
                rs.next();
                feedBackends.add(rs.getInt(1));
            }
            return c;
        }, s.user(), s.password(), new ChangeFeed.Listener() {
            @Override
            public void changes(List<ChangeEvent> batch) {
                events.addAll(batch);
            }

            @Override
            public void status(ChangeFeed.Status status) {
                statuses.add(status);
            }

            @Override
            public void resync() {
                resyncs.incrementAndGet();
            }
        }, askEvery);
        feed.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> feed.status() == ChangeFeed.Status.LIVE);
    }

    @Test
    void theListeningSessionIsNeverEndedAsIdleAndHearsEveryChange() {
        startFeed(PgChangeFeed::askEveryMs);
        assertThat(PgChangeFeed.askEveryMs(1_000)).isEqualTo(500);

        await().during(Duration.ofSeconds(5)).atMost(Duration.ofSeconds(8))
                .until(() -> feed.status() == ChangeFeed.Status.LIVE);
        Customer c = new JdbiCustomerRepository(db.jdbi(), "Alice").create(aCustomer()
                .with(CustomerField.EXTERNAL_REF, "IDLE-1").build());

        await().atMost(Duration.ofSeconds(10)).until(() -> events.stream().anyMatch(e -> e.id() == c.id()));
        assertThat(feedBackends).hasSize(1); // one session all along
        assertThat(resyncs).hasValue(0);
        assertThat(statuses).containsExactly(ChangeFeed.Status.LIVE);
    }

    @Test
    void aListeningSessionTheServerEndsAsIdleIsReplacedQuietlyAndNothingSavedMeanwhileIsMissed() {
        startFeed(timeoutMs -> 0); // deaf to the timeout: the server ends the session after each second of quiet

        // Over five seconds the server ends the session again and again; the feed never says it reconnects.
        await().during(Duration.ofSeconds(5)).atMost(Duration.ofSeconds(8))
                .until(() -> !statuses.contains(ChangeFeed.Status.RECONNECTING));
        assertThat(feedBackends.size()).isGreaterThanOrEqualTo(3);
        assertThat(resyncs.get()).isGreaterThanOrEqualTo(2); // each replacement asks subscribers to read again
        long open = db.jdbi().withHandle(h -> h.createQuery(FEED_SESSIONS).mapTo(Long.class).one());
        assertThat(open).isLessThanOrEqualTo(1); // each ended session is gone, none left behind

        // A save is heard live, or its resync asks every subscriber to read it.
        int resyncsBefore = resyncs.get();
        Customer c = new JdbiCustomerRepository(db.jdbi(), "Alice").create(aCustomer()
                .with(CustomerField.EXTERNAL_REF, "IDLE-2").build());
        await().atMost(Duration.ofSeconds(10)).until(() -> events.stream().anyMatch(e -> e.id() == c.id())
                || resyncs.get() > resyncsBefore);
        assertThat(statuses).containsOnly(ChangeFeed.Status.LIVE);
    }
}
