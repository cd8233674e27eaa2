package org.lockstep.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which disk is full, in one sentence, and when the embedded server may be started on it again: the file system is
 * read from {@code /proc/self/mounts} lines and the free space given, the clock is a counter. The real full disk is
 * {@code FullDiskServerTest}.
 */
class FullDiskStartsTest {

    private static final long MB = 1024L * 1024;
    private static final Path DATA = Path.of("/srv/lockstep data/alice");

    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    private final FullDiskStarts starts = new FullDiskStarts(nanos::get);

    private static DataDisk disk(long freeBytes) {
        return new DataDisk(DATA, Path.of("/srv/lockstep data"), "ext4", freeBytes);
    }

    private void passMs(long ms) {
        nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(ms));
    }

    @Test
    void theSentenceNamesTheDirectoryTheMountAndItsFreeSpaceAndSaysTheEditsAreKept() {
        assertThat(disk(12 * 1024).fullSentence()).isEqualTo("The disk that holds Lockstep's database is full: "
                + "/srv/lockstep data/alice is on the file system mounted at /srv/lockstep data (ext4), which has"
                + " 12 KB free, so the database server cannot run. Your edits are kept; free some space on that disk"
                + " and Lockstep starts the server again");
        assertThat(DataDisk.size(0)).isEqualTo("0 KB");
        assertThat(DataDisk.size(15 * MB + 700 * 1024)).isEqualTo("15 MB");
        assertThat(DataDisk.size(3L * 1024 * MB)).isEqualTo("3072 MB");
    }

    @Test
    void theMountIsTheLongestMountPointThatHoldsThePathWithItsEscapedSpaces() {
        List<String> mounts = List.of(
                "/dev/sda1 / ext4 rw,relatime 0 0",
                "tmpfs /srv tmpfs rw 0 0",
                "/dev/sdb1 /srv/lockstep\\040data xfs rw 0 0",
                "/dev/sdc1 /srv/lockstep xfs rw 0 0");

        assertThat(DataDisk.mountOf(DATA, mounts)).contains(new DataDisk.Mount(Path.of("/srv/lockstep data"), "xfs"));
        assertThat(DataDisk.mountOf(Path.of("/home/alice"), mounts)).contains(new DataDisk.Mount(Path.of("/"),
                "ext4"));
    }

    @Test
    void theDiskOfADirectoryNotYetMadeIsItsNearestParents(@TempDir Path dir) throws IOException {
        DataDisk disk = DataDisk.of(dir.resolve("not/yet/made"));

        assertThat(disk.dataDir()).isEqualTo(dir.resolve("not/yet/made").toAbsolutePath());
        assertThat(dir.toRealPath().startsWith(disk.mountPoint())).isTrue();
        assertThat(disk.usableBytes()).isNotNegative();
    }

    @Test
    void aDiskWithLessThanOneWalSegmentFreeIsRefusedWithoutAStart() {
        assertThatThrownBy(() -> starts.check(disk(DataDisk.ROOM_TO_START - 1), false))
                .isInstanceOf(ServerDiskFullException.class)
                .hasMessageContaining("/srv/lockstep data/alice").hasMessageContaining("15 MB free");
        assertThat(starts.failedBefore(DATA)).isFalse();
        assertThatCode(() -> starts.check(disk(DataDisk.ROOM_TO_START), false)).doesNotThrowAnyException();

        // A restart refused for want of space is remembered: a server that left no postmaster.pid is started later.
        assertThatThrownBy(() -> starts.check(disk(0), true)).isInstanceOf(ServerDiskFullException.class);
        assertThat(starts.failedBefore(DATA)).isTrue();
        passMs(FullDiskStarts.FIRST_WAIT_MS);
        assertThatCode(() -> starts.check(disk(DataDisk.ROOM_TO_START), true)).doesNotThrowAnyException();
    }

    @Test
    void afterAStartFailedForWantOfSpaceARestartWaitsForSpaceToComeBackAndThenForAGrowingWait() {
        starts.failed(disk(20 * MB), new IOException("could not start server"));

        // Space has not come back: no restart, however long ago the failure was.
        passMs(FullDiskStarts.LONGEST_WAIT_MS);
        assertThatThrownBy(() -> starts.check(disk(20 * MB + FullDiskStarts.SPACE_BACK_BYTES - 1), true))
                .isInstanceOf(ServerDiskFullException.class);
        // A start a command asks for is not held back by the record, only by a disk too full to start on.
        assertThatCode(() -> starts.check(disk(20 * MB), false)).doesNotThrowAnyException();
        assertThatCode(() -> starts.check(disk(30 * MB), true)).doesNotThrowAnyException();

        // It failed again: the next try waits 2 s, even with space back.
        starts.failed(disk(30 * MB), new IOException("could not start server"));
        passMs(1_999);
        assertThatThrownBy(() -> starts.check(disk(200 * MB), true)).isInstanceOf(ServerDiskFullException.class);
        passMs(1);
        assertThatCode(() -> starts.check(disk(200 * MB), true)).doesNotThrowAnyException();
        assertThat(starts.failedBefore(DATA)).isTrue();

        starts.forget(DATA);
        assertThat(starts.failedBefore(DATA)).isFalse();
        assertThat(FullDiskStarts.waitMs(1)).isEqualTo(1_000);
        assertThat(FullDiskStarts.waitMs(3)).isEqualTo(4_000);
        assertThat(FullDiskStarts.waitMs(40)).isEqualTo(FullDiskStarts.LONGEST_WAIT_MS);
    }
}
