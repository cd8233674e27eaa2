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

    /**
     * Reads the file now. The draft's key is the file's name, whatever the file says: the client that restores it
     * writes and removes it by that key, so a file that was renamed (adopted beside a draft of the same key, or
     * copied back by hand) must not be taken for another — its restore would overwrite that one, and it would itself
     * stay behind and be offered again after its edits were saved.
     */
    static DraftFile of(Path path, boolean ownerRunning) throws IOException {
        String name = path.getFileName().toString();
        String key = name.substring(0, name.length() - DraftJournal.SUFFIX.length());
        try {
            Draft draft = DraftFormat.read(Files.readAllBytes(path));
            if (!draft.key().equals(key)) {
                if (!DraftJournal.isValidKey(key)) {
                    throw new UnreadableDraftException(UnreadableDraftException.Reason.DAMAGED,
                            "the file's name is not a draft's key");
                }
                draft = draft.withKey(key);
            }
            return new DraftFile(path, Optional.of(draft), Optional.empty(), ownerRunning);
        } catch (UnreadableDraftException e) {
            return new DraftFile(path, Optional.empty(), Optional.of(e), ownerRunning);
        }
    }
}
