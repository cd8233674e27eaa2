package org.lockstep.domain;

import java.util.List;

/**
 * An import that would update customers someone else changed since the file's version of them, or that another
 * session holds locked: nothing was imported (all or nothing), so no one's work is silently overwritten.
 */
public class ImportConflictException extends RuntimeException {
    private final transient List<String> problems;
    private final boolean locked;

    /**
     * @param problems one sentence per row at fault, each starting with its line ("line 7: …")
     * @param locked   whether any row met another session's lock (rather than only a newer version)
     */
    public ImportConflictException(List<String> problems, boolean locked) {
        super(problems.size() + " row(s) would overwrite newer or locked customers");
        this.problems = List.copyOf(problems);
        this.locked = locked;
    }

    /** One sentence per row at fault. */
    public List<String> problems() {
        return problems;
    }

    /** Whether any row met another session's lock. */
    public boolean locked() {
        return locked;
    }
}
