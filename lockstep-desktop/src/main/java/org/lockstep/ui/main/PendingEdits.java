package org.lockstep.ui.main;

/** What the operator chose when an action would replace the editor pane's unsaved edits. */
public enum PendingEdits {
    /** Drop the edits and go on. */
    DISCARD,
    /** Keep the edits in the pane and open the other customer in its own window instead. */
    OPEN_IN_NEW_WINDOW,
    /** Stay on the edited customer; nothing changes. */
    KEEP_EDITING;

    /** Asks the operator what to do with unsaved edits. */
    @FunctionalInterface
    public interface Prompt {
        /**
         * Asks the question and waits for the answer.
         *
         * @param question       what is at stake, e.g. "You have unsaved changes to “Firma 0001”. Discard them and
         *                       open “Firma 0002”?"
         * @param offerNewWindow whether {@link #OPEN_IN_NEW_WINDOW} is a possible answer
         * @return the operator's choice; closing the question means {@link #KEEP_EDITING}
         */
        PendingEdits ask(String question, boolean offerNewWindow);
    }
}
