package org.lockstep.ui.drafts;

import java.io.IOException;
import java.util.List;
import org.lockstep.drafts.Draft;

/**
 * Where the desktop keeps its editors' unsaved work, so that it survives the client ending without a save (a crash,
 * a power cut, a forced logout): the port the editors and the restore offer use, so that their view models are tested
 * without files. The application's is {@link JournalDrafts} over a {@link org.lockstep.drafts.DraftJournal} under the
 * data directory. Methods block on the disk: call them off the FX thread. Thread-safe.
 */
public interface Drafts {

    /**
     * Keeps {@code draft}, replacing the one of the same key. When this returns, it is on the disk.
     *
     * @throws IOException when it could not be kept (a full disk); the previous draft of that key is still whole
     */
    void save(Draft draft) throws IOException;

    /** Removes the draft of {@code key} (saved, reverted or discarded); nothing happens when there is none. */
    void remove(String key) throws IOException;

    /**
     * {@code operator}'s drafts of clients that ended without saving them, made this client's own (so that {@link
     * #remove} and {@link #save} under their key act on them). Another operator's drafts, and drafts that cannot be
     * read, are left where they are: the next start of that operator adopts theirs, even while this client runs.
     */
    List<Draft> adoptOrphans(String operator) throws IOException;

    /** This client's drafts, as kept now. */
    List<Draft> drafts() throws IOException;
}
