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

    /**
     * How a notice looks, and how long it stays: {@link #INFO} and {@link #ERROR} stay until the state they describe
     * changes; {@link #NEWS} (saved, sent) is told once and fades after a few seconds.
     */
    public enum Kind {
        INFO, ERROR, NEWS
    }

    /** Whether the notice is news that fades by itself (the view hides it after a few seconds). */
    public boolean isTransient() {
        return kind == Kind.NEWS;
    }

    /** News told once, that fades: "Saved version 7". */
    static EditorNotice news(String text) {
        return new EditorNotice(Kind.NEWS, text, "", false);
    }

    /** "Saved version 7": the version a save, a merge or a restore just stored. */
    static EditorNotice savedVersion(long version) {
        return news(org.lockstep.text.Texts.tr("Saved version {0}", version));
    }

    /** "Restored version 4 as version 7": a restore just stored the values of an earlier version as a new one. */
    static EditorNotice restoredVersion(long restored, long version) {
        return news(org.lockstep.text.Texts.tr("Restored version {0} as version {1}", restored, version));
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
