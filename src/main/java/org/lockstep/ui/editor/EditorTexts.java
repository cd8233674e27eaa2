package org.lockstep.ui.editor;

import java.time.Clock;
import java.util.List;
import org.lockstep.domain.Customer;
import org.lockstep.domain.FieldError;
import org.lockstep.ui.SaveStamp;

/** The editor's words: the window title, the version line and the reason Save is disabled. */
final class EditorTexts {

    private EditorTexts() {
    }

    /**
     * "• Acme — Customer #3 — Lockstep — alice", with "•" while there are unsaved edits.
     *
     * @param id the customer's id, negative when there is none yet
     */
    static String title(EditorState state, boolean dirty, String name, long id, String user) {
        String suffix = " — Lockstep — " + user;
        String customer = "Customer #" + id;
        return switch (state) {
            case EMPTY, LOADING -> id < 0 ? "Lockstep — " + user : customer + suffix;
            case NEW -> (dirty ? "• " + name + " — " : "") + "New customer" + suffix;
            case EDITING -> (dirty ? "• " : "") + name + " — " + customer + suffix;
            case DELETED -> name + " — " + customer + " (deleted)" + suffix;
        };
    }

    /** "version N · saved by X at T", "Loading…" or "New customer · not saved yet". */
    static String versionLine(EditorState state, Customer base, Clock clock) {
        return switch (state) {
            case EMPTY -> "";
            case LOADING -> "Loading…";
            case NEW -> "New customer · not saved yet";
            case EDITING -> base == null ? "" : SaveStamp.versionLine(base, clock);
            case DELETED -> base == null ? "deleted" : SaveStamp.versionLine(base, clock) + " · deleted";
        };
    }

    /** "Can't save: Email must look like name@example.com (and 1 more problem)". */
    static String blockedReason(List<FieldError> problems) {
        int more = problems.size() - 1;
        return "Can't save: " + problems.get(0).message()
                + (more == 0 ? "" : " (and " + more + " more problem" + (more == 1 ? ")" : "s)"));
    }
}
