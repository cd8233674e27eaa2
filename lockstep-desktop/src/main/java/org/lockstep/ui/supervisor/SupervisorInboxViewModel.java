package org.lockstep.ui.supervisor;

import static org.lockstep.text.Texts.tr;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.LongConsumer;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.StringBinding;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import org.lockstep.concurrency.TaskExecutor;
import org.lockstep.domain.Message;
import org.lockstep.domain.MessageRepository;
import org.lockstep.ui.SaveStamp;
import org.lockstep.ui.live.LiveUpdates;

/**
 * A supervisor's requests to break a lock ("Ask a supervisor…", issue 26), as the main window lists them: who asks,
 * about which customer, the text, when — newest first — with Open (the customer's editor, where Break lock… is
 * offered) and Dismiss. At {@link #start()} it reads the requests of the last {@link #WINDOW}; then each
 * {@code SUPERVISORS} notification, and each resync of the feed, makes it read those after the newest it has. The
 * facts always come from the message table: a notification is only a hint to read (anyone may NOTIFY), and the
 * database returns requests to supervisors alone, so a non-supervisor's inbox stays empty. One read runs at a time;
 * confined to the FX thread.
 */
public final class SupervisorInboxViewModel {

    /** How far back the requests at start go: a working day. */
    public static final Duration WINDOW = Duration.ofHours(12);

    /**
     * One request as the list shows it.
     *
     * @param message the message as stored: its sender, customer, text and database-clock time
     * @param heading "lk_bob asked at 10:42 about customer 27"
     */
    public record Request(Message message, String heading) {
    }

    private final MessageRepository messages;
    private final TaskExecutor executor;
    private final Clock clock;
    private final LongConsumer opener;
    private final ObservableList<Request> requests = FXCollections.observableArrayList();
    private final ObservableList<Request> readOnly = FXCollections.unmodifiableObservableList(requests);
    private final ReadOnlyStringWrapper error = new ReadOnlyStringWrapper(this, "error", "");
    private final Set<Long> seen = new HashSet<>();
    private final List<Runnable> unsubscribe = new ArrayList<>();
    private long newestId;
    private boolean loaded;
    private boolean reading;
    private boolean readAgain;

    /**
     * @param messages the message store, acting as this client
     * @param executor runs the reads off the FX thread
     * @param live     the change feed's hub: its {@code SUPERVISORS} notifications and resyncs
     * @param clock    now, for the start's window, and the time zone for "at 10:42"
     * @param opener   opens a customer's editor
     */
    public SupervisorInboxViewModel(MessageRepository messages, TaskExecutor executor, LiveUpdates live, Clock clock,
            LongConsumer opener) {
        this.messages = messages;
        this.executor = executor;
        this.clock = clock;
        this.opener = opener;
        if (live != null) {
            unsubscribe.add(live.subscribe(batch -> {
                if (batch.stream().anyMatch(c -> c.event().isSupervisorRequest())) {
                    readNewer();
                }
            }));
            unsubscribe.add(live.onResync(this::readNewer));
        }
    }

    /** Reads the requests of the last {@link #WINDOW}; call once, when the window shows. */
    public void start() {
        if (reading) {
            readAgain = true;
            return;
        }
        reading = true;
        executor.execute(() -> messages.supervisorRequestsSince(clock.instant().minus(WINDOW)), this::apply,
                this::failed);
    }

    private void readNewer() {
        if (reading) {
            readAgain = true; // after the read that runs: its answer may predate this request
            return;
        }
        if (!loaded) {
            start(); // the start's read failed: read the window again, never every request since the first
            return;
        }
        reading = true;
        long after = newestId;
        executor.execute(() -> messages.supervisorRequests(after), this::apply, this::failed);
    }

    private void apply(List<Message> read) {
        reading = false;
        loaded = true;
        error.set("");
        List<Request> added = new ArrayList<>();
        for (Message m : read) {
            newestId = Math.max(newestId, m.id());
            if (seen.add(m.id())) {
                added.add(new Request(m, tr("{0} asked at {1} about customer {2}", m.fromUser(),
                        SaveStamp.time(m.sentAt(), clock), String.valueOf(m.customerId()))));
            }
        }
        if (!added.isEmpty()) {
            List<Request> all = new ArrayList<>(requests);
            all.addAll(added);
            all.sort(Comparator.comparingLong((Request r) -> r.message().id()).reversed());
            requests.setAll(all);
        }
        if (readAgain) {
            readAgain = false;
            readNewer();
        }
    }

    private void failed(Throwable failure) {
        reading = false;
        readAgain = false;
        // The next notification or resync reads again.
        error.set(tr("Could not read the requests to supervisors: {0}", failure.getMessage()));
    }

    /** Opens the request's customer in an editor; the request stays listed until dismissed. */
    public void open(Request request) {
        opener.accept(request.message().customerId());
    }

    /** Takes the request off the list; it does not come back (this window only: other supervisors still see it). */
    public void dismiss(Request request) {
        requests.remove(request);
    }

    /** The requests, newest first. */
    public ObservableList<Request> requests() {
        return readOnly;
    }

    /** "Requests to supervisors (2)", for the list's heading. */
    public StringBinding headingProperty() {
        return Bindings.createStringBinding(() -> tr("Requests to supervisors ({0})", requests.size()), requests);
    }

    /** Why the last read failed, in words; empty when it did not. */
    public ReadOnlyStringProperty errorProperty() {
        return error.getReadOnlyProperty();
    }

    /** Stops following the feed; the window closes. */
    public void close() {
        unsubscribe.forEach(Runnable::run);
        unsubscribe.clear();
    }
}
