package org.lockstep.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Set;
import java.util.UUID;

/**
 * The client session of the command line: one per operator name and data directory, kept in
 * {@code <data dir>/cli-sessions/} (mode 600), so that a lease taken by {@code lease acquire} belongs to the
 * commands that follow it on this machine ({@code set --lease-token}, {@code lease release}), and to nobody else —
 * not even another machine whose operators share the same login. A lease is recognised by the session that holds
 * it, never by the holder's name.
 */
final class CliSession {

    private static final java.security.SecureRandom RANDOM = new java.security.SecureRandom();

    private CliSession() {
    }

    /**
     * This machine's command-line session for {@code user}, created on first use.
     *
     * @throws UncheckedIOException when the data directory cannot be written
     */
    static String id(Path dataDir, String user) {
        Path dir = dataDir.resolve("cli-sessions");
        Path file = dir.resolve(fileName(user));
        try {
            privateDirectory(dir);
            if (Files.exists(file)) {
                return Files.readString(file, StandardCharsets.US_ASCII).strip();
            }
            String id = "cli-" + UUID.randomUUID();
            Path tmp = Files.createTempFile(dir, "session", ".tmp",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            Files.writeString(tmp, id, StandardCharsets.US_ASCII);
            try {
                // Two commands starting at once: the first to link its file wins, the other reads the winner's.
                Files.createLink(file, tmp);
                return id;
            } catch (FileAlreadyExistsException raced) {
                return Files.readString(file, StandardCharsets.US_ASCII).strip();
            } finally {
                Files.deleteIfExists(tmp);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot keep the command line's session in " + dir, e);
        }
    }

    /**
     * This machine's command-line key for lease secrets for {@code user} ({@code org.lockstep.store.LeaseSecrets}),
     * created on first use beside the session, mode 600: the {@code set --lease-token} after a {@code lease acquire}
     * proves the lease with it, and no other account or machine has it.
     *
     * @throws UncheckedIOException when the data directory cannot be written
     */
    static byte[] key(Path dataDir, String user) {
        Path dir = dataDir.resolve("cli-sessions");
        Path file = dir.resolve(fileName(user) + ".key");
        try {
            privateDirectory(dir);
            if (Files.exists(file)) {
                return HexFormat.of().parseHex(Files.readString(file, StandardCharsets.US_ASCII).strip());
            }
            byte[] key = new byte[32];
            RANDOM.nextBytes(key);
            Path tmp = Files.createTempFile(dir, "key", ".tmp",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            Files.writeString(tmp, HexFormat.of().formatHex(key), StandardCharsets.US_ASCII);
            try {
                // As with the session: of two commands starting at once, the first to link its file wins.
                Files.createLink(file, tmp);
                return key;
            } catch (FileAlreadyExistsException raced) {
                return HexFormat.of().parseHex(Files.readString(file, StandardCharsets.US_ASCII).strip());
            } finally {
                Files.deleteIfExists(tmp);
            }
        } catch (IOException | IllegalArgumentException e) {
            throw new UncheckedIOException("Cannot keep the command line's lease key in " + dir,
                    e instanceof IOException io ? io : new IOException(e));
        }
    }

    /**
     * Creates the sessions' directory for this user only (mode 700), or narrows it to that: made under {@code umask
     * 000} in a data directory others may enter, it was 777, and any account could remove or replace the sessions
     * and keys in it (issue 28).
     */
    private static void privateDirectory(Path dir) throws IOException {
        if (!FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
            Files.createDirectories(dir);
            return;
        }
        Set<PosixFilePermission> ownerOnly = PosixFilePermissions.fromString("rwx------");
        if (!Files.isDirectory(dir)) {
            Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(ownerOnly));
        }
        if (!Files.isSymbolicLink(dir) && !Files.getPosixFilePermissions(dir).equals(ownerOnly)) {
            Files.setPosixFilePermissions(dir, ownerOnly);
        }
    }

    /** A file name for any operator name (names may hold any character). */
    private static String fileName(String user) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(user.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this Java runtime", e);
        }
    }
}
