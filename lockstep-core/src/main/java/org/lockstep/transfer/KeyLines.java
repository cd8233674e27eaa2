package org.lockstep.transfer;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * The keys of a file's rows (external refs, ids) with the line each is on, to find the keys the file gives more than
 * once and the first line of each, in memory bounded by {@code runSize} entries whatever the file's size: entries
 * are sorted in runs of that many, every full run is written to a temporary file (owner-only, deleted on
 * {@link #close()}), and the runs are merged in key order — an external merge sort (Knuth, TAOCP vol. 3, 5.4). A file
 * with no more rows than a run never touches the disk.
 *
 * <p>The merge reads each run through a 64 KB buffer, so a file of {@code n} rows holds {@code n / runSize} such
 * buffers while merging: 13 MB for ten million rows in runs of {@value #RUN_SIZE}.
 */
final class KeyLines implements Closeable {

    /** Entries held in memory before a run goes to disk: about 5 MB of short refs. */
    static final int RUN_SIZE = 50_000;

    private static final int BUFFER_BYTES = 64 * 1024;

    private static final Comparator<Entry> ORDER = Comparator.comparing(Entry::key).thenComparingLong(Entry::line);

    /**
     * A key and where it is.
     *
     * @param key  the key as text (an id written in decimal)
     * @param line the line of the file the row starts on
     * @param id   the row's id when the import is keyed by id, else {@code null}
     */
    record Entry(String key, long line, Long id) {
    }

    private final int runSize;
    private final List<Entry> run = new ArrayList<>();
    private final List<Path> spilled = new ArrayList<>();
    private int mostHeld;

    /** @param runSize the most entries held in memory at once */
    KeyLines(int runSize) {
        this.runSize = runSize;
    }

    /** Adds a row's key. @throws IOException when a full run cannot be written to a temporary file */
    void add(String key, long line, Long id) throws IOException {
        run.add(new Entry(key, line, id));
        mostHeld = Math.max(mostHeld, run.size());
        if (run.size() == runSize) {
            spill();
        }
    }

    /**
     * Passes every key once, in key order: its first entry (the lowest line) to {@code first}, and each later entry
     * of the same key, with that first one, to {@code again}.
     *
     * @throws IOException when a run cannot be read back
     */
    void merge(Consumer<Entry> first, BiConsumer<Entry, Entry> again) throws IOException {
        run.sort(ORDER);
        List<Cursor> cursors = new ArrayList<>();
        try {
            for (Path p : spilled) {
                cursors.add(new FileCursor(p));
            }
            cursors.add(new ListCursor(run));
            PriorityQueue<Cursor> heads = new PriorityQueue<>(Comparator.comparing(Cursor::head, ORDER));
            for (Cursor c : cursors) {
                if (c.head() != null) {
                    heads.add(c);
                }
            }
            Entry firstOfKey = null;
            while (!heads.isEmpty()) {
                Cursor c = heads.poll();
                Entry e = c.head();
                if (firstOfKey != null && firstOfKey.key().equals(e.key())) {
                    again.accept(e, firstOfKey);
                } else {
                    firstOfKey = e;
                    first.accept(e);
                }
                if (c.advance()) {
                    heads.add(c);
                }
            }
        } finally {
            for (Cursor c : cursors) {
                c.close();
            }
        }
    }

    /** The most entries this has held in memory at once: never more than its run size. */
    int mostHeld() {
        return mostHeld;
    }

    /** The temporary files the full runs went to, until {@link #close()} deletes them. */
    List<Path> runFiles() {
        return List.copyOf(spilled);
    }

    /** Deletes the temporary files. */
    @Override
    public void close() throws IOException {
        IOException failed = null;
        for (Path p : spilled) {
            try {
                Files.deleteIfExists(p);
            } catch (IOException e) {
                failed = e;
            }
        }
        spilled.clear();
        run.clear();
        if (failed != null) {
            throw failed;
        }
    }

    private void spill() throws IOException {
        run.sort(ORDER);
        // Owner-only (rw-------) on POSIX file systems: the keys are customers' references.
        Path file = Files.createTempFile("lockstep-import-keys-", ".bin");
        spilled.add(file);
        try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(file),
                BUFFER_BYTES))) {
            for (Entry e : run) {
                out.writeUTF(e.key());
                out.writeLong(e.line());
                out.writeBoolean(e.id() != null);
                out.writeLong(e.id() == null ? 0 : e.id());
            }
        }
        run.clear();
    }

    /** A sorted run being merged: its current entry, or {@code null} at its end. */
    private interface Cursor extends Closeable {
        Entry head();

        /** Moves to the next entry. @return whether there is one */
        boolean advance() throws IOException;

        @Override
        void close();
    }

    private static final class ListCursor implements Cursor {
        private final List<Entry> entries;
        private int at;

        ListCursor(List<Entry> entries) {
            this.entries = entries;
        }

        @Override
        public Entry head() {
            return at < entries.size() ? entries.get(at) : null;
        }

        @Override
        public boolean advance() {
            at++;
            return at < entries.size();
        }

        @Override
        public void close() {
        }
    }

    private static final class FileCursor implements Cursor {
        private final DataInputStream in;
        private Entry head;

        FileCursor(Path file) throws IOException {
            in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file), BUFFER_BYTES));
            head = read();
        }

        private Entry read() throws IOException {
            String key;
            try {
                key = in.readUTF();
            } catch (EOFException end) {
                return null;
            }
            long line = in.readLong();
            boolean hasId = in.readBoolean();
            long id = in.readLong();
            return new Entry(key, line, hasId ? id : null);
        }

        @Override
        public Entry head() {
            return head;
        }

        @Override
        public boolean advance() throws IOException {
            head = read();
            return head != null;
        }

        @Override
        public void close() {
            try {
                in.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
