package org.lockstep.server;

import static org.lockstep.text.Texts.tr;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The file system that holds a Lockstep data directory, and whether it has room for the embedded server: its mount
 * point and type (from {@code /proc/self/mounts}, proc(5)) and the bytes an unprivileged process may still write
 * there ({@link FileStore#getUsableSpace()}, statvfs(3)'s {@code f_bavail}).
 *
 * <p>A server whose disk is full cannot start, and PostgreSQL may not say so: with no room for its log, the log stays
 * empty, and after a crash the end-of-recovery checkpoint fails ("PANIC: could not write to file
 * "pg_logical/replorigin_checkpoint.tmp": No space left on device") and the postmaster starts its recovery again,
 * over and over, until {@code pg_ctl -w} gives up after its whole timeout. Measured on a 128 MB tmpfs holding a
 * cluster (PostgreSQL 17; docs/admin-guide.md, "A full disk"): with 0 or 4 KB free a start after a crash fails, with
 * the log empty; with 16 KB it starts, with no room for the next 16 MB WAL segment it will need.
 *
 * @param dataDir     the data directory (absolute)
 * @param mountPoint  where the file system holding it is mounted
 * @param type        the file system's type ({@code ext4}, {@code tmpfs} …), or empty when unknown
 * @param usableBytes the bytes still free for this process on it
 */
record DataDisk(Path dataDir, Path mountPoint, String type, long usableBytes) {

    /**
     * The least free space on which the embedded server is started, bytes: one WAL segment (16 MB, PostgreSQL's
     * {@code wal_segment_size}), which PostgreSQL fills with zeros before it writes into it ({@code wal_init_zero}),
     * so a server with less can start and then stop at its next segment.
     */
    static final long ROOM_TO_START = 16L * 1024 * 1024;

    private static final Path MOUNTS = Path.of("/proc/self/mounts");

    /**
     * The disk of {@code dataDir}, which need not exist yet (its nearest existing parent is asked).
     *
     * @throws IOException when the file system cannot be asked at all
     */
    static DataDisk of(Path dataDir) throws IOException {
        Path absolute = dataDir.toAbsolutePath().normalize();
        Path existing = absolute;
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        if (existing == null) {
            throw new IOException("No part of " + absolute + " exists");
        }
        Path real = existing.toRealPath();
        FileStore store = Files.getFileStore(real);
        List<String> mounts;
        try {
            mounts = Files.readAllLines(MOUNTS);
        } catch (IOException | SecurityException e) {
            mounts = List.of(); // not Linux, or /proc not mounted: the store's own name stands in
        }
        Optional<Mount> mount = mountOf(real, mounts);
        return new DataDisk(absolute, mount.map(Mount::point).orElse(real.getRoot()),
                mount.map(Mount::type).orElse(store.type()), store.getUsableSpace());
    }

    /** A line of {@code /proc/self/mounts}: where a file system is mounted and its type. */
    record Mount(Path point, String type) {
    }

    /**
     * The mount whose point is the longest prefix of {@code path} (the last such line when a point is mounted over),
     * from {@code /proc/self/mounts} lines: {@code device point type options dump pass}, with a space, tab, newline
     * or backslash in the point written as an octal escape ({@code \040}).
     */
    static Optional<Mount> mountOf(Path path, List<String> mountLines) {
        Mount best = null;
        for (String line : mountLines) {
            String[] f = line.split(" ");
            if (f.length < 3) {
                continue;
            }
            Path point = Path.of(unescape(f[1]));
            if (path.startsWith(point) && (best == null || point.getNameCount() >= best.point().getNameCount())) {
                best = new Mount(point, f[2]);
            }
        }
        return Optional.ofNullable(best);
    }

    private static String unescape(String field) {
        StringBuilder out = new StringBuilder(field.length());
        for (int i = 0; i < field.length(); i++) {
            char c = field.charAt(i);
            if (c == '\\' && i + 3 < field.length() && field.substring(i + 1, i + 4).matches("[0-7]{3}")) {
                out.append((char) Integer.parseInt(field.substring(i + 1, i + 4), 8));
                i += 3;
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    /** Whether the file system has less free space than the server needs to start ({@link #ROOM_TO_START}). */
    boolean tooFullToStart() {
        return usableBytes < ROOM_TO_START;
    }

    /**
     * The one sentence an operator reads: which directory, on which file system, how much is free, that the edits are
     * kept and what to do. Without a final period: dialogs and the command line add their own ending.
     */
    String fullSentence() {
        return tr("The disk that holds Lockstep''s database is full: {0} is on the file system mounted at {1}, which "
                + "has {2} free, so the database server cannot run. Your edits are kept; free some space on that disk "
                + "and Lockstep starts the server again", dataDir.toString(),
                mountPoint + (type.isEmpty() ? ""
                        : " (" + type + ")"),
                size(usableBytes));
    }

    /** A size as people read it: whole KB below a megabyte, whole MB above (no separators: the same in every language). */
    static String size(long bytes) {
        long kb = bytes / 1024;
        return kb < 1024 ? kb + " KB" : String.format(Locale.ROOT, "%d MB", kb / 1024);
    }
}
