package org.lockstep.ui.timeline;

import static org.lockstep.text.Texts.tr;

import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import javafx.beans.property.ReadOnlyIntegerProperty;
import javafx.beans.property.ReadOnlyIntegerWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import org.lockstep.concurrency.TaskExecutor;
import org.lockstep.concurrency.TaskScope;
import org.lockstep.domain.HistoryRepository;
import org.lockstep.editing.timeline.Timeline;
import org.lockstep.editing.timeline.TimelineEvent;
import org.lockstep.editing.timeline.TimelineLayout;
import org.lockstep.editing.timeline.Timelines;

/**
 * A customer's timeline for a pane: reads what the database recorded ({@link Timelines#read}) through a
 * {@link TaskScope} — the FX thread never waits, and a read for a customer no longer shown is dropped — adds the
 * client's own events when it has any (the demo's), and says which events belong to the step just run. Reads only
 * while shown ({@link #setActive}). FX thread only.
 */
public final class TimelineViewModel {

    private final HistoryRepository history;
    private final TaskScope scope;
    private final ZoneId zone;
    private final ReadOnlyObjectWrapper<Timeline> timeline = new ReadOnlyObjectWrapper<>(this, "timeline");
    private final ReadOnlyIntegerWrapper highlightFrom = new ReadOnlyIntegerWrapper(this, "highlightFrom",
            Integer.MAX_VALUE);
    private final ReadOnlyStringWrapper status = new ReadOnlyStringWrapper(this, "status", "");
    private final ReadOnlyStringWrapper caption = new ReadOnlyStringWrapper(this, "caption", "");
    private Supplier<List<TimelineEvent>> clientEvents = List::of;
    private List<String> laneOrder = List.of();
    private Optional<Instant> stepStart = Optional.empty();
    private long customerId = -1;
    // Why no customer is shown, when it is not a new customer yet to be saved; null for that.
    private String noCustomer;
    private boolean active;

    /** A timeline reading through {@code executor}, telling times in {@code zone}. */
    public TimelineViewModel(HistoryRepository history, TaskExecutor executor, ZoneId zone) {
        this.history = Objects.requireNonNull(history);
        this.scope = new TaskScope(executor);
        this.zone = Objects.requireNonNull(zone);
    }

    /**
     * Adds what the client knows and the database does not record (reads, refused fenced saves), and puts these
     * lanes first. Called on the FX thread at each read; the events' list is copied there.
     */
    public void addClientKnowledge(Supplier<List<TimelineEvent>> events, List<String> lanes) {
        clientEvents = Objects.requireNonNull(events);
        laneOrder = List.copyOf(lanes);
    }

    /** Shows the timeline of a customer ({@code -1}: a new one, not saved yet), reading it now when shown. */
    public void show(long id) {
        showing(id, null);
    }

    /**
     * Shows no customer's timeline and says why, e.g. "No timeline: this scenario edits no customer." (the trainer's
     * scenario 7), where "the customer is not saved yet" would not be true.
     *
     * @param why the status to show, in the current language
     */
    public void showNone(String why) {
        showing(-1, Objects.requireNonNull(why));
    }

    private void showing(long id, String why) {
        noCustomer = why;
        if (id != customerId) {
            customerId = id;
            timeline.set(null);
            stepStart = Optional.empty();
        }
        refresh();
    }

    /** Whether the pane is shown; becoming shown reads the timeline. */
    public void setActive(boolean shown) {
        active = shown;
        refresh();
    }

    /**
     * Highlights the events from {@code start} on (the step just run began then, by the client's clock) and shows
     * {@code text} above the diagram; {@code null} highlights nothing.
     */
    public void highlightStep(Instant start, String text) {
        stepStart = Optional.ofNullable(start);
        caption.set(text == null ? "" : text);
        Timeline now = timeline.get();
        highlightFrom.set(now == null || start == null ? Integer.MAX_VALUE : now.firstAtOrAfter(start));
    }

    /** Reads the timeline again in the background, when a customer is shown and the pane is too. */
    public void refresh() {
        scope.renew();
        if (customerId < 0 || !active) {
            status.set(customerId >= 0 ? "" : noCustomer != null ? noCustomer
                    : tr("No timeline: the customer is not saved yet."));
            return;
        }
        long id = customerId;
        List<TimelineEvent> client = List.copyOf(clientEvents.get());
        List<String> lanes = laneOrder;
        status.set(tr("Reading the timeline…"));
        scope.execute(() -> Timelines.build(Timelines.read(history, id), client, lanes), read -> {
            timeline.set(read);
            highlightFrom.set(stepStart.map(read::firstAtOrAfter).orElse(Integer.MAX_VALUE));
            status.set(read.cut()
                    ? tr("{0, plural, one {# event} other {# events}} (the latest 400 rows of each kind)",
                            read.events().size())
                    : tr("{0, plural, one {# event} other {# events}}", read.events().size()));
        }, failure -> status.set(tr("Can't reach the database — the timeline could not be read.")));
    }

    /** The timeline shown, {@code null} before the first read. */
    public ReadOnlyObjectProperty<Timeline> timelineProperty() {
        return timeline.getReadOnlyProperty();
    }

    /** The index of the first event of the step just run; {@link Integer#MAX_VALUE} for none. */
    public ReadOnlyIntegerProperty highlightFromProperty() {
        return highlightFrom.getReadOnlyProperty();
    }

    /** "12 events", "Reading the timeline…" or why it could not be read. */
    public ReadOnlyStringProperty statusProperty() {
        return status.getReadOnlyProperty();
    }

    /** The demo's "what to notice" for the step just run; empty elsewhere. */
    public ReadOnlyStringProperty captionProperty() {
        return caption.getReadOnlyProperty();
    }

    /** The zone times are shown in. */
    public ZoneId zone() {
        return zone;
    }

    /** The timeline shown, laid out; empty before the first read. */
    public Optional<TimelineLayout> layout() {
        return Optional.ofNullable(timeline.get()).map(t -> new TimelineLayout(t, zone, highlightFrom.get(),
                caption.get()));
    }
}
