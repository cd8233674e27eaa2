package org.lockstep.ui.editor;

import static org.lockstep.text.Texts.tr;

import java.time.Clock;
import java.util.List;
import org.lockstep.domain.Customer;
import org.lockstep.domain.FieldError;
import org.lockstep.ui.SaveStamp;

/** The editor's words: the window title, the version line and the reason Save is disabled. */
final class EditorTexts {

    /** The question before a restore, which saves at once: it names the version, and the edits it drops. */
    static String restoreQuestion(long version, boolean dropsEdits) {
        return dropsEdits
                ? tr("Restore version {0}? It is saved at once as a new version, and your unsaved changes are "
                        + "dropped.", version)
                : tr("Restore version {0}? It is saved at once as a new version.", version);
    }

    private EditorTexts() {
    }

    /**
     * "• Acme — Customer #3 — Lockstep — alice", with "•" while there are unsaved edits.
     *
     * @param id the customer's id, negative when there is none yet
     */
    static String title(EditorState state, boolean dirty, String name, long id, String user) {
        return switch (state) {
            case EMPTY, LOADING -> id < 0 ? tr("Lockstep — {0}", user) : tr("Customer #{0} — Lockstep — {1}", id, user);
            case NEW -> dirty ? tr("• {0} — New customer — Lockstep — {1}", name, user)
                    : tr("New customer — Lockstep — {0}", user);
            case EDITING -> (dirty ? "• " : "") + tr("{0} — Customer #{1} — Lockstep — {2}", name, id, user);
            case DELETED -> tr("{0} — Customer #{1} (deleted) — Lockstep — {2}", name, id, user);
        };
    }

    /** "version N · saved by X at T", "Loading…" or "New customer · not saved yet". */
    static String versionLine(EditorState state, Customer base, Clock clock) {
        return switch (state) {
            case EMPTY -> "";
            case LOADING -> tr("Loading…");
            case NEW -> tr("New customer · not saved yet");
            case EDITING -> base == null ? "" : SaveStamp.versionLine(base, clock);
            case DELETED -> base == null ? tr("deleted") : tr("{0} · deleted", SaveStamp.versionLine(base, clock));
        };
    }

    /**
     * The question before breaking another operator's lock on {@code customer}, naming the holder when known.
     *
     * @param holder the holder's name, or {@code null} when the editor does not know it
     */
    static String breakLockQuestion(String holder, String customer) {
        if (holder != null) {
            return tr("Break {0}''s lock on {1}? {0} keeps the changes in their editor but can no longer save them "
                    + "under the lock.", holder, customer);
        }
        return tr("Break the holder''s lock on {0}? The holder keeps the changes in their editor but can no longer "
                + "save them under the lock.", customer);
    }

    /** "Can't save: Email must look like name@example.com (and 1 more problem)". */
    static String blockedReason(List<FieldError> problems) {
        int more = problems.size() - 1;
        return more == 0 ? tr("Can't save: {0}", problems.get(0).message())
                : tr("Can't save: {0} (and {1, plural, one {# more problem} other {# more problems}})",
                        problems.get(0).message(), more);
    }
}
