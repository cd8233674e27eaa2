package org.lockstep.server;

import org.lockstep.config.LockstepConfig;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lockstep.testing.db.DatabaseTest;

/** The embedded server's buffer cache is sized to the machine at every start (issue 13). */
@DatabaseTest
class EmbeddedServerCacheTest {

    @TempDir
    Path dataDir;

    @AfterEach
    void stop() {
        new EmbeddedServer(dataDir, LockstepConfig.cacheDir(System.getenv())).stop();
    }

    @Test
    void theCacheIsASixteenthOfTheMemoryBetween128MbAnd1Gb() {
        long mb = ServerCache.sharedBuffersMb();

        assertThat(mb).isBetween(128L, 1024L);
        long totalMb = ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
                .getOperatingSystemMXBean()).getTotalMemorySize() / (1024 * 1024);
        assertThat(mb).isEqualTo(Math.max(128, Math.min(1024, totalMb / 16)));
    }

    @Test
    void aSizeChosenWithAlterSystemStandsAtTheNextStart() throws Exception {
        EmbeddedServer server = new EmbeddedServer(dataDir, LockstepConfig.cacheDir(System.getenv()));
        server.ensureRunning();
        EmbeddedServer.Endpoint admin = server.adminEndpoint();
        try (Connection c = DriverManager.getConnection(admin.jdbcUrl(), admin.user(), admin.password());
                Statement s = c.createStatement()) {
            s.execute("ALTER SYSTEM SET shared_buffers = '144MB'");
        }
        server.stop();

        EmbeddedServer.Endpoint app = server.ensureRunning();

        assertThat(cacheMb(app)).isEqualTo(144);
    }

    private static long cacheMb(EmbeddedServer.Endpoint app) throws Exception {
        try (Connection c = DriverManager.getConnection(app.jdbcUrl(), app.user(), app.password());
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT setting::bigint * 8 / 1024 FROM pg_settings "
                        + "WHERE name = 'shared_buffers'")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Test
    void theRunningServerHasThatCache() throws Exception {
        EmbeddedServer server = new EmbeddedServer(dataDir, LockstepConfig.cacheDir(System.getenv()));
        EmbeddedServer.Endpoint app = server.ensureRunning();

        try (Connection c = DriverManager.getConnection(app.jdbcUrl(), app.user(), app.password());
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT setting::bigint * 8 / 1024 FROM pg_settings "
                        + "WHERE name = 'shared_buffers'")) {
            rs.next();
            assertThat(rs.getLong(1)).isEqualTo(ServerCache.sharedBuffersMb());
        }
    }
}
