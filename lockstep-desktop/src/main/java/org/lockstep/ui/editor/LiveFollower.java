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
import org.lockstep.domain.ChangeEvent;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerField;
import org.lockstep.ui.live.LiveUpdates;

/**
 * How an editor follows other writers' changes of its customer as they happen — another operator's, or this
 * operator's in another window: without unsaved edits it moves to the newer version and highlights the changed
 * fields; with edits its base stays and a banner offers a review, so that a stale save still meets the newer version
 * (PoEAA, Optimistic Offline Lock). This editor's own writes only move a clean editor along. Confined to the FX
 * thread; reads go through a scope of their own, renewed with the editor's record. The view binds to it through
 * {@link CustomerEditorViewModel#live()}.
 */
public final class LiveFollower {

    private final CustomerEditorViewModel editor;
    private final TaskScope reads;
    private final ReadOnlyStringWrapper banner = new ReadOnlyStringWrapper(this, "liveBanner");
    private final ReadOnlyObjectWrapper<Set<CustomerField>> recentlyChanged =
            new ReadOnlyObjectWrapper<>(this, "recentlyChanged", Set.of());
    // The newer record a notification announced while the editor had unsaved edits (Review merges with it).
    private Customer theirs;
    // A check's result arrived while a call was in flight: check again once it settles.
    private boolean recheckWhenSettled;
    private Optional<ChangeEvent> recheckFromAnotherWindow = Optional.empty();

    LiveFollower(CustomerEditorViewModel editor, TaskScope reads) {
        this.editor = editor;
        this.reads = reads;
    }

    /** Subscribes to {@code live}; returns what unsubscribes. */
    List<Runnable> follow(LiveUpdates live) {
        return List.of(live.subscribe(this::changes), live.onResync(() -> recheck(true, Optional.empty())));
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
    Optional<Customer> theirs() {
        return Optional.ofNullable(theirs);
    }

    /**
     * "Review" on the live banner: opens the merge of the edits with the newer record now, on the editor's base.
     * For a record someone deleted it opens the deleted flow (re-create with my values, or discard).
     */
    public void review() {
        Customer base = editor.buffer().base();
        if (bannerShown() && base != null) {
            editor.conflicts().review(base, editor.buffer().currentProperty().get(), theirs());
        }
    }

    boolean bannerShown() {
        return banner.get() != null;
    }

    /** Nothing left to review: the banner goes. */
    void clear() {
        theirs = null;
        banner.set(null);
    }

    /** The editor moved to another record: no banner, no highlight. */
    void forget() {
        clear();
        recentlyChanged.set(Set.of());
    }

    /** The editor's calls all settled: look again if a check arrived meanwhile. */
    void settled() {
        if (recheckWhenSettled) {
            recheckWhenSettled = false;
            recheck(true, recheckFromAnotherWindow);
        }
    }

    private void changes(List<LiveUpdates.Change> batch) {
        Customer base = editor.buffer().base();
        if (base == null) {
            return;
        }
        if (batch.stream().anyMatch(c -> c.event().isCustomer() && c.event().id() == base.id())) {
            editor.history().refresh();
        }
        if (batch.stream()
                .anyMatch(c -> (c.event().isCustomer() || c.event().isLease()) && c.event().id() == base.id())) {
            editor.timeline().refresh(); // a lease taken or let go changes no version, but it is on the timeline
        }
        List<LiveUpdates.Change> newer = batch.stream().filter(c -> c.event().isCustomer()
                && c.event().id() == base.id()
                && (c.event().version() > base.version() || "DELETE".equals(c.event().op()))).toList();
        List<LiveUpdates.Change> notMine = newer.stream().filter(c -> !c.event().madeBy(editor.writerId())).toList();
        if (!notMine.isEmpty()) {
            LiveUpdates.Change latest = notMine.get(notMine.size() - 1);
            // The client's own change (c.mine()) made by another of its editors: worded "You … in another window".
            recheck(true, latest.mine() ? Optional.of(latest.event()) : Optional.empty());
        } else if (!newer.isEmpty() && !editor.buffer().dirtyProperty().get()) {
            // This editor's own save, heard before its reply: follow it quietly, no highlight, no banner.
            recheck(false, Optional.empty());
        }
    }

    /** Reads the record again and applies the rules above; also on resync. */
    private void recheck(boolean byOthers, Optional<ChangeEvent> fromAnotherWindow) {
        Customer base = editor.buffer().base();
        if (base == null || editor.stateProperty().get() != EditorState.EDITING) {
            return;
        }
        long customerId = base.id();
        reads.execute(() -> LiveCheck.read(editor.customers(), editor.historyRepository(), customerId,
                base.version(), fromAnotherWindow), check -> {
                    if (editor.callsInFlight() || editor.conflicts().open()) {
                        // A save or load in flight settles the state itself; look again once it has.
                        recheckWhenSettled = editor.callsInFlight();
                        recheckFromAnotherWindow = fromAnotherWindow;
                    } else if (byOthers) {
                        apply(check);
                    } else {
                        followOwn(check);
                    }
                }, failure -> editor.notice(EditorNotice.error(tr("Another operator changed this customer, but it "
                        + "could not be read again — Reload to see it."), EditorNotice.detail(failure))
                        .withReload()));
    }

    private void followOwn(LiveCheck check) {
        Customer base = editor.buffer().base();
        if (base == null || editor.stateProperty().get() != EditorState.EDITING
                || editor.buffer().dirtyProperty().get()) {
            return;
        }
        if (check.now().isEmpty()) {
            editor.deleted(base.id(), EditorNotice.info(tr("This customer was deleted.")));
        } else if (check.now().get().version() > base.version()) {
            editor.buffer().reset(check.now().get());
        }
    }

    private void apply(LiveCheck check) {
        Customer base = editor.buffer().base();
        if (base == null || editor.stateProperty().get() != EditorState.EDITING) {
            return;
        }
        if (check.now().isPresent() && check.now().get().version() <= base.version()) {
            return; // nothing newer than what the editor is based on
        }
        boolean dirty = editor.buffer().dirtyProperty().get();
        if (check.now().isEmpty()) {
            if (dirty) {
                theirs = null;
                banner.set(check.deletedBanner());
            } else {
                editor.deleted(base.id(), EditorNotice.info(check.deletedNotice()));
            }
            return;
        }
        Customer now = check.now().get();
        Set<CustomerField> changed = LiveCheck.changedFields(base.data(), now.data());
        if (dirty) {
            theirs = now;
            banner.set(check.savedBanner(now.version(), changed));
        } else {
            clear();
            editor.buffer().reset(now);
            recentlyChanged.set(changed);
        }
    }
}
