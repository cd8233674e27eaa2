package org.lockstep.ui.editor;

/**
 * A helper that works on the record an editor shows — its lock, its messages, its presence seat, its hot-record
 * watch — and follows the editor from record to record. The null object {@link #NONE} stands for a helper the
 * process does not have (no presence board, no messages), so the editor never checks for {@code null}.
 */
interface RecordScoped {

    /** The editor now shows {@code customerId} (a stored customer). */
    void attach(long customerId);

    /** The editor shows no stored customer any more (nothing, a new one, a deleted one). */
    void detach();

    /** The editor closes; the helper is not used afterwards. */
    void close();

    /** A helper that does nothing. */
    RecordScoped NONE = new RecordScoped() {
        @Override
        public void attach(long customerId) {
        }

        @Override
        public void detach() {
        }

        @Override
        public void close() {
        }
    };
}
