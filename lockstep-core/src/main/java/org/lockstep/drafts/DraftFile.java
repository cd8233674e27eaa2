package org.lockstep.drafts;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One file under {@code drafts/}: the draft in it, or why it could not be read (it is kept, not deleted).
 *
 * @param path          where it is
 * @param draft         the draft, when it could be read
 * @param problem       why it could not, when it could not
 * @param ownerRunning  whether the client that wrote it is still running (its drafts are its own)
 */
public record DraftFile(Path path, Optional<Draft> draft, Optional<UnreadableDraftException> problem,
        boolean ownerRunning) {

    static DraftFile of(Path path, boolean ownerRunning) throws IOException {
        List<UnreadableDraftException> problem = new ArrayList<>(1);
        Optional<Draft> draft = DraftJournal.readDraft(path, problem);
        return new DraftFile(path, draft, problem.stream().findFirst(), ownerRunning);
    }
}
