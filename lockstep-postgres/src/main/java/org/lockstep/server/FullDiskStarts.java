package org.lockstep.server;

import java.nio.file.Path;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Whether the embedded server may be started on its disk now, per data directory in this process. A disk with less
 * than {@link DataDisk#ROOM_TO_START} free is refused at once, without a start that would fail (or, after a crash,
 * leave PostgreSQL repeating its recovery; {@link DataDisk}). A start that failed for want of space anyway is tried
 * again after a crash only once the disk has more free space than it had then, and no sooner than a wait that doubles
 * with each such failure, from {@link #FIRST_WAIT_MS} to {@link #LONGEST_WAIT_MS}: the clients of a dead server ask
 * for a restart at every connection they try, several a second.
 */
final class FullDiskStarts {

    /** The wait before the first retry after a start failed for want of space, ms. */
    static final long FIRST_WAIT_MS = 1_000;

    /** The longest wait between retries, ms. */
    static final long LONGEST_WAIT_MS = 60_000;

    /** How much more free space than at the failure counts as space come back, bytes: files come and go by less. */
    static final long SPACE_BACK_BYTES = 1024L * 1024;

    /** The one record this process keeps, shared by every client of one data directory. */
    static final FullDiskStarts SHARED = new FullDiskStarts(System::nanoTime);

    private record Failed(long freeBytes, long atNanos, int times) {
    }

    private final ConcurrentHashMap<Path, Failed> failed = new ConcurrentHashMap<>();
    private final LongSupplier nanoTime;

    /** @param nanoTime the clock of the waits ({@link System#nanoTime()}) */
    FullDiskStarts(LongSupplier nanoTime) {
        this.nanoTime = nanoTime;
    }

    /**
     * Before a start on {@code disk}.
     *
     * @param restart whether it restarts a server that died (a client found it gone), rather than a start a command
     *                asked for: only then do an earlier failure's free space and wait count
     * @throws ServerDiskFullException when the disk is too full to start on, or, for a restart, when space has not
     *                                 come back since a start failed for want of it or the wait has not passed
     */
    void check(DataDisk disk, boolean restart) {
        if (disk.tooFullToStart()) {
            if (restart) {
                // Remembered, so that a server that left no postmaster.pid behind is started once there is room.
                failed.putIfAbsent(disk.dataDir(), new Failed(disk.usableBytes(), nanoTime.getAsLong(), 1));
            }
            throw new ServerDiskFullException(disk.fullSentence(), null);
        }
        Failed last = failed.get(disk.dataDir());
        if (restart && last != null && (disk.usableBytes() < last.freeBytes() + SPACE_BACK_BYTES
                || nanoTime.getAsLong() - last.atNanos() < TimeUnit.MILLISECONDS.toNanos(waitMs(last.times())))) {
            throw new ServerDiskFullException(disk.fullSentence(), null);
        }
    }

    /** Notes that a start on {@code disk} failed for want of space. @return the refusal to throw */
    ServerDiskFullException failed(DataDisk disk, Throwable cause) {
        failed.merge(disk.dataDir(), new Failed(disk.usableBytes(), nanoTime.getAsLong(), 1),
                (before, now) -> new Failed(now.freeBytes(), now.atNanos(), before.times() + 1));
        return new ServerDiskFullException(disk.fullSentence(), cause);
    }

    /**
     * Whether a start on {@code dataDir} failed for want of space since it last started or was stopped on purpose: a
     * server stopped because it kept failing on a full disk is started again once there is room, like one that died.
     */
    boolean failedBefore(Path dataDir) {
        return failed.containsKey(dataDir);
    }

    /** Forgets earlier failures: the server started on {@code dataDir}, or was stopped on purpose. */
    void forget(Path dataDir) {
        failed.remove(dataDir);
    }

    /** The wait after {@code times} failures in a row, ms. */
    static long waitMs(int times) {
        return Math.min(LONGEST_WAIT_MS, FIRST_WAIT_MS << Math.min(times - 1, 16));
    }
}
