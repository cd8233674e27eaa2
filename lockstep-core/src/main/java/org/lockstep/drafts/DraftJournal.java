package org.lockstep.drafts;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.LinkOption;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.FileOwnerAttributeView;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * The drafts of one running client, journaled under a data directory's {@code drafts/}: one file per draft, written
 * so that a crash or a power cut at any moment leaves either the previous draft or the new one whole — never a
 * mixture (the bytes go to a temporary file, are flushed to the disk, and then take the draft's name in one atomic
 * rename, after which the directory itself is flushed).
 *
 * <p>Several clients may share one data directory (one operator, two processes). Each writes under an owner
 * directory of its own, {@code drafts/owner-UUID/}, and holds an operating-system lock on its {@code .lock} file for
 * as long as it runs; the system drops that lock when the process ends, however it ends ({@code kill -9} included).
 * So a client offers only its own drafts and, once another has ended, that one's too: {@link #adoptOrphans} moves the
 * drafts of every owner whose lock is free into this client's directory, holding that owner's lock while it does so,
 * so that two clients starting at once never both adopt the same draft.
 *
 * <p>Files are created {@code 0600} and directories {@code 0700} where the file system has POSIX permissions: a draft
 * holds what an operator typed about a customer, which is nobody else's to read. A {@code drafts/} directory found
 * open to others, and a draft adopted from a file others could read, are made so; a draft of another account (a data
 * directory shared by mistake, a file planted) and a link are never adopted. Drafts never leave the machine.
 * Thread-safe: every method holds this journal's monitor.
 */
public final class DraftJournal implements AutoCloseable {

    /** The directory under a data directory that holds the drafts. */
    public static final String DIRECTORY_NAME = "drafts";

    private static final Pattern KEY = Pattern.compile("[A-Za-z0-9-]{1,100}");
    static final String SUFFIX = ".json";
    private static final String TEMPORARY = ".json.tmp";
    private static final String OWNER_PREFIX = "owner-";
    private static final String LOCK = ".lock";
    private static final Set<PosixFilePermission> FILE = PosixFilePermissions.fromString("rw-------");
    private static final Set<PosixFilePermission> DIRECTORY = PosixFilePermissions.fromString("rwx------");

    private final Path root;
    private final Path own;
    private final FileChannel lockChannel;
    private final FileLock lock;
    private boolean closed;

    private DraftJournal(Path root, Path own, FileChannel lockChannel, FileLock lock) {
        this.root = root;
        this.own = own;
        this.lockChannel = lockChannel;
        this.lock = lock;
    }

    /** Where the drafts of a data directory are: {@code DATA_DIR/drafts}. */
    public static Path under(Path dataDir) {
        return dataDir.resolve(DIRECTORY_NAME);
    }

    /** Whether {@code key} may name a draft: 1 to 100 letters, digits and '-', so that it is a safe file name. */
    public static boolean isValidKey(String key) {
        return key != null && KEY.matcher(key).matches();
    }

    /**
     * Opens a journal of this client's own under {@code drafts}, creating the directories as needed.
     *
     * @throws IOException when the directory cannot be made or locked (a read-only or full disk)
     */
    public static DraftJournal open(Path drafts) throws IOException {
        createDirectory(drafts);
        Path own = drafts.resolve(OWNER_PREFIX + UUID.randomUUID());
        createDirectory(own);
        FileChannel channel = FileChannel.open(own.resolve(LOCK), Set.of(StandardOpenOption.CREATE_NEW,
                StandardOpenOption.WRITE), attributes(own, FILE));
        FileLock lock;
        try {
            lock = channel.tryLock();
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
        if (lock == null) {
            channel.close();
            throw new IOException("A new draft directory is locked by another process: " + own);
        }
        return new DraftJournal(drafts, own, channel, lock);
    }

    /** This client's own directory of drafts. */
    public Path directory() {
        return own;
    }

    /**
     * Journals a draft, replacing the one of the same key. When this returns, the draft is on the disk.
     *
     * @throws IOException when it could not be written (the disk is full, say); the previous draft is still whole
     */
    public synchronized void save(Draft draft) throws IOException {
        ensureOpen();
        byte[] bytes = DraftFormat.write(draft);
        Path temporary = own.resolve(draft.key() + TEMPORARY);
        try (FileChannel out = FileChannel.open(temporary, Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING), attributes(own, FILE))) {
            ByteBuffer buffer = ByteBuffer.wrap(bytes);
            while (buffer.hasRemaining()) {
                out.write(buffer);
            }
            out.force(true);
        } catch (IOException e) {
            Files.deleteIfExists(temporary);
            throw e;
        }
        Files.move(temporary, own.resolve(draft.key() + SUFFIX), StandardCopyOption.ATOMIC_MOVE,
                StandardCopyOption.REPLACE_EXISTING);
        flush(own);
    }

    /** Removes a draft (saved, reverted or discarded); nothing happens when there is none. */
    public synchronized void remove(String key) throws IOException {
        ensureOpen();
        if (!isValidKey(key)) {
            throw new IllegalArgumentException("Not a draft's key: " + key);
        }
        if (Files.deleteIfExists(own.resolve(key + SUFFIX))) {
            flush(own);
        }
    }

    /** This client's drafts, readable or not, oldest file name first. */
    public synchronized List<DraftFile> drafts() throws IOException {
        ensureOpen();
        return read(own, true);
    }

    /**
     * Moves {@code operator}'s drafts of every client that is no longer running into this client's directory, so that
     * they are this client's to offer, and removes what those clients left half-written. Drafts of running clients
     * stay theirs; so do another operator's drafts (two operators who share one account and one data directory, each
     * with their own {@code --user}) and files that cannot be read: they stay where they are, for their own operator's
     * next start — a client of another operator running meanwhile never holds them — and for {@code lockstep drafts}.
     *
     * @param operator whose drafts to adopt: the operator this client signed in as
     * @return the drafts adopted
     */
    public synchronized List<DraftFile> adoptOrphans(String operator) throws IOException {
        ensureOpen();
        List<DraftFile> adopted = new ArrayList<>();
        for (Path owner : owners(root)) {
            if (owner.equals(own) || !ours(owner)) {
                continue;
            }
            try (Ownership ownership = Ownership.ifEnded(owner)) {
                if (ownership == null) {
                    continue;
                }
                boolean left = false;
                for (Path file : files(owner)) {
                    String name = file.getFileName().toString();
                    if (name.endsWith(TEMPORARY)) {
                        Files.deleteIfExists(file); // cut short by the crash: the draft before it is whole
                    } else if (name.endsWith(SUFFIX)) {
                        if (!ours(file)) {
                            left = true;
                            continue;
                        }
                        DraftFile found = DraftFile.of(file, false);
                        if (found.draft().filter(d -> d.operator().equals(operator)).isEmpty()) {
                            left = true; // another operator's, or unreadable: kept where it is
                            continue;
                        }
                        Path target = free(own.resolve(name));
                        Files.move(file, target, StandardCopyOption.ATOMIC_MOVE);
                        onlyOurs(target, FILE);
                        adopted.add(DraftFile.of(target, true));
                    } else {
                        left = true;
                    }
                }
                flush(own);
                if (!left) {
                    ownership.removeOwner();
                }
            }
        }
        return adopted;
    }

    /**
     * Every draft under {@code drafts}, of running clients and of ended ones, for the command line; reads only.
     *
     * @return the drafts, each saying whether its client is still running
     */
    public static List<DraftFile> listAll(Path drafts) throws IOException {
        List<DraftFile> all = new ArrayList<>();
        for (Path owner : owners(drafts)) {
            all.addAll(read(owner, Ownership.isRunning(owner)));
        }
        return all;
    }

    /**
     * Removes drafts of clients that are no longer running, for the command line: a running client's drafts are
     * its own, and it would write them again at the next keystroke.
     *
     * @param which chooses the drafts to remove
     * @return the drafts removed
     */
    public static List<DraftFile> discard(Path drafts, java.util.function.Predicate<DraftFile> which)
            throws IOException {
        List<DraftFile> removed = new ArrayList<>();
        for (Path owner : owners(drafts)) {
            try (Ownership ownership = Ownership.ifEnded(owner)) {
                if (ownership == null) {
                    continue;
                }
                for (DraftFile file : read(owner, false)) {
                    if (which.test(file)) {
                        Files.deleteIfExists(file.path());
                        removed.add(file);
                    }
                }
                flush(owner);
                if (read(owner, false).isEmpty()) {
                    ownership.removeOwner();
                }
            }
        }
        return removed;
    }

    /**
     * Ends this client's journal: its lock is released, and its directory removed if it holds no draft. A client that
     * ends with drafts (the operator chose to keep them) leaves them to be adopted at the next start.
     */
    @Override
    public synchronized void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        boolean empty = read(own, true).isEmpty();
        if (empty) {
            Files.deleteIfExists(own.resolve(LOCK));
        }
        lock.release();
        lockChannel.close();
        if (empty) {
            for (Path file : files(own)) {
                Files.deleteIfExists(file); // only temporaries can be left here
            }
            Files.deleteIfExists(own);
        }
    }

    /** For tests of a crash: lets go of the lock as the operating system does when the process dies, nothing else. */
    void abandon() throws IOException {
        synchronized (this) {
            closed = true;
        }
        lock.release();
        lockChannel.close();
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("The draft journal is closed");
        }
    }

    private static List<DraftFile> read(Path owner, boolean running) throws IOException {
        List<DraftFile> out = new ArrayList<>();
        for (Path file : files(owner)) {
            String name = file.getFileName().toString();
            if (name.endsWith(SUFFIX) && !name.endsWith(TEMPORARY)) {
                out.add(DraftFile.of(file, running));
            }
        }
        return out;
    }

    private static List<Path> owners(Path drafts) throws IOException {
        if (!Files.isDirectory(drafts)) {
            return List.of();
        }
        List<Path> owners = new ArrayList<>();
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(drafts, OWNER_PREFIX + "*")) {
            for (Path dir : dirs) {
                if (Files.isDirectory(dir)) {
                    owners.add(dir);
                }
            }
        }
        owners.sort(Comparator.naturalOrder());
        return owners;
    }

    private static List<Path> files(Path dir) throws IOException {
        List<Path> files = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            for (Path p : entries) {
                if (!p.getFileName().toString().equals(LOCK)) {
                    files.add(p);
                }
            }
        } catch (NoSuchFileException e) {
            return List.of();
        }
        files.sort(Comparator.naturalOrder());
        return files;
    }

    /** A name in the same directory that no file has yet: {@code name.json}, else {@code name-2.json} and so on. */
    private static Path free(Path wanted) {
        if (!Files.exists(wanted)) {
            return wanted;
        }
        String name = wanted.getFileName().toString();
        String stem = name.substring(0, name.length() - SUFFIX.length());
        for (int i = 2;; i++) {
            Path candidate = wanted.resolveSibling(stem + "-" + i + SUFFIX);
            if (!Files.exists(candidate)) {
                return candidate;
            }
        }
    }

    private static void createDirectory(Path dir) throws IOException {
        try {
            Files.createDirectories(dir.getParent());
            Files.createDirectory(dir, attributes(dir.getParent(), DIRECTORY));
        } catch (FileAlreadyExistsException e) {
            if (!Files.isDirectory(dir)) {
                throw e;
            }
            onlyOurs(dir, DIRECTORY); // made by hand, by an older Lockstep, or under umask 000 by something else
        }
    }

    /** Takes from group and others what {@code path} gives them, if anything: drafts are their operator's only. */
    private static void onlyOurs(Path path, Set<PosixFilePermission> permissions) throws IOException {
        PosixFileAttributeView view = Files.getFileAttributeView(path, PosixFileAttributeView.class,
                LinkOption.NOFOLLOW_LINKS);
        if (view != null && !view.readAttributes().permissions().equals(permissions)) {
            view.setPermissions(permissions);
        }
    }

    /**
     * Whether {@code path} is a plain file or directory (no link) of the account this journal runs as: a draft of
     * another account (under a data directory shared by mistake, or a file planted in one) is not this operator's to
     * be offered, and moving it would hand that account's words to this one.
     */
    private boolean ours(Path path) throws IOException {
        BasicFileAttributes attributes = Files.readAttributes(path, BasicFileAttributes.class,
                LinkOption.NOFOLLOW_LINKS);
        if (!attributes.isRegularFile() && !attributes.isDirectory()) {
            return false;
        }
        FileOwnerAttributeView owner = Files.getFileAttributeView(path, FileOwnerAttributeView.class,
                LinkOption.NOFOLLOW_LINKS);
        return owner == null || owner.getOwner().equals(Files.getOwner(own.resolve(LOCK)));
    }

    /** Flushes a directory's entries (a rename, a new file) to the disk, where the system allows it. */
    private static void flush(Path dir) throws IOException {
        try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
            channel.force(true);
        } catch (IOException e) {
            if (!System.getProperty("os.name", "").startsWith("Windows")) {
                throw e;
            }
            // Windows opens no directory as a channel; its renames are journaled by NTFS itself.
        }
    }

    private static FileAttribute<?>[] attributes(Path dir, Set<PosixFilePermission> permissions) {
        boolean posix = dir.getFileSystem().supportedFileAttributeViews().contains("posix");
        return posix ? new FileAttribute<?>[]{PosixFilePermissions.asFileAttribute(permissions)}
                : new FileAttribute<?>[0];
    }

    /** Another client's lock, held while this one adopts or removes its drafts. */
    private static final class Ownership implements AutoCloseable {

        private final Path owner;
        private final FileChannel channel;
        private final FileLock lock;

        private Ownership(Path owner, FileChannel channel, FileLock lock) {
            this.owner = owner;
            this.channel = channel;
            this.lock = lock;
        }

        /** The owner's lock if its client has ended, else {@code null} (it still runs, here or elsewhere). */
        static Ownership ifEnded(Path owner) throws IOException {
            FileChannel channel;
            try {
                channel = FileChannel.open(owner.resolve(LOCK), StandardOpenOption.WRITE);
            } catch (NoSuchFileException e) {
                // A client that ended between creating its directory and its lock file, or one that removed its
                // lock while leaving (close): either way nobody holds it. Make one, to hold while adopting.
                try {
                    channel = FileChannel.open(owner.resolve(LOCK), Set.of(StandardOpenOption.CREATE,
                            StandardOpenOption.WRITE), attributes(owner, FILE));
                } catch (NoSuchFileException gone) {
                    return null; // the whole directory went: another client adopted it just now
                }
            }
            try {
                FileLock lock = channel.tryLock();
                if (lock == null) {
                    channel.close();
                    return null;
                }
                if (!Files.isDirectory(owner)) {
                    lock.release();
                    channel.close();
                    return null;
                }
                return new Ownership(owner, channel, lock);
            } catch (OverlappingFileLockException e) {
                channel.close();
                return null; // held by this very process: a journal of this JVM's
            }
        }

        static boolean isRunning(Path owner) throws IOException {
            try (Ownership ownership = ifEnded(owner)) {
                return ownership == null && Files.isDirectory(owner);
            }
        }

        /** Removes the owner's directory once its drafts are gone. */
        void removeOwner() throws IOException {
            Files.deleteIfExists(owner.resolve(LOCK));
            lock.release();
            channel.close();
            for (Path leftover : files(owner)) {
                Files.deleteIfExists(leftover);
            }
            Files.deleteIfExists(owner);
        }

        @Override
        public void close() throws IOException {
            if (channel.isOpen()) {
                lock.release();
                channel.close();
            }
        }
    }
}
