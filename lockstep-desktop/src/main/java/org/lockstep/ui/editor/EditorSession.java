package org.lockstep.ui.editor;

import static org.lockstep.text.Texts.tr;

import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.function.Consumer;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import org.lockstep.domain.Customer;

/**
 * What the parts of one customer editor share (mvvmFX's scope): the record it shows (its id), the operator's edits
 * ({@link EditBuffer}), where the editor is in its life ({@link EditorState}), the message across its top
 * ({@link EditorNotice}), and the events the parts tell each other of — a save committed, the edits reset to a
 * record, the customer deleted, a customer re-created, a conflict the repository counted. A part changes the session
 * and the session tells the others ({@link Events}); no part calls another back. Plain and confined to the FX thread,
 * like every part: a listener runs on the thread that changed the session, before the change method returns.
 *
 * <p>The editor's view model ({@link CustomerEditorViewModel}) creates one session, hands it to its parts and
 * subscribes what only it does — moving the record-scoped helpers and telling the window — as any part would.
 */
public final class EditorSession {

    /** What the parts of an editor hear of each other; each method does nothing unless overridden. */
    public interface Events {

        /** A save of this editor committed as {@code stored}: here, in its merge, or for a record no longer shown. */
        default void saved(Customer stored) {
        }

        /** The edits were reset to {@code record}, clean: nothing is left to review against an older base. */
        default void reset(Customer record) {
        }

        /**
         * The customer {@code customerId} was deleted (by this editor, or by someone else and accepted here).
         *
         * @param shown whether the editor still showed it; when not, only the outside (the list) needs to know
         */
        default void deleted(long customerId, boolean shown) {
        }

        /** "Re-create with my values" created {@code created}, which the editor now edits. */
        default void recreated(Customer created) {
        }

        /** The repository counted a conflict on {@code customerId} (a zero-row save or delete). */
        default void conflictCounted(long customerId) {
        }
    }

    private final String writerId;
    private final ZoneId zone;
    private final EditBuffer buffer = new EditBuffer();
    private final ReadOnlyObjectWrapper<EditorState> state =
            new ReadOnlyObjectWrapper<>(this, "state", EditorState.EMPTY);
    private final ReadOnlyObjectWrapper<EditorNotice> notice = new ReadOnlyObjectWrapper<>(this, "notice");
    private final List<Events> listeners = new ArrayList<>();
    private long id = -1;

    /**
     * @param writerId the writer id the editor writes as: its saves carry it, its lease is held by it
     * @param zone     where the operator reads times (a save's "at 10:07", a lock's "until 10:07")
     */
    public EditorSession(String writerId, ZoneId zone) {
        this.writerId = Objects.requireNonNull(writerId, "writerId");
        this.zone = Objects.requireNonNull(zone, "zone");
    }

    /** Subscribes {@code events} for the session's life; listeners run in the order they subscribed. */
    public void subscribe(Events events) {
        listeners.add(Objects.requireNonNull(events));
    }

    // ---- what the editor shows --------------------------------------------------------------------------------------

    /** The edits: each field's text, error and warning, the base record, whether it is dirty. */
    public EditBuffer buffer() {
        return buffer;
    }

    /** Where the editor is in its life. */
    public ReadOnlyObjectProperty<EditorState> stateProperty() {
        return state.getReadOnlyProperty();
    }

    /** The state now. */
    public EditorState state() {
        return state.get();
    }

    /** The editor moves to {@code next}. */
    public void state(EditorState next) {
        state.set(next);
    }

    /** The message across the top, or {@code null}. */
    public ReadOnlyObjectProperty<EditorNotice> noticeProperty() {
        return notice.getReadOnlyProperty();
    }

    /** Shows {@code message} across the top ({@code null}: none). */
    public void notice(EditorNotice message) {
        notice.set(message);
    }

    /** The customer's id; empty for none, or for a new customer not yet saved. */
    public OptionalLong customerId() {
        return id < 0 ? OptionalLong.empty() : OptionalLong.of(id);
    }

    /** The editor is about {@code customerId} from now on ({@code -1}: none, or a new customer). */
    public void customerId(long customerId) {
        id = customerId;
    }

    /** The writer id this editor writes as. */
    public String writerId() {
        return writerId;
    }

    /** Where the operator reads times. */
    public ZoneId zone() {
        return zone;
    }

    // ---- what happened ----------------------------------------------------------------------------------------------

    /** The editor shows {@code record}, clean, with {@code message} ({@code null}: none). */
    public void resetTo(Customer record, EditorNotice message) {
        buffer.reset(record);
        state.set(EditorState.EDITING);
        notice.set(message);
        listeners.forEach(l -> l.reset(record));
    }

    /**
     * This editor's save of {@code mine} committed as {@code stored} while it still shows that record: the stored
     * record becomes the base and edits typed since stay; the notice says "Saved version N", replacing what it said
     * before (an earlier failed try, a refusal).
     */
    public void savedHere(Customer stored, EditBuffer.Snapshot mine) {
        id = stored.id();
        buffer.saved(stored, mine);
        state.set(EditorState.EDITING);
        // The save supersedes what the notice said before it (an earlier failed try, a refusal): say it was saved,
        // and a restore what it restored, as the History tab then lists it.
        notice.set(mine.restoredFrom().isPresent()
                ? EditorNotice.restoredVersion(mine.restoredFrom().getAsLong(), stored.version())
                : EditorNotice.savedVersion(stored.version()));
        committed(stored);
    }

    /** A save of this editor committed as {@code stored}, whatever the editor shows now. */
    public void committed(Customer stored) {
        listeners.forEach(l -> l.saved(stored));
    }

    /** "Re-create with my values" created {@code created}: the editor now edits it, and it counts as a save. */
    public void recreated(Customer created) {
        id = created.id();
        resetTo(created, EditorNotice.info(tr("Re-created as Customer #{0} with your values.", created.id())));
        listeners.forEach(l -> l.recreated(created));
        committed(created);
    }

    /** The customer shown now was deleted: the editor shows it as deleted, with {@code message}. */
    public void deleted(long deletedId, EditorNotice message) {
        id = deletedId;
        state.set(EditorState.DELETED);
        notice.set(message);
        listeners.forEach(l -> l.deleted(deletedId, true));
    }

    /** A customer this editor showed before was deleted by it; the editor shows something else now. */
    public void deletedElsewhere(long deletedId) {
        listeners.forEach(l -> l.deleted(deletedId, false));
    }

    /** The repository counted a conflict on {@code customerId}. */
    public void conflictCounted(long customerId) {
        listeners.forEach(l -> l.conflictCounted(customerId));
    }
}
