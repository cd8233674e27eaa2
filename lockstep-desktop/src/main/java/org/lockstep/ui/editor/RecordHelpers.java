package org.lockstep.ui.editor;

import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import org.lockstep.domain.ConcurrencyMode;
import org.lockstep.domain.HotRecordAdvice;
import org.lockstep.domain.Presence;
import org.lockstep.ui.EditorServices;
import org.lockstep.ui.lock.EditLockViewModel;
import org.lockstep.ui.lock.HolderMessaging;
import org.lockstep.ui.lock.SupervisorAsk;
import org.lockstep.ui.presence.PresenceBoard;

/**
 * The record-scoped helpers of one editor behind one {@link RecordScoped} face: the lock for editing, messaging the
 * lock's holder, asking a supervisor to break it (for an operator who may not), the presence seat ("Also here: Bob") and the hot-record advice. Attaching to the record an editor
 * shows attaches them all; a helper the process lacks is a null object. Confined to the FX thread. The view binds to
 * it through {@link CustomerEditorViewModel#helpers()}.
 */
public final class RecordHelpers implements RecordScoped {

    private final EditLockViewModel lock;
    private final Optional<HolderMessaging> messaging;
    private final Optional<SupervisorAsk> askSupervisor;
    private final HotRecordWatch hotRecord;
    private final Seat seat;
    private final List<RecordScoped> all;
    private long attachedId = -1;
    private final ReadOnlyStringWrapper hotRecordAdvice = new ReadOnlyStringWrapper(this, "hotRecordAdvice");
    private final ReadOnlyStringWrapper hotRecordDetail = new ReadOnlyStringWrapper(this, "hotRecordDetail");

    /**
     * The helpers {@code services} (an editor's own, {@link EditorServices#forNewEditor()}) offer for an editor with
     * {@code lock}; a message received about the customer is shown through {@code notice}.
     */
    static RecordHelpers of(EditorServices services, EditLockViewModel lock, ReadOnlyBooleanProperty dirty,
            Consumer<EditorNotice> notice) {
        Optional<HolderMessaging> messaging = services.messages().map(m -> new HolderMessaging(m,
                services.executor(), lock, services.live(),
                message -> notice.accept(EditorNotice.info(message.describe()))));
        // Only for an operator who may not break locks: a supervisor breaks them and asks nobody.
        Optional<SupervisorAsk> ask = services.messages().filter(m -> !lock.mayBreakLocks())
                .map(m -> new SupervisorAsk(m, services.executor(), lock, java.time.Clock.systemDefaultZone()));
        return new RecordHelpers(lock, messaging, ask, new HotRecordWatch(services.customers(), services.executor()),
                services.presence().orElse(null), dirty);
    }

    /** As the other constructor, with no asking a supervisor. */
    RecordHelpers(EditLockViewModel lock, Optional<HolderMessaging> messaging, HotRecordWatch hotRecord,
            PresenceBoard presence, ReadOnlyBooleanProperty dirty) {
        this(lock, messaging, Optional.empty(), hotRecord, presence, dirty);
    }

    /**
     * @param presence the process's board, or {@code null} when it shows no presence
     * @param dirty    whether the editor has unsaved edits: the seat says "editing" then
     */
    RecordHelpers(EditLockViewModel lock, Optional<HolderMessaging> messaging, Optional<SupervisorAsk> askSupervisor,
            HotRecordWatch hotRecord, PresenceBoard presence, ReadOnlyBooleanProperty dirty) {
        this.lock = lock;
        this.messaging = messaging;
        this.askSupervisor = askSupervisor;
        this.hotRecord = hotRecord;
        this.seat = presence == null ? new Seat() : new BoardSeat(presence, dirty);
        this.all = List.of(new RecordScoped() {
            @Override
            public void attach(long customerId) {
                lock.attach(customerId);
            }

            @Override
            public void detach() {
                lock.detach();
            }

            @Override
            public void close() {
                // The application's open locks close it (OpenLocks), so that it releases its lease once.
            }
        }, messaging.<RecordScoped>map(MessagingScope::new).orElse(RecordScoped.NONE),
                askSupervisor.<RecordScoped>map(AskScope::new).orElse(RecordScoped.NONE), seat);
        hotRecord.adviceProperty().addListener(o -> showHotRecord());
        lock.modeProperty().addListener(o -> showHotRecord());
    }

    /** Attaches every helper to {@code customerId}, unless they already are. */
    @Override
    public void attach(long customerId) {
        if (attachedId != customerId) {
            attachedId = customerId;
            all.forEach(h -> h.attach(customerId));
        }
    }

    /** Stops the hot-record advice and, when attached, detaches every helper. */
    @Override
    public void detach() {
        hotRecord.clear();
        if (attachedId >= 0) {
            attachedId = -1;
            all.forEach(RecordScoped::detach);
        }
    }

    @Override
    public void close() {
        attachedId = -1;
        all.forEach(RecordScoped::close);
    }

    /** Whether a stored record is attached. */
    boolean attached() {
        return attachedId >= 0;
    }

    /** Counts the record's recent conflicts again (after a load, or a conflict the repository counted). */
    void readHotRecord(long customerId) {
        hotRecord.read(customerId);
    }

    void clearHotRecord() {
        hotRecord.clear();
    }

    /** "Message the holder…" and messages received about this customer; empty when the process has no messages. */
    public Optional<HolderMessaging> messaging() {
        return messaging;
    }

    /**
     * "Ask a supervisor…": for an operator who may not break another's lock; empty for a supervisor (who breaks it)
     * and when the process has no messages.
     */
    public Optional<SupervisorAsk> askSupervisor() {
        return askSupervisor;
    }

    /** "Also here: Bob (editing)": who else has this customer open; empty when nobody (or no presence shown). */
    public ReadOnlyStringProperty alsoHereProperty() {
        return seat.alsoHere.getReadOnlyProperty();
    }

    /** "Often edited at the same time — consider Lock for editing" while optimistic on a hot record, else null. */
    public ReadOnlyStringProperty hotRecordAdviceProperty() {
        return hotRecordAdvice.getReadOnlyProperty();
    }

    /** The advice's detail, "4 conflicts on this customer in the last 7 days", or {@code null} with no advice. */
    public ReadOnlyStringProperty hotRecordDetailProperty() {
        return hotRecordDetail.getReadOnlyProperty();
    }

    /** Follows the hot-record advice: this editor switches to Lock for editing (taking the lease if it has edits). */
    public void useLockForEditing() {
        lock.modeProperty().set(ConcurrencyMode.LOCK_FOR_EDITING);
    }

    /** "Also here" and the hot-record advice in the language now chosen (a language switch). FX thread. */
    void speakAgain() {
        seat.speakAgain();
        showHotRecord();
    }

    /** The advice shows only while editing optimistically: in lock-for-editing mode it is already followed. */
    private void showHotRecord() {
        HotRecordAdvice advice = hotRecord.adviceProperty().get();
        boolean shown = advice != null && lock.modeProperty().get() == ConcurrencyMode.OPTIMISTIC;
        hotRecordAdvice.set(shown ? advice.headline() : null);
        hotRecordDetail.set(shown ? advice.detail() : null);
    }

    /** Messaging the holder follows the record. */
    private record MessagingScope(HolderMessaging messaging) implements RecordScoped {
        @Override
        public void attach(long customerId) {
            messaging.attach(customerId);
        }

        @Override
        public void detach() {
            messaging.detach();
        }

        @Override
        public void close() {
            messaging.close();
        }
    }

    /** Asking a supervisor follows the record. */
    private record AskScope(SupervisorAsk ask) implements RecordScoped {
        @Override
        public void attach(long customerId) {
            ask.attach(customerId);
        }

        @Override
        public void detach() {
            ask.detach();
        }

        @Override
        public void close() {
            ask.detach();
        }
    }

    /** No presence board: nobody is ever shown as also here. */
    private static class Seat implements RecordScoped {
        final ReadOnlyStringWrapper alsoHere = new ReadOnlyStringWrapper(this, "alsoHere", "");

        @Override
        public void attach(long customerId) {
        }

        @Override
        public void detach() {
        }

        @Override
        public void close() {
        }

        /** Says who else is here again, in the language now chosen. */
        void speakAgain() {
        }
    }

    /** This editor's announced presence on the attached customer (viewing, or editing while dirty). */
    private static final class BoardSeat extends Seat {
        private final PresenceBoard board;
        private final ReadOnlyBooleanProperty dirty;
        private PresenceBoard.Seat open;

        BoardSeat(PresenceBoard board, ReadOnlyBooleanProperty dirty) {
            this.board = board;
            this.dirty = dirty;
            dirty.addListener((obs, was, now) -> {
                if (open != null) {
                    open.state(now ? Presence.State.EDITING : Presence.State.VIEWING);
                }
            });
            // A change listener, not an invalidation listener: it fires on every change, read or not.
            board.changeCountProperty().addListener((obs, was, now) -> update());
        }

        @Override
        public void attach(long customerId) {
            closeSeat();
            open = board.open(customerId);
            open.state(dirty.get() ? Presence.State.EDITING : Presence.State.VIEWING);
            update();
        }

        @Override
        public void detach() {
            closeSeat();
            update();
        }

        @Override
        public void close() {
            closeSeat();
        }

        private void closeSeat() {
            if (open != null) {
                open.close();
                open = null;
            }
        }

        @Override
        void speakAgain() {
            update();
        }

        private void update() {
            alsoHere.set(open == null ? "" : board.alsoHere(open));
        }
    }
}
