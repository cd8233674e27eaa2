package org.lockstep.ui.editor;

import static org.lockstep.text.Texts.tr;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import org.lockstep.concurrency.TaskScope;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.CustomerRepository;
import org.lockstep.domain.HistoryRepository;
import org.lockstep.ui.live.LiveUpdates;
import org.lockstep.ui.live.OwnWrites;
import org.lockstep.ui.timeline.TimelineViewModel;

/**
 * How an editor follows other writers' changes of its customer as they happen — another operator's, or this
 * operator's in another window: without unsaved edits it moves to the newer version and highlights the changed
 * fields; with edits its base stays and a banner offers a review, so that a stale save still meets the newer version
 * (PoEAA, Optimistic Offline Lock). Confined to the FX thread; reads go through a scope of their own, renewed with
 * the editor's record. The view binds to it through {@link CustomerEditorViewModel#live()}.
 *
 * <p>A notification is a hint to look, never a fact (ADR 0018, "Notifications are hints"): any operator of a team
 * server may send one with any payload, and any writer may name any session. So a notification naming this customer
 * — whatever version, operation or session it claims — makes the editor read the record, and everything it then
 * shows or does follows what it read: the version and the fields from the row, who from the history, "in another
 * window" from this client's own record of its writes ({@link OwnWrites}). Its own saves need no notification to
 * tell them apart: while one is in flight the read waits for it to settle, and once it has, the base is the version
 * it saved, so reading that version again changes nothing. A forged notification costs one read.
 */
public final class LiveFollower {

    private final EditorSession session;
    private final CustomerRepository customers;
    private final HistoryRepository history;
    private final TaskScope calls;
    private final TaskScope reads;
    private final ConflictFlow conflicts;
    private final CustomerHistoryViewModel versions;
    private final TimelineViewModel timeline;
    private final OwnWrites ownWrites;
    private final ReadOnlyStringWrapper banner = new ReadOnlyStringWrapper(this, "liveBanner");
    // Makes the banner's words (null with no banner): said again in another language (speakAgain).
    private java.util.function.Supplier<String> bannerWords;
    private final ReadOnlyObjectWrapper<Set<CustomerField>> recentlyChanged =
            new ReadOnlyObjectWrapper<>(this, "recentlyChanged", Set.of());
    // The newer record a notification announced while the editor had unsaved edits (Review merges with it).
    private Customer theirs;
    // A check's result arrived while a call was in flight: check again once it settles.
    private boolean recheckWhenSettled;

    /**
     * @param customers where the record is read again, as the editor's writer
     * @param history   who made a change (the history the database's trigger wrote)
     * @param calls     the editor's loads, saves and deletes: while one is in flight, a check waits for it to settle
     * @param reads     this part's own reads, renewed with the editor's record
     * @param conflicts where Review opens the merge, and whether one is open
     * @param versions  the History tab, refreshed when the record changes
     * @param timeline  the Timeline tab, refreshed when the record or its lease changes
     * @param ownWrites which versions this client's writers committed: whether a change was another window's
     */
    public LiveFollower(EditorSession session, CustomerRepository customers, HistoryRepository history,
            TaskScope calls, TaskScope reads, ConflictFlow conflicts, CustomerHistoryViewModel versions,
            TimelineViewModel timeline, OwnWrites ownWrites) {
        this.session = session;
        this.customers = customers;
        this.history = history;
        this.calls = calls;
        this.reads = reads;
        this.conflicts = conflicts;
        this.versions = versions;
        this.timeline = timeline;
        this.ownWrites = ownWrites;
        session.subscribe(new EditorSession.Events() {
            @Override
            public void reset(Customer record) {
                clear(); // nothing is left to review against the old base
            }

            @Override
            public void saved(Customer stored) {
                // A save of this editor committed past the version the banner announced: that is what "Last write
                // wins" does on purpose (it overwrote theirs), and there is nothing left to review.
                if (theirs != null && theirs.id() == stored.id() && stored.version() > theirs.version()) {
                    clear();
                }
            }

            @Override
            public void deleted(long customerId, boolean shown) {
                if (shown) {
                    forget();
                }
            }
        });
    }

    /** Subscribes to {@code live}; returns what unsubscribes. */
    public List<Runnable> follow(LiveUpdates live) {
        return List.of(live.subscribe(this::changes), live.onResync(this::recheck));
    }

    /** "Bob saved version 8 (phone, email) — Review" while this editor has unsaved edits on an older version. */
    public ReadOnlyStringProperty bannerProperty() {
        return banner.getReadOnlyProperty();
    }

    /** The fields another's save changed when this clean editor moved to their version; highlighted briefly. */
    public ReadOnlyObjectProperty<Set<CustomerField>> recentlyChangedProperty() {
        return recentlyChanged.getReadOnlyProperty();
    }

    /** The newer record the banner announced, if any: what Review merges with and Revert moves to. */
    public Optional<Customer> theirs() {
        return Optional.ofNullable(theirs);
    }

    /**
     * "Review" on the live banner: opens the merge of the edits with the newer record now, on the editor's base.
     * For a record someone deleted it opens the deleted flow (re-create with my values, or discard).
     */
    public void review() {
        Customer base = session.buffer().base();
        if (bannerShown() && base != null) {
            conflicts.review(base, session.buffer().currentProperty().get(), theirs());
        }
    }

    boolean bannerShown() {
        return banner.get() != null;
    }

    /** Nothing left to review: the banner goes. */
    public void clear() {
        theirs = null;
        say(null);
    }

    /** The banner in the language now chosen (a language switch); nothing is read again. FX thread. */
    void speakAgain() {
        if (bannerWords != null) {
            banner.set(bannerWords.get());
        }
    }

    private void say(java.util.function.Supplier<String> words) {
        bannerWords = words;
        banner.set(words == null ? null : words.get());
    }

    /** The editor moved to another record: no banner, no highlight. */
    public void forget() {
        clear();
        recentlyChanged.set(Set.of());
    }

    /** The editor's calls all settled: look again if a check arrived meanwhile. */
    public void settled() {
        if (recheckWhenSettled) {
            recheckWhenSettled = false;
            recheck();
        }
    }

    private void changes(List<LiveUpdates.Change> batch) {
        Customer base = session.buffer().base();
        if (base == null) {
            return;
        }
        boolean customer = batch.stream().anyMatch(c -> c.event().isCustomer() && c.event().id() == base.id());
        if (customer) {
            versions.refresh();
        }
        if (customer || batch.stream().anyMatch(c -> c.event().isLease() && c.event().id() == base.id())) {
            timeline.refresh(); // a lease taken or let go changes no version, but it is on the timeline
        }
        if (customer) {
            // Whatever version, operation or session the notification claims: it is only a reason to read.
            recheck();
        }
    }

    /** Reads the record again and applies the rules above; also on resync. */
    private void recheck() {
        Customer base = session.buffer().base();
        if (base == null || session.state() != EditorState.EDITING) {
            return;
        }
        long customerId = base.id();
        String me = session.writerId();
        reads.execute(() -> LiveCheck.read(customers, history, customerId, base.version(),
                now -> now.map(c -> ownWrites.writerOf(customerId, c.version()))
                        .orElseGet(() -> ownWrites.deleterOf(customerId))
                        .filter(writer -> !writer.equals(me)).isPresent()),
                check -> {
                    if (calls.busy() || conflicts.open()) {
                        // A save or load in flight settles the state itself; look again once it has.
                        recheckWhenSettled = calls.busy();
                    } else {
                        apply(check);
                    }
                }, failure -> session.notice(EditorNotice.error(tr("This customer may have changed, but it could not "
                        + "be read again — Reload to see it."), EditorNotice.detail(failure))
                        .withReload()));
    }

    private void apply(LiveCheck check) {
        Customer base = session.buffer().base();
        if (base == null || session.state() != EditorState.EDITING) {
            return;
        }
        if (check.now().isPresent() && check.now().get().version() <= base.version()) {
            return; // nothing newer than what the editor is based on
        }
        boolean dirty = session.buffer().dirtyProperty().get();
        if (check.now().isEmpty()) {
            if (dirty) {
                theirs = null;
                say(check::deletedBanner);
            } else {
                session.deleted(base.id(), EditorNotice.info(check.deletedNotice()));
            }
            return;
        }
        Customer now = check.now().get();
        Set<CustomerField> changed = LiveCheck.changedFields(base.data(), now.data());
        if (dirty) {
            theirs = now;
            say(() -> check.savedBanner(now.version(), changed));
        } else {
            clear();
            session.buffer().reset(now);
            recentlyChanged.set(changed);
        }
    }
}
