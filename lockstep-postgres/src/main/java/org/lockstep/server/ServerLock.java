package org.lockstep.server;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.SQLException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The embedded server's start/stop lock: an exclusive file lock on {@code server.lock} in the data directory, so that
 * two processes starting at once start one server. FileChannel locks belong to the JVM — two threads locking one file
 * would fail — so threads of one process queue on an in-process lock first.
 */
final class ServerLock {

    private static final ConcurrentHashMap<Path, ReentrantLock> IN_PROCESS_LOCKS = new ConcurrentHashMap<>();

    private final Path dataDir;

    private ServerLock(Path dataDir) {
        this.dataDir = dataDir;
    }

    /** The lock of the data directory {@code dataDir} (absolute and normalized). */
    static ServerLock of(Path dataDir) {
        return new ServerLock(dataDir);
    }

    /**
     * Runs {@code body} holding the lock.
     *
     * @throws IllegalStateException with a readable message when {@code body} fails
     */
    <T> T call(IoCallable<T> body) {
        ReentrantLock inProcess = IN_PROCESS_LOCKS.computeIfAbsent(dataDir, d -> new ReentrantLock());
        inProcess.lock();
        try {
            Files.createDirectories(dataDir);
            SecretFile.ownerOnly(dataDir.resolve("server.lock")); // else any account could hold the lock
            try (FileChannel ch = FileChannel.open(dataDir.resolve("server.lock"), StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE); FileLock ignored = ch.lock()) {
                return body.call();
            }
        } catch (IOException e) {
            if (String.valueOf(e.getMessage()).contains(EmbeddedServer.NO_SPACE)) {
                throw fullDisk(e);
            }
            throw new IllegalStateException(e.getMessage(), e);
        } catch (SQLException e) {
            throw new IllegalStateException("The embedded PostgreSQL started but refused a connection: "
                    + e.getMessage(), e);
        } finally {
            inProcess.unlock();
        }
    }

    /** A file of the data directory could not be written for want of space: the sentence that names the disk. */
    private IllegalStateException fullDisk(IOException e) {
        try {
            return new ServerDiskFullException(DataDisk.of(dataDir).fullSentence(), e);
        } catch (IOException unknown) {
            return new IllegalStateException(e.getMessage(), e);
        }
    }

    @FunctionalInterface
    interface IoCallable<T> {
        T call() throws IOException, SQLException;
    }
}
