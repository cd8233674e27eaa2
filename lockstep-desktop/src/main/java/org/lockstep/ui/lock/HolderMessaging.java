package org.lockstep.ui.lock;

import static org.lockstep.text.Texts.tr;

import org.lockstep.editing.LockState;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import org.lockstep.domain.Message;
import org.lockstep.domain.MessageRepository;
import org.lockstep.concurrency.TaskExecutor;
import org.lockstep.ui.live.LiveUpdates;

/**
 * "Message the holder…" (as FileMaker offers): an editor waiting on another's lock sends the holder a short
 * message — to the session the lease names, which for a desktop editor is that editor's own writer id — and an editor
 * receives the messages sent to it about its customer the moment the feed announces them. Confined to the FX thread;
 * database calls go through the executor.
 *
 * <p>A message notification is only a reason to read the inbox (ADR 0018, "Notifications are hints"): what is shown
 * is read from the message table, and which messages are new is decided by the ids this editor has already shown,
 * never by the message id or sender a notification claims — any operator may send one with any payload. An inbox is
 * this editor's writer id's, a name no one had before this process made it (the client session in it is new per
 * process), so every message in it was sent to this editor; one shown is never shown again, and a message that came
 * while the editor showed another customer is shown at the next look at this one.
 */
public final class HolderMessaging {

    private final MessageRepository messages;
    private final TaskExecutor executor;
    private final EditLockViewModel lock;
    private final Consumer<Message> onReceived;
    private final ReadOnlyBooleanWrapper canMessage = new ReadOnlyBooleanWrapper(this, "canMessage");
    private final ReadOnlyStringWrapper status = new ReadOnlyStringWrapper(this, "status", "");
    private final ReadOnlyBooleanWrapper sent = new ReadOnlyBooleanWrapper(this, "sent");
    private final List<Runnable> unsubscribe = new ArrayList<>();
    private long customerId = -1;
    /** Per customer, the newest message id already shown (absent: none yet). */
    private final Map<Long, Long> lastSeen = new HashMap<>();

    /**
     * @param messages   the message store, acting as this editor's writer id (the one its lease names)
     * @param executor   runs database calls off the FX thread
     * @param lock       the editor's lock: who holds the customer, and so whom a message goes to
     * @param live       the change feed's hub, through which messages to this session arrive; {@code null}: none
     * @param onReceived shows a message sent to this editor's operator ("Bob: Please save, I need this customer")
     */
    public HolderMessaging(MessageRepository messages, TaskExecutor executor, EditLockViewModel lock,
            LiveUpdates live, Consumer<Message> onReceived) {
        this.messages = messages;
        this.executor = executor;
        this.lock = lock;
        this.onReceived = onReceived;
        canMessage.bind(javafx.beans.binding.Bindings.createBooleanBinding(
                () -> lock.stateProperty().get() instanceof LockState.HeldByOther, lock.stateProperty()));
        lock.stateProperty().addListener((obs, was, now) -> status(""));
        if (live != null) {
            unsubscribe.add(live.subscribe(this::changes));
        }
    }

    /** The editor shows {@code id}: messages about it are shown from now on. */
    public void attach(long id) {
        customerId = id;
    }

    /** The editor shows no customer. */
    public void detach() {
        customerId = -1;
    }

    /**
     * Sends {@code text} to the holder of the lock this editor waits on. The outcome shows in {@link #statusProperty()}:
     * "Message sent to Alice", or why not (nobody holds it any more, empty or too long, the database away).
     *
     * @return whether the message was valid and went out for sending
     */
    public boolean send(String text) {
        if (!(lock.stateProperty().get() instanceof LockState.HeldByOther other) || customerId < 0) {
            status(tr("Nobody else holds this customer's lock now — there is no one to message."));
            return false;
        }
        String checked;
        try {
            checked = Message.checkedText(text);
        } catch (IllegalArgumentException e) {
            status(e.getMessage());
            return false;
        }
        String to = other.holder().sessionId();
        String name = other.holder().holder();
        long id = customerId;
        executor.execute(() -> messages.send(to, id, checked), done -> {
            status.set(""); // a second message to the same holder is news again
            sent.set(true); // before the status: the status that follows is news
            status.set(tr("Message sent to {0}", name));
        }, failure -> status(tr("Could not send the message to {0}: {1}", name, failure.getMessage())));
        return true;
    }

    private void changes(List<LiveUpdates.Change> batch) {
        long id = customerId;
        if (id < 0 || batch.stream().noneMatch(c -> c.event().isMessage() && c.event().id() == id)) {
            return;
        }
        long after = lastSeen.getOrDefault(id, 0L);
        executor.execute(() -> messages.received(id, after), received -> {
            if (customerId != id) {
                return;
            }
            for (Message m : received) {
                if (m.id() > lastSeen.getOrDefault(id, 0L)) {
                    lastSeen.put(id, m.id());
                    onReceived.accept(m);
                }
            }
        }, null);
    }

    /** Stops hearing messages; the editor closes. */
    public void close() {
        unsubscribe.forEach(Runnable::run);
        unsubscribe.clear();
        customerId = -1;
    }

    /** Whether "Message the holder…" applies: someone else holds the lock this editor waits on. */
    public ReadOnlyBooleanProperty canMessageProperty() {
        return canMessage.getReadOnlyProperty();
    }

    private void status(String text) {
        sent.set(false);
        status.set(text);
    }

    /**
     * Whether {@link #statusProperty()} is news that the last message went out ("Message sent to Alice"), told once,
     * rather than why it did not, which stays.
     */
    public ReadOnlyBooleanProperty sentProperty() {
        return sent.getReadOnlyProperty();
    }

    /** The outcome of the last send, in words; empty when there is nothing to say. */
    public ReadOnlyStringProperty statusProperty() {
        return status.getReadOnlyProperty();
    }
}
