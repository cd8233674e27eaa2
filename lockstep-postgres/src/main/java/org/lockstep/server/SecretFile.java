package org.lockstep.server;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Optional;
import java.util.Set;

/**
 * Generated passwords kept in files that only their owner can read (mode 600) from the moment they exist: a file is
 * created with that mode (a umask can only take permissions away), filled, then renamed into place, so no other user
 * ever finds it readable, empty or half written.
 */
final class SecretFile {

    /** rw-------: the mode of every password file in a data directory. */
    static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");

    private static final int SECRET_BYTES = 18;
    private static final SecureRandom RANDOM = new SecureRandom();

    private SecretFile() {
    }

    /**
     * Makes {@code file} this user's only (mode 600) before a program or a lock writes it: created empty with that
     * mode when absent, narrowed to it when present. A umask of 000 (a kiosk account, a careless service unit) left
     * {@code port}, {@code server.lock}, {@code initdb.log} and {@code pg_ctl.log} writable by every user, so another
     * account could point Lockstep at a server of its own through {@code port} (issue 28, seen by hand in a data
     * directory made beforehand with mode 755). Does nothing where files have no POSIX modes.
     *
     * @throws IOException when the directory cannot be written
     */
    static void ownerOnly(Path file) throws IOException {
        if (!FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
            return;
        }
        try {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
        } catch (FileAlreadyExistsException exists) {
            if (!Files.isSymbolicLink(file) && !Files.getPosixFilePermissions(file).equals(OWNER_ONLY)) {
                Files.setPosixFilePermissions(file, OWNER_ONLY);
            }
        }
    }

    /** A new random secret: 36 hex digits (144 bits). */
    static String generate() {
        byte[] bytes = new byte[SECRET_BYTES];
        RANDOM.nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    /**
     * The secret stored in {@code file}, or empty when there is no such file.
     *
     * @throws IOException when the file exists but cannot be read
     */
    static Optional<String> read(Path file) throws IOException {
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        return Optional.of(Files.readString(file, StandardCharsets.US_ASCII).strip());
    }

    /**
     * Stores {@code secret} in {@code file} (mode 600 from its creation), replacing any file of that name at once.
     *
     * @throws IOException when the directory cannot be written
     */
    static void write(Path file, String secret) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        Path tmp = Files.createTempFile(dir, "." + file.getFileName(), ".tmp",
                PosixFilePermissions.asFileAttribute(OWNER_ONLY));
        try {
            Files.writeString(tmp, secret, StandardCharsets.US_ASCII);
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }
}
