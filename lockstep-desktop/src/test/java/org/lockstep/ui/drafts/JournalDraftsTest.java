package org.lockstep.ui.drafts;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.lockstep.drafts.Draft;
import org.lockstep.drafts.DraftJournal;

/** {@link DraftsContract} for the journal on a data directory: an ended client is a journal written and closed. */
class JournalDraftsTest extends DraftsContract {

    @TempDir
    Path dataDir;
    JournalDrafts journal;

    @Override
    Drafts drafts() {
        try {
            if (journal == null) {
                journal = JournalDrafts.open(dataDir);
            }
            return journal;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    void leftByEndedClient(Draft draft) throws IOException {
        try (DraftJournal ended = DraftJournal.open(DraftJournal.under(dataDir))) {
            ended.save(draft); // its close() leaves the draft for the next start
        }
    }

    @AfterEach
    void close() throws IOException {
        if (journal != null) {
            journal.close();
        }
    }
}
