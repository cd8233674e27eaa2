package org.lockstep.drafts;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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

    /** Reads the file now. */
    static DraftFile of(Path path, boolean ownerRunning) throws IOException {
        try {
            return new DraftFile(path, Optional.of(DraftFormat.read(Files.readAllBytes(path))), Optional.empty(),
                    ownerRunning);
        } catch (UnreadableDraftException e) {
            return new DraftFile(path, Optional.empty(), Optional.of(e), ownerRunning);
        }
    }
}
