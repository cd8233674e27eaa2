package org.lockstep.ui.drafts;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.lockstep.drafts.Draft;
import org.lockstep.drafts.DraftFile;
import org.lockstep.drafts.DraftJournal;

/**
 * {@link Drafts} in files: a {@link DraftJournal} of this client under {@code DATA_DIR/drafts}, written atomically
 * and flushed, {@code 0600}. Closing it keeps the drafts still there for the next start.
 */
public final class JournalDrafts implements Drafts, AutoCloseable {

    private final DraftJournal journal;

    private JournalDrafts(DraftJournal journal) {
        this.journal = journal;
    }

    /**
     * Opens this client's journal under {@code dataDir}'s {@code drafts/}.
     *
     * @throws IOException when the directory cannot be made or locked (a read-only or full disk)
     */
    public static JournalDrafts open(Path dataDir) throws IOException {
        return new JournalDrafts(DraftJournal.open(DraftJournal.under(dataDir)));
    }

    @Override
    public void save(Draft draft) throws IOException {
        journal.save(draft);
    }

    @Override
    public void remove(String key) throws IOException {
        journal.remove(key);
    }

    @Override
    public List<Draft> adoptOrphans(String operator) throws IOException {
        return readable(journal.adoptOrphans(operator));
    }

    @Override
    public List<Draft> drafts() throws IOException {
        return readable(journal.drafts());
    }

    /** This client's own directory of drafts. */
    public Path directory() {
        return journal.directory();
    }

    /** Lets go of the journal; the drafts left in it are adopted at the next start. */
    @Override
    public void close() throws IOException {
        journal.close();
    }

    private static List<Draft> readable(List<DraftFile> files) {
        return files.stream().map(DraftFile::draft).flatMap(Optional::stream).toList();
    }
}
