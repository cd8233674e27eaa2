package org.lockstep.ui.lock;

import static org.lockstep.text.Texts.tr;

import java.time.Clock;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Objects;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import org.lockstep.concurrency.TaskExecutor;
import org.lockstep.domain.LeaseInfo;
import org.lockstep.domain.Message;
import org.lockstep.domain.MessageRepository;
import org.lockstep.editing.LockState;

/**
 * "Ask a supervisor…" (issue 26): on a team server only supervisors break locks, so an operator's editor waiting on
 * another's lock offers, in place of Break lock…, a short request to whoever is signed in as a supervisor. Each
 * {@link #draft} is one dialog's model, prefilled and editable; its send goes off the FX thread and, once sent, the
 * lock bar says so ({@link #askedProperty()}: "Asked the supervisors at 10:42") until the lock it was about ends.
 * Confined to the FX thread; the database is called through the executor.
 */
public final class SupervisorAsk {

    // Just sent, so today: the hour and minute say when (as SaveStamp does for today; ui.lock leans not on ui).
    private static final DateTimeFormatter AT = DateTimeFormatter.ofPattern("HH:mm", Locale.ROOT);

    private final MessageRepository messages;
    private final TaskExecutor executor;
    private final EditLockViewModel lock;
    private final Clock clock;
    private final ReadOnlyBooleanWrapper canAsk = new ReadOnlyBooleanWrapper(this, "canAsk");
    private final ReadOnlyStringWrapper asked = new ReadOnlyStringWrapper(this, "asked", "");
    private final ReadOnlyBooleanWrapper attached = new ReadOnlyBooleanWrapper(this, "attached");
    private long customerId = -1;

    /**
     * @param messages the message store, acting as this editor's writer id
     * @param executor runs the send off the FX thread
     * @param lock     the editor's lock: whether another holds it, and whether this operator may break it
     * @param clock    the time zone and today, for "at 10:42" (the time itself is the database's)
     */
    public SupervisorAsk(MessageRepository messages, TaskExecutor executor, EditLockViewModel lock, Clock clock) {
        this.messages = messages;
        this.executor = executor;
        this.lock = lock;
        this.clock = clock;
        canAsk.bind(Bindings.createBooleanBinding(() -> attached.get() && !lock.mayBreakLocks()
                && lock.stateProperty().get() instanceof LockState.HeldByOther, lock.stateProperty(), attached));
        // A renewal changes the lease's expiry only: the request is still about the same lock.
        lock.stateProperty().addListener((obs, was, now) -> {
            if (!sameLock(was, now)) {
                asked.set("");
            }
        });
    }

    private static boolean sameLock(LockState was, LockState now) {
        if (was instanceof LockState.HeldByOther w && now instanceof LockState.HeldByOther n) {
            LeaseInfo a = w.holder();
            LeaseInfo b = n.holder();
            return a.token() == b.token() && Objects.equals(a.sessionId(), b.sessionId());
        }
        return false;
    }

    /** The editor shows {@code id}. */
    public void attach(long id) {
        if (id != customerId) {
            asked.set("");
        }
        customerId = id;
        attached.set(true);
    }

    /** The editor shows no customer. */
    public void detach() {
        customerId = -1;
        attached.set(false);
        asked.set("");
    }

    /**
     * A new request about the customer shown, its text prefilled: "Please break alice's lock on customer 27 (Alfreds
     * Futterkiste)".
     *
     * @param customerName the customer's name as the editor shows it
     * @throws IllegalStateException unless {@link #canAskProperty()} holds
     */
    public Request draft(String customerName) {
        if (!canAsk.get() || !(lock.stateProperty().get() instanceof LockState.HeldByOther other)) {
            throw new IllegalStateException("Nobody else holds this customer's lock, or this operator may break it");
        }
        return new Request(customerId, tr("Please break {0}''s lock on customer {1} ({2})", other.holder().holder(),
                String.valueOf(customerId), customerName));
    }

    /** Whether "Ask a supervisor…" applies: another holds the lock and this operator may not break it. */
    public ReadOnlyBooleanProperty canAskProperty() {
        return canAsk.getReadOnlyProperty();
    }

    /** "Asked the supervisors at 10:42" once a request went out; empty before, and once that lock ended. */
    public ReadOnlyStringProperty askedProperty() {
        return asked.getReadOnlyProperty();
    }

    /**
     * One request as its dialog edits it: the text, whether it is being sent, why it was not. A failed send keeps the
     * text, so that the operator may send it again.
     */
    public final class Request {

        private final long customer;
        private final StringProperty text;
        private final ReadOnlyBooleanWrapper busy = new ReadOnlyBooleanWrapper(this, "busy");
        private final ReadOnlyBooleanWrapper sent = new ReadOnlyBooleanWrapper(this, "sent");
        private final ReadOnlyStringWrapper error = new ReadOnlyStringWrapper(this, "error", "");
        private final BooleanBinding canSend;

        private Request(long customer, String prefilled) {
            this.customer = customer;
            this.text = new SimpleStringProperty(this, "text", prefilled);
            canSend = Bindings.createBooleanBinding(() -> !busy.get() && !sent.get() && text.get() != null
                    && !text.get().isBlank(), busy, sent, text);
        }

        /**
         * Sends the text to the supervisors in the background; {@link #sentProperty()} turns true when it went out,
         * else {@link #errorProperty()} says why not in plain words. Does nothing while a send runs or after one
         * succeeded.
         */
        public void send() {
            if (busy.get() || sent.get()) {
                return;
            }
            String checked;
            try {
                checked = Message.checkedText(text.get());
            } catch (IllegalArgumentException e) {
                error.set(e.getMessage());
                return;
            }
            error.set("");
            busy.set(true);
            executor.execute(() -> messages.askSupervisors(customer, checked), message -> {
                busy.set(false);
                sent.set(true);
                if (customerId == customer) {
                    asked.set(tr("Asked the supervisors at {0}", AT.format(message.sentAt().atZone(clock.getZone()))));
                }
            }, failure -> {
                busy.set(false);
                error.set(tr("Your request was not sent: {0}", failure.getMessage()));
            });
        }

        /** The request's text, as the operator edits it. */
        public StringProperty textProperty() {
            return text;
        }

        /** Whether Send applies: some text, no send running, none done. */
        public BooleanBinding canSendProperty() {
            return canSend;
        }

        /** Whether the send runs now. */
        public ReadOnlyBooleanProperty busyProperty() {
            return busy.getReadOnlyProperty();
        }

        /** Whether the request went out: the dialog closes. */
        public ReadOnlyBooleanProperty sentProperty() {
            return sent.getReadOnlyProperty();
        }

        /** Why the last send failed, in words; empty when it did not. */
        public ReadOnlyStringProperty errorProperty() {
            return error.getReadOnlyProperty();
        }
    }
}
