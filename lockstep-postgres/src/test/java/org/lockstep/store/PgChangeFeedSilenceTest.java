package org.lockstep.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.lockstep.server.Database;
import org.lockstep.domain.ChangeEvent;
import org.lockstep.domain.ChangeFeed;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.PausableProxy;
import org.lockstep.testing.db.TestDatabases;

/**
 * The change feed and a server that goes silent without closing anything (a frozen server, simulated by a proxy
 * that stops forwarding bytes): the feed must notice, say RECONNECTING, and come back LIVE once the server answers.
 */
@DatabaseTest
class PgChangeFeedSilenceTest {

    Database db;
    PausableProxy proxy;
    PgChangeFeed feed;
    final List<ChangeEvent> events = new CopyOnWriteArrayList<>();
    final List<ChangeFeed.Status> statuses = new CopyOnWriteArrayList<>();
    final AtomicInteger resyncs = new AtomicInteger();

    @BeforeEach
    void open() throws Exception {
        String url = TestDatabases.freshUrl();
        TestDatabases.Server s = TestDatabases.server();
        db = Database.open(url, s.user(), s.password(), "feed silence test");
        proxy = PausableProxy.to(s.host(), s.port());
        String database = url.substring(url.lastIndexOf('/') + 1);
        feed = new PgChangeFeed("jdbc:postgresql://127.0.0.1:" + proxy.port() + "/" + database, s.user(),
                s.password(), new ChangeFeed.Listener() {
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
                });
        feed.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> feed.status() == ChangeFeed.Status.LIVE);
    }

    @AfterEach
    void close() {
        feed.close();
        proxy.close();
        db.close();
    }

    @Test
    void aSilentServerTurnsTheFeedReconnectingAndLiveAgainOnceItAnswers() {
        proxy.pause();

        // Noticed after 5 s of quiet plus the 6 s socket timeout; the bound leaves room for a loaded machine.
        await().atMost(Duration.ofSeconds(20)).until(() -> feed.status() == ChangeFeed.Status.RECONNECTING);
        Customer c = new JdbiCustomerRepository(db.jdbi(), "Alice").create(aCustomer()
                .with(CustomerField.EXTERNAL_REF, "SILENT-1").build());
        proxy.resume();

        await().atMost(Duration.ofSeconds(30)).until(() -> feed.status() == ChangeFeed.Status.LIVE);
        assertThat(statuses).containsSubsequence(ChangeFeed.Status.LIVE, ChangeFeed.Status.RECONNECTING,
                ChangeFeed.Status.LIVE);
        assertThat(resyncs.get()).isEqualTo(1);
        // Live again for real: a change made now arrives.
        new JdbiCustomerRepository(db.jdbi(), "Alice").save(c.id(), 1, c.data().with(CustomerField.CITY, "Lyon"));
        await().atMost(Duration.ofSeconds(10)).until(() -> events.stream()
                .anyMatch(e -> e.isCustomer() && e.id() == c.id() && e.version() == 2));
    }

    @Test
    void aQuietButAnsweringServerKeepsTheFeedLiveLongerThanTheSocketTimeout() {
        // Quiet for longer than the socket timeout: the 500 ms waits and the pings must not trip it.
        await().during(Duration.ofSeconds(PgChangeFeed.SOCKET_TIMEOUT_S + 3))
                .atMost(Duration.ofSeconds(PgChangeFeed.SOCKET_TIMEOUT_S + 10))
                .until(() -> feed.status() == ChangeFeed.Status.LIVE);

        assertThat(statuses).containsExactly(ChangeFeed.Status.LIVE);
        assertThat(resyncs.get()).isZero();
        Customer c = new JdbiCustomerRepository(db.jdbi(), "Alice").create(aCustomer()
                .with(CustomerField.EXTERNAL_REF, "QUIET-1").build());
        await().atMost(Duration.ofSeconds(10)).until(() -> events.stream()
                .anyMatch(e -> e.isCustomer() && e.id() == c.id() && e.op().equals("INSERT")));
    }
}
