package org.lockstep.ui.editor;

/**
 * A message across the top of the editor: why something did not happen and what to do next.
 *
 * @param kind         how it looks
 * @param text         one sentence in the operator's words, e.g. "Can't reach the database — your changes are
 *                     kept. Try Save again."
 * @param detail       what the database or driver said, for the curious; may be empty
 * @param offerReload  whether the notice offers to reload the record from the database
 */
public record EditorNotice(Kind kind, String text, String detail, boolean offerReload) {

    /** How a notice looks. */
    public enum Kind {
        INFO, ERROR
    }

    static EditorNotice info(String text) {
        return new EditorNotice(Kind.INFO, text, "", false);
    }

    static EditorNotice error(String text, String detail) {
        return new EditorNotice(Kind.ERROR, text, detail == null ? "" : detail, false);
    }

    /** What the database or driver said of {@code failure}: its message, else the name of its type. */
    static String detail(Throwable failure) {
        String message = failure.getMessage();
        return message == null || message.isBlank() ? failure.getClass().getSimpleName() : message;
    }

    EditorNotice withReload() {
        return new EditorNotice(kind, text, detail, true);
    }
}
