package org.lockstep.ui.live;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lockstep.config.LockstepConfig;
import org.lockstep.domain.ChangeFeed;
import org.lockstep.server.Database;
import org.lockstep.server.EmbeddedServer;
import org.lockstep.testing.db.DatabaseTest;

/**
 * The status bar's live-updates word on a server that ends sessions idle for two seconds ({@code ALTER ROLE … SET
 * idle_session_timeout = '2s'}, on an embedded server of the test's own): over ten idle seconds it never says
 * "Reconnecting…" — the pool replaces the sessions the server ends, and the listening session is never ended —
 * while stopping the server still shows at once.
 */
@DatabaseTest
class IdleSessionStatusTest {

    @TempDir
    Path dataDir;

    private Database db;
    private ChangeFeed feed;

    @AfterEach
    void close() {
        if (feed != null) {
            feed.close();
        }
        if (db != null) {
            db.close();
        }
        new EmbeddedServer(dataDir, LockstepConfig.cacheDir(System.getenv())).stop();
    }

    @Test
    void sessionsTheServerEndsAsIdleNeverShowReconnectingButAStoppedServerDoes() throws Exception {
        db = Database.open(LockstepConfig.resolve(null, dataDir, "Alice", Map.of()), "idle session test", false);
        EmbeddedServer server = db.embeddedServer().orElseThrow();
        EmbeddedServer.Endpoint admin = server.adminEndpoint();
        try (var c = DriverManager.getConnection(admin.jdbcUrl("postgres"), admin.user(), admin.password());
                var s = c.createStatement()) {
            s.execute("ALTER ROLE " + EmbeddedServer.APP_ROLE + " SET idle_session_timeout = '2s'");
        }
        // The pool's sessions from before the setting are replaced by sessions that have it.
        ((HikariDataSource) db.dataSource()).getHikariPoolMXBean().softEvictConnections();
        LiveUpdates live = new LiveUpdates(Runnable::run, "alice-session");
        List<String> shown = new CopyOnWriteArrayList<>();
        live.statusTextProperty().addListener((obs, was, now) -> shown.add(now));
        feed = db.changeFeed(live);
        feed.start();
        await().atMost(Duration.ofSeconds(30)).until(() -> "Live".equals(live.statusTextProperty().get()));
        assertThat(count(db)).isZero();

        await().during(Duration.ofSeconds(10)).atMost(Duration.ofSeconds(15))
                .until(() -> !shown.contains("Reconnecting…"));

        // The server did end idle sessions (the pool's), and the pool's next read is served all the same.
        assertThat(Files.readString(dataDir.resolve("server.log")))
                .contains("terminating connection due to idle-session timeout");
        assertThat(count(db)).isZero();
        assertThat(shown).containsOnly("Live");

        server.stop();

        await().atMost(Duration.ofSeconds(30)).until(() -> shown.contains("Reconnecting…"));
        assertThat(live.statusProperty().get()).isEqualTo(ChangeFeed.Status.RECONNECTING);
    }

    private static long count(Database db) {
        return db.jdbi().withHandle(h -> h.createQuery("SELECT count(*) FROM customer").mapTo(Long.class).one());
    }
}
