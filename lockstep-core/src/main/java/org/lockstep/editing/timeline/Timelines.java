package org.lockstep.editing.timeline;

import static org.lockstep.text.Texts.tr;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.lockstep.domain.ConflictRecord;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.HistoryEntry;
import org.lockstep.domain.HistoryRepository;
import org.lockstep.domain.LeaseEvent;
import org.lockstep.domain.RecordedStory;
import org.lockstep.domain.UnicodeText;
import org.lockstep.editing.timeline.TimelineEvent.Kind;
import org.lockstep.editing.timeline.TimelineEvent.Source;

/**
 * Builds a {@link Timeline} from what the database recorded ({@link RecordedStory}: history, lease events, conflicts)
 * and what a client adds of its own knowledge (reads, refused fenced saves: {@link TimelineEvent.Source#CLIENT}).
 *
 * <p>Two events are derived, and say from what. A lease whose expiry passed with nothing ending it <em>lapsed</em>
 * at that expiry, by the database clock (DDIA ch. 8, "The leader and the lock"). A save that overwrote a field
 * another operator changed since the version its writer last read is a <em>lost update</em>: both saves "succeeded"
 * and one value vanished. That needs the writer's read, which only a client knows, so without client events no lost
 * update is claimed. A save is the save of a merge when its writer recorded it as one ({@code conflict_event},
 * {@link RecordedStory#mergedVersions()}); never because its writer's name just met a conflict: many desks share one
 * name, and another desk's plain save is no merge. Only a conflict recorded without a session (before V17, when no
 * merge was recorded either) still makes the same name's next save its merge.
 */
public final class Timelines {

    /** How many re-creations a timeline follows (a deleted customer re-created, deleted again…). */
    static final int MAX_CHAIN = 5;

    private Timelines() {
    }

    /**
     * Reads the story of {@code customerId} and of the customers it was re-created as (blocking: off the FX
     * thread), oldest first. The first story is empty when no customer ever had the id.
     */
    public static List<RecordedStory> read(HistoryRepository history, long customerId) {
        List<RecordedStory> chain = new ArrayList<>();
        RecordedStory story = history.story(customerId);
        chain.add(story);
        while (story.recreatedAs().isPresent() && chain.size() < MAX_CHAIN) {
            story = history.story(story.recreatedAs().getAsLong());
            chain.add(story);
        }
        return chain;
    }

    /** The timeline of the stories alone: what the database recorded. */
    public static Timeline build(List<RecordedStory> stories) {
        return build(stories, List.of(), List.of());
    }

    /**
     * The timeline of {@code stories} (oldest first, each a re-creation of the one before) with a client's own
     * events.
     *
     * @param client    reads and refused saves the client witnessed, with the client's clock
     * @param laneOrder lanes to put first, in this order ({@link Timeline#DATABASE} may be among them); the other
     *                  operators follow in the order they first appear
     */
    public static Timeline build(List<RecordedStory> stories, List<TimelineEvent> client, List<String> laneOrder) {
        List<TimelineEvent> events = new ArrayList<>();
        for (int i = 0; i < stories.size(); i++) {
            RecordedStory story = stories.get(i);
            boolean recreated = i > 0;
            story.changes().forEach(c -> events.add(change(c, recreated)));
            story.conflicts().forEach(c -> events.add(conflict(c)));
            leaseEvents(story, events);
        }
        // A client's events about customers outside these stories (an earlier run of a demo scenario) do not belong.
        Set<Long> ids = new java.util.HashSet<>();
        stories.forEach(st -> ids.add(st.customerId()));
        client.stream().filter(e -> ids.contains(e.customerId())).forEach(events::add);
        // Stable: events at the same instant keep the order above (history, conflicts, leases, client).
        events.sort(Comparator.comparing(TimelineEvent::at));
        List<TimelineEvent> told = new Narrator(stories).tell(events);
        boolean cut = stories.stream().anyMatch(RecordedStory::cut);
        return new Timeline(title(stories), lanes(told, laneOrder), told, cut);
    }

    private static TimelineEvent change(HistoryEntry e, boolean recreated) {
        return switch (e.op()) {
            case INSERT -> new TimelineEvent(e.changedAt(), e.changedBy(), e.customerId(),
                    recreated ? Kind.RECREATED : Kind.CREATED,
                    recreated ? tr("re-created as #{0} v1", e.customerId()) : tr("created v{0}", e.version()),
                    createdDetail(e), Source.DATABASE, e.version(), false);
            // A restore is a save (it may lose an update like any), told as the restore the database recorded (V23).
            case UPDATE -> new TimelineEvent(e.changedAt(), e.changedBy(), e.customerId(), Kind.SAVED,
                    e.restoredFrom().isPresent() ? tr("v{0}: restored v{1}", e.version(), e.restoredFrom().getAsLong())
                            : tr("v{0} saved", e.version()),
                    TimelineText.changes(e.before().orElse(CustomerData.EMPTY),
                            e.after().orElse(CustomerData.EMPTY)),
                    Source.DATABASE, e.version(), false);
            case DELETE -> new TimelineEvent(e.changedAt(), e.changedBy(), e.customerId(), Kind.DELETED,
                    tr("deleted v{0}", e.version()), "", Source.DATABASE, e.version(), false);
        };
    }

    /** The company it was created with, or nothing: no dash for a value that is not there (label — —). */
    private static String createdDetail(HistoryEntry e) {
        String company = e.after().map(d -> TimelineText.value(d.company())).orElse(TimelineText.ABSENT);
        return company.equals(TimelineText.ABSENT) ? "" : company;
    }

    private static TimelineEvent conflict(ConflictRecord c) {
        return new TimelineEvent(c.at(), c.by(), c.customerId(), Kind.CONFLICT,
                c.kind() == ConflictRecord.Kind.SAVE ? tr("0 rows: conflict") : tr("delete: 0 rows, conflict"), "",
                Source.DATABASE, 0, true);
    }

    private static void leaseEvents(RecordedStory story, List<TimelineEvent> out) {
        List<LeaseEvent> trail = story.leaseEvents();
        for (LeaseEvent e : trail) {
            long id = e.recordId();
            switch (e.kind()) {
                case ACQUIRED ->
                        out.add(lease(e, e.holder(), Kind.LEASE_GRANTED, tr("lease granted: token {0}", e.token()),
                                validity(e, story)));
                case EXPIRED_TAKEOVER -> out.add(lease(e, e.holder(), Kind.LEASE_TAKEN_OVER,
                        tr("took over: token {0}", e.token()),
                        tr("the previous lease had lapsed; {0}", validity(e, story))));
                case RELEASED ->
                        out.add(lease(e, e.actor(), Kind.LEASE_RELEASED, tr("released token {0}", e.token()), ""));
                case BROKEN -> out.add(lease(e, e.actor(), Kind.LEASE_BROKEN, tr("broke {0}''s lease", e.holder()),
                        tr("token {0}", e.token())));
                case LOST -> out.add(lease(e, e.holder(), Kind.LEASE_LOST, tr("lost lease, token {0}", e.token()),
                        tr("recorded by {0}''s client", e.holder())));
            }
            if ((e.kind() == LeaseEvent.Kind.ACQUIRED || e.kind() == LeaseEvent.Kind.EXPIRED_TAKEOVER)
                    && e.expiresAt().isPresent() && lapsed(e, trail, story)) {
                out.add(new TimelineEvent(e.expiresAt().get(), Timeline.DATABASE, id, Kind.LEASE_LAPSED,
                        tr("token {0} lapsed", e.token()), tr("{0}''s lease was not renewed in time", e.holder()),
                        Source.DATABASE, 0, false));
            }
        }
    }

    /**
     * A grant lapsed when its last expiry has passed by the database clock and nothing ended it: no release or
     * break of its token, and no newer grant of the same holder starting at that instant (a grant superseded by
     * its own session's new token ends exactly when the new one starts).
     */
    private static boolean lapsed(LeaseEvent grant, List<LeaseEvent> trail, RecordedStory story) {
        java.time.Instant expiry = grant.expiresAt().orElseThrow();
        if (expiry.isAfter(story.readAt())) {
            return false;
        }
        for (LeaseEvent other : trail) {
            boolean ended = other.token() == grant.token() && (other.kind() == LeaseEvent.Kind.RELEASED
                    || other.kind() == LeaseEvent.Kind.BROKEN);
            boolean superseded = other.token() > grant.token() && other.kind() == LeaseEvent.Kind.ACQUIRED
                    && other.at().equals(expiry);
            if (ended || superseded) {
                return false;
            }
        }
        return true;
    }

    /**
     * How long the grant held the lock, by the database clock. The grant's recorded expiry is its last one: moved on
     * by each renewal, and set to the moment it ended by a release, a break or its own holder's newer grant. So once
     * that expiry has passed (by when the story was read) the span from grant to expiry is how long it was held
     * ("held 30.4 s"), however long the term was; while it has not, the grant still runs, and the expiry is only
     * when it ends unless renewed ("held so far; ends at +60.0 s unless renewed").
     */
    private static String validity(LeaseEvent grant, RecordedStory story) {
        if (grant.expiresAt().isEmpty()) {
            return "";
        }
        java.time.Instant expiry = grant.expiresAt().get();
        String seconds = TimelineText.seconds(java.time.Duration.between(grant.at(), expiry).toMillis() / 1000.0);
        return expiry.isAfter(story.readAt()) ? tr("held so far; ends at +{0} s unless renewed", seconds)
                : tr("held {0} s", seconds);
    }

    private static TimelineEvent lease(LeaseEvent e, String lane, Kind kind, String label, String detail) {
        return new TimelineEvent(e.at(), lane, e.recordId(), kind, label, detail, Source.DATABASE, 0, false);
    }

    private static String title(List<RecordedStory> stories) {
        long id = stories.isEmpty() ? 0 : stories.get(0).customerId();
        Optional<String> company = stories.stream().flatMap(s -> s.changes().stream())
                .map(c -> c.after().or(c::before)).flatMap(Optional::stream).map(CustomerData::company)
                .filter(n -> n != null && !n.isBlank()).reduce((a, b) -> b);
        return company.map(c -> tr("Customer {0} — {1}", id, TimelineText.cut(c, 60)))
                .orElseGet(() -> tr("Customer {0}", id));
    }

    private static List<String> lanes(List<TimelineEvent> events, List<String> laneOrder) {
        Set<String> lanes = new LinkedHashSet<>();
        laneOrder.forEach(l -> lanes.add(UnicodeText.nfc(l)));
        List<String> others = new ArrayList<>();
        for (TimelineEvent e : events) {
            if (!lanes.contains(e.lane()) && !others.contains(e.lane()) && !e.lane().equals(Timeline.DATABASE)) {
                others.add(e.lane());
            }
        }
        lanes.addAll(others);
        List<String> result = new ArrayList<>(lanes);
        if (!result.contains(Timeline.DATABASE)) {
            // In the middle: with two operators, one on each side, as their windows stand in the demo.
            result.add(Math.min(result.size(), (result.size() + 1) / 2), Timeline.DATABASE);
        }
        return result;
    }

    /**
     * Walks the events in order and tells what the rows alone do not say: which version a conflict met, which save
     * was a merge, and which save was a lost update.
     */
    private static final class Narrator {
        private final Map<String, CustomerData> values = new HashMap<>();
        private final Map<String, String> authors = new HashMap<>();
        private final Map<String, Long> base = new HashMap<>();
        private final Set<String> merging = new java.util.HashSet<>();
        private long current;
        private boolean deleted;

        /** Versions a merge saved, as its writer recorded them. */
        private final Set<String> merged = new java.util.HashSet<>();
        /** Conflicts recorded without the session that met them (before V17). */
        private final Set<String> sessionless = new java.util.HashSet<>();

        Narrator(List<RecordedStory> stories) {
            for (RecordedStory s : stories) {
                s.mergedVersions().forEach(v -> merged.add(key(s.customerId(), v)));
                s.conflicts().stream().filter(c -> c.session().isEmpty())
                        .forEach(c -> sessionless.add(c.customerId() + "/" + c.at() + "/" + UnicodeText.nfc(c.by())));
                for (HistoryEntry c : s.changes()) {
                    c.after().ifPresent(d -> values.put(key(c.customerId(), c.version()), d));
                    authors.put(key(c.customerId(), c.version()), c.changedBy());
                }
            }
        }

        List<TimelineEvent> tell(List<TimelineEvent> events) {
            List<TimelineEvent> told = new ArrayList<>(events);
            for (int i = 0; i < told.size(); i++) {
                TimelineEvent e = told.get(i);
                switch (e.kind()) {
                    case CREATED, RECREATED -> {
                        current = e.version();
                        deleted = false;
                        sawOwnWrite(e);
                    }
                    case READ -> base.put(e.lane(), e.version());
                    case DELETED -> deleted = true;
                    case CONFLICT -> {
                        // Before the oldest change kept (a story cut to its latest rows), the version is unknown.
                        told.set(i, e.as(e.kind(), e.label(), deleted ? tr("the customer was deleted")
                                : current > 0 ? tr("the record was at v{0}; the save''s base was older", current)
                                : tr("the save''s base was older (the version then is before the changes kept)")));
                        if (sessionless.contains(eventKey(e))) {
                            merging.add(e.lane());
                        }
                    }
                    case SAVED -> {
                        boolean recordedMerge = merged.contains(key(e.customerId(), e.version()));
                        boolean sameNameAfterSessionlessConflict = merging.remove(e.lane());
                        if (recordedMerge || sameNameAfterSessionlessConflict) {
                            told.set(i, e.as(Kind.MERGED, tr("merged as v{0}", e.version()), e.detail()));
                        } else {
                            lostUpdate(told, i);
                        }
                        current = e.version();
                        sawOwnWrite(e);
                    }
                    default -> {}
                }
            }
            return told;
        }

        /**
         * A writer's own save is its new base only on a lane whose client said what it read. The database records no
         * read: on any other lane a base guessed from a write would call the next save that follows someone else's
         * a lost update, though its writer may well have loaded that version first (ADR 0014).
         */
        private void sawOwnWrite(TimelineEvent e) {
            base.computeIfPresent(e.lane(), (lane, read) -> e.version());
        }

        /**
         * The save at {@code i} was based on an older version than the one it replaced: every field it changed that
         * someone else changed in between lost their value. Both events are marked.
         */
        private void lostUpdate(List<TimelineEvent> told, int i) {
            TimelineEvent save = told.get(i);
            Long read = base.get(save.lane());
            if (read == null || read >= save.version() - 1) {
                return;
            }
            long id = save.customerId();
            CustomerData seen = values.get(key(id, read));
            CustomerData replaced = values.get(key(id, save.version() - 1));
            CustomerData written = values.get(key(id, save.version()));
            if (seen == null || replaced == null || written == null) {
                return;
            }
            List<String> lost = new ArrayList<>();
            for (CustomerField f : TimelineText.changed(seen, replaced)) {
                if (!CustomerData.sameValue(replaced.get(f), written.get(f))) {
                    String who = authorOf(id, read, save.version() - 1, f);
                    lost.add(tr("{0}''s {1} {2}", who, f.label(), TimelineText.value(replaced.get(f))));
                    markOverwritten(told, i, id, f, save);
                }
            }
            if (!lost.isEmpty()) {
                told.set(i, save.alarmed(tr("lost update: overwrote {0} ({1} had read v{2}) · {3}",
                        String.join(", ", lost), save.lane(), read, save.detail())));
            }
        }

        /** The last writer of {@code f} after version {@code from} up to {@code to}. */
        private String authorOf(long id, long from, long to, CustomerField f) {
            String who = tr("someone");
            for (long v = from + 1; v <= to; v++) {
                CustomerData before = values.get(key(id, v - 1));
                CustomerData after = values.get(key(id, v));
                if (before != null && after != null && !CustomerData.sameValue(before.get(f), after.get(f))) {
                    who = authors.getOrDefault(key(id, v), who);
                }
            }
            return who;
        }

        private void markOverwritten(List<TimelineEvent> told, int saveIndex, long id, CustomerField f,
                TimelineEvent save) {
            for (int j = saveIndex - 1; j >= 0; j--) {
                TimelineEvent earlier = told.get(j);
                if (earlier.customerId() == id && (earlier.kind() == Kind.SAVED || earlier.kind() == Kind.MERGED)
                        && earlier.version() < save.version()) {
                    CustomerData before = values.get(key(id, earlier.version() - 1));
                    CustomerData after = values.get(key(id, earlier.version()));
                    if (before != null && after != null && !CustomerData.sameValue(before.get(f), after.get(f))) {
                        told.set(j, earlier.alarmed(tr("{0} · vanished in v{1}", earlier.detail(), save.version())));
                        return;
                    }
                }
            }
        }

        private static String eventKey(TimelineEvent e) {
            return e.customerId() + "/" + e.at() + "/" + e.lane();
        }

        private static String key(long id, long version) {
            return id + "/" + version;
        }
    }
}
