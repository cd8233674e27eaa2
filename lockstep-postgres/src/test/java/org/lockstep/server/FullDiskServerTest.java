package org.lockstep.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import com.zaxxer.hikari.HikariDataSource;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.lockstep.config.LockstepConfig;
import org.lockstep.domain.ChangeFeed;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.SaveOutcome;
import org.lockstep.domain.StoreUnavailableException;
import org.lockstep.store.JdbiCustomerRepository;
import org.lockstep.testing.db.DatabaseTest;
import org.lockstep.testing.db.RecordingFeedListener;

/**
 * The embedded server on a disk that really fills up: a 128 MB tmpfs mounted for the test holds the data directory,
 * and a file written until the kernel says "No space left on device" takes the rest. A save that needs a new block is
 * refused in one sentence and the saved versions stay; the server dies (here by {@code kill -9}, as the PANIC of a
 * full disk ends it); its clients then say which disk is full instead of "Connection is not available", start nothing
 * while it stays full (the dead server's {@code postmaster.pid} is never touched), and bring the server back with
 * every acknowledged save once space is freed. Mounting needs root: elsewhere the test is skipped, and
 * {@link FullDiskStartsTest} covers the rules without a disk.
 */
@DatabaseTest
class FullDiskServerTest {

    private static Path mount;
    private static Path dataDir;
    private static Path filler;

    @BeforeAll
    static void mountASmallDisk() throws Exception {
        assumeTrue(ServerCommands.isRoot(),
                "mounting a tmpfs needs root: skipped (FullDiskStartsTest covers the rules)");
        mount = Files.createTempDirectory("lockstep-full-disk");
        Process p = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=128m,mode=0700", "tmpfs", mount.toString())
                .redirectErrorStream(true).start();
        String said = new String(p.getInputStream().readAllBytes());
        boolean mounted = p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        if (!mounted) {
            Files.deleteIfExists(mount);
            mount = null;
        }
        assumeTrue(mounted, "this root may not mount a tmpfs (" + said.strip() + "): skipped");
        dataDir = mount.resolve("data");
        filler = mount.resolve("filler");
    }

    @AfterAll
    static void unmount() throws Exception {
        if (mount == null) {
            return;
        }
        try {
            Files.deleteIfExists(filler);
            new EmbeddedServer(dataDir, cacheDir()).stop();
            // The server's own account of the full disk, kept beside the test's report (the tmpfs goes with it).
            if (Files.exists(dataDir.resolve("server.log"))) {
                Files.createDirectories(Path.of("target"));
                Files.copy(dataDir.resolve("server.log"), Path.of("target", "full-disk-server.log"),
                        java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Process p = new ProcessBuilder("umount", mount.toString()).redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            p.waitFor(30, TimeUnit.SECONDS);
            Files.deleteIfExists(mount);
        }
    }

    @Test
    void aFullDiskIsNamedInOneSentenceNothingIsStartedOnItAndNothingAcknowledgedIsLost() throws Exception {
        RecordingFeedListener told = new RecordingFeedListener();
        try (Database db = Database.open(LockstepConfig.resolve(null, dataDir, "Alice", Map.of()), "full disk test",
                false); ChangeFeed feed = db.changeFeed(told)) {
            feed.start();
            await().atMost(Duration.ofSeconds(30)).until(() -> feed.status() == ChangeFeed.Status.LIVE);
            EmbeddedServer server = db.embeddedServer().orElseThrow();
            JdbiCustomerRepository alice = new JdbiCustomerRepository(db.jdbi(), "Alice", "alice-session");
            Customer created = alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "DISK-1").build());
            Customer saved = ((SaveOutcome.Saved) alice.save(created.id(), created.version(),
                    created.data().with(CustomerField.CITY, "Curitiba"))).saved();
            // A fresh WAL segment, made (16 MB of zeros) before the disk fills, holds all the WAL the test writes
            // from here on: the full disk then shows at the table's file (an ERROR) rather than at the WAL's (a PANIC).
            try (var admin = java.sql.DriverManager.getConnection(server.adminEndpoint().jdbcUrl("postgres"),
                    EmbeddedServer.ADMIN_ROLE, server.adminEndpoint().password()); var s = admin.createStatement()) {
                s.execute("CHECKPOINT");
                String completed;
                try (var rs = s.executeQuery("SELECT pg_walfile_name(pg_switch_wal())")) {
                    rs.next();
                    completed = rs.getString(1);
                }
                // A checkpoint's record, flushed into the new segment, makes its file now. A commit that wrote nothing
                // but its own record is not flushed by its session (PostgreSQL's RecordTransactionCommit); left to
                // the WAL writer, the file was made after the disk had filled, and the writer's PANIC ended the
                // server before the test's save (seen on CI and by hand: "could not write to file xlogtemp").
                s.execute("CHECKPOINT");
                try (var rs = s.executeQuery("SELECT pg_walfile_name(pg_current_wal_flush_lsn())")) {
                    rs.next();
                    assertThat(rs.getString(1)).as("the WAL flushed into a new segment").isNotEqualTo(completed);
                }
            }

            fillTheDisk();

            // A note of random letters (nothing to compress) needs new blocks in the table's TOAST file.
            String note = randomLetters(90_000);
            assertThatThrownBy(() -> alice.create(aCustomer().with(CustomerField.EXTERNAL_REF, "DISK-2")
                    .with(CustomerField.NOTES, note).build()))
                    .isInstanceOf(StoreUnavailableException.class)
                    .hasMessageStartingWith("The database server's disk is full (ERROR: could not extend file")
                    .hasMessageContaining("No space left on device): nothing was written and your changes are kept");
            assertThat(alice.find(saved.id()).orElseThrow()).isEqualTo(saved);

            long dead = server.status().pid();
            ProcessHandle.of(dead).ifPresent(ProcessHandle::destroyForcibly);
            await().atMost(Duration.ofSeconds(30)).until(() -> ProcessHandle.of(dead).map(h -> !h.isAlive())
                    .orElse(true));
            Path pidFile = dataDir.resolve("pgdata/postmaster.pid");
            List<String> deadPidFile = Files.readAllLines(pidFile);
            ((HikariDataSource) db.dataSource()).getHikariPoolMXBean().softEvictConnections();

            String sentence = "The disk that holds Lockstep's database is full: " + dataDir.toAbsolutePath()
                    + " is on the file system mounted at " + mount.toRealPath() + " (tmpfs), which has ";
            assertThatThrownBy(() -> alice.find(saved.id()))
                    .isInstanceOf(StoreUnavailableException.class)
                    .hasMessageStartingWith(sentence)
                    .hasMessageEndingWith(" free, so the database server cannot run. Your edits are kept; free some "
                            + "space on that disk and Lockstep starts the server again")
                    .hasMessageNotContaining("\n");
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> told.reasons().stream().anyMatch(r -> r.startsWith(sentence)));
            assertThat(feed.status()).isEqualTo(ChangeFeed.Status.RECONNECTING);
            // A command's own start says the same in one line, and starts nothing either.
            assertThatThrownBy(() -> new EmbeddedServer(dataDir, cacheDir()).ensureRunning())
                    .isInstanceOf(ServerDiskFullException.class)
                    .hasMessageStartingWith(sentence).hasMessageNotContaining("\n");
            // The pool (five seconds of attempts), the feed and the command asked again and again; none started it.
            assertThat(Files.readAllLines(pidFile)).isEqualTo(deadPidFile);
            assertThat(server.status().running()).isFalse();

            Files.delete(filler);

            // The next connection starts the server again: crash recovery replays what was acknowledged.
            assertThat(alice.find(saved.id()).orElseThrow()).isEqualTo(saved);
            long customers = db.jdbi().withHandle(h -> h.createQuery("SELECT count(*) FROM customer")
                    .mapTo(Long.class).one());
            assertThat(customers).isOne(); // the refused note is not there, half or whole
            assertThat(server.status().running()).isTrue();
            await().atMost(Duration.ofSeconds(30)).until(() -> feed.status() == ChangeFeed.Status.LIVE);
            assertThat(told.statuses()).containsSubsequence(ChangeFeed.Status.LIVE, ChangeFeed.Status.RECONNECTING,
                    ChangeFeed.Status.LIVE);
        }
    }

    /** Writes a file until the kernel refuses ("No space left on device"), so that no block of the disk is left. */
    private static void fillTheDisk() throws IOException {
        try (FileChannel out = FileChannel.open(filler, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            ByteBuffer chunk = ByteBuffer.allocate(1024 * 1024);
            for (int size = chunk.capacity(); size >= 1; size /= 16) {
                try {
                    while (true) {
                        out.write(ByteBuffer.wrap(chunk.array(), 0, size));
                    }
                } catch (IOException full) {
                    assertThat(full).hasMessageContaining("No space left on device");
                }
            }
        }
        assertThat(Files.getFileStore(mount).getUsableSpace()).isZero();
    }

    private static String randomLetters(int n) {
        Random random = new Random(28);
        StringBuilder b = new StringBuilder(n);
        for (int i = 0; i < n; i++) {
            b.append((char) ('a' + random.nextInt(26)));
        }
        return b.toString();
    }

    private static Path cacheDir() {
        return LockstepConfig.cacheDir(System.getenv());
    }
}
