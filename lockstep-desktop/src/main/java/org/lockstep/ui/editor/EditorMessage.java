package org.lockstep.ui.editor;

import java.util.List;

/**
 * The kinds of message the customer editor's one message area shows, most urgent first: only one shows at a time
 * (issue 27, "One place for messages"), and the others wait behind a "1 more" button. News that fades ("Saved version
 * 7", "Message sent") is none of these: it is a toast over the form that takes no room and hides no message.
 */
enum EditorMessage {
    /**
     * Something the operator did failed (a save, a delete, a load): the changes may be at risk and the next step is
     * theirs, so nothing may hide it.
     */
    ERROR_NOTICE,
    /**
     * Whether the operator can edit now and what to do if not (Break lock…, Notify me when free, Lock again): the
     * fields' read-only state depends on it, and its actions are the only way out.
     */
    LOCK,
    /** Another operator saved what is being edited: the fields changed under the operator (Review). */
    LIVE,
    /** Why something happened (same values saved first, a message received): worth reading, nothing at risk. */
    INFO_NOTICE,
    /** Advice for a customer often edited at the same time: it stays true for days and can wait. */
    HOT_RECORD;

    /** Every kind, most urgent first: the message area's priority. */
    static final List<EditorMessage> BY_PRIORITY = List.of(values());
}
