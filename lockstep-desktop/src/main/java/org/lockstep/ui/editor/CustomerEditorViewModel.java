package org.lockstep.ui.editor;

import java.time.Clock;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Consumer;
import javafx.beans.Observable;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import org.lockstep.concurrency.TaskScope;
import org.lockstep.ui.timeline.TimelineViewModel;
import org.lockstep.domain.Customer;
import org.lockstep.domain.CustomerRepository;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerField;
import org.lockstep.domain.HistoryRepository;
import org.lockstep.drafts.Draft;
import org.lockstep.drafts.MergeDraft;
import org.lockstep.editing.CustomerEditing;
import org.lockstep.editing.LockState;
import org.lockstep.ui.EditorServices;
import org.lockstep.ui.lock.EditLockViewModel;
import org.lockstep.ui.lock.OpenLocks;
import org.lockstep.ui.merge.Merges;
import org.lockstep.text.Texts;

/**
 * One customer editor: loads a record, buffers the operator's edits, validates them while typing and saves them
 * with a versioned save (PoEAA, Optimistic Offline Lock). Every database call runs through a {@link TaskScope} over
 * the process's executor: results are applied on the FX thread, which is the only thread that may touch this object,
 * and a result for a record no longer shown is dropped. A failed call keeps every edit and says so in
 * {@link #noticeProperty()}.
 *
 * <p>The editor is a composition of parts around one {@link EditorSession} (the record shown, the edits, the state,
 * the notice, and the events the parts tell each other of); the view binds to the parts directly: {@link #buffer()}
 * (the edits), {@link #status()} (what the controls show), {@link #saves()} (saves and deletes through
 * {@link org.lockstep.editing.CustomerEditing}, serialized), {@link #live()} (other writers' changes as they happen),
 * {@link #conflicts()} (a zero-row save opens a three-way merge, a zero-row delete a decision; nothing is overwritten
 * until the operator chooses), {@link #helpers()} (messaging, presence seat, hot-record advice) and {@link #lock()}
 * (the lock for editing, wired to the edits by {@link LockWiring}). No part knows this class: each gets the session and
 * what its own job uses. This class wires them and keeps the moves from record to record.
 *
 * <p>Each editor writes as a writer id of its own ({@link EditorServices#forNewEditor()}): two windows of one operator
 * are two writers. A save from another window is announced here like anyone's ("You saved version 8 in another
 * window — Review"), and a lease held in another window makes this editor read-only ("Locked by you in another
 * window") and refuses its saves, under the lease and optimistic alike (docs/decisions/0012-one-writer-per-editor.md).
 */
public final class CustomerEditorViewModel {

    private final String user;
    private final Clock clock;
    private final CustomerRepository customers;
    private final EditLockViewModel lock;
    private final OpenLocks openLocks;
    private final EditorSession session;
    private final TaskScope scope;
    private final TaskScope reads;
    private final ReadOnlyBooleanWrapper busy = new ReadOnlyBooleanWrapper(this, "busy");
    private final EditorStatus status = new EditorStatus();
    private final CustomerHistoryViewModel versions;
    private final TimelineViewModel timeline;
    private final RecordHelpers helpers;
    private LockWiring lockWiring;
    private final LiveFollower live;
    private final ConflictFlow conflicts;
    private final EditorSaves saves;
    private final List<Runnable> unsubscribe = new ArrayList<>();
    private final Optional<DraftKeeper> drafts;
    private final HistoryRepository history;
    private Consumer<Customer> onSaved = c -> {};
    private Consumer<Long> onDeleted = i -> {};

    /** An editor using the process's services; its lock starts in the default mode. */
    public CustomerEditorViewModel(EditorServices services) {
        this(services, Clock.system(ZoneId.systemDefault()));
    }

    /**
     * As the other constructor, telling the time of saves by {@code clock} (zone and today). The editor writes as a
     * new writer id of the services' client ({@link EditorServices#forNewEditor()}).
     */
    public CustomerEditorViewModel(EditorServices clientServices, Clock clock) {
        EditorServices services = clientServices.forNewEditor();
        this.customers = services.customers();
        this.history = services.history();
        this.user = services.user();
        this.clock = Objects.requireNonNull(clock);
        this.session = new EditorSession(customers.sessionId(), clock.getZone());
        this.lock = services.newLock();
        this.openLocks = services.openLocks();
        this.scope = new TaskScope(services.executor());
        this.reads = new TaskScope(services.executor());
        this.versions = new CustomerHistoryViewModel(history, services.executor(), clock.getZone());
        this.timeline = new TimelineViewModel(history, services.executor(), clock.getZone());
        EditBuffer buffer = session.buffer();
        this.helpers = RecordHelpers.of(services, lock, buffer.dirtyProperty(),
                received -> lockWiring.tellAboutTheLock(received)); // wired below, before any message can come
        this.conflicts = new ConflictFlow(session, new Merges(customers, history, services.executor()));
        this.drafts = services.drafts().map(d -> new DraftKeeper(session, conflicts.mergeProperty(), d,
                services.executor(), DraftKeeper.Later.on(services.scheduler(), services.fxThread()),
                () -> lock.modeProperty().get(), lock::token, user, clock));
        this.saves = new EditorSaves(session, status, new CustomerEditing(customers), lock, scope, conflicts);
        drafts.ifPresent(keeper -> saves.setCreateRequests(keeper::createRequest));
        this.live = new LiveFollower(session, customers, history, scope, reads, conflicts, versions, timeline,
                services.ownWrites());
        session.subscribe(new EditorSession.Events() {
            @Override
            public void saved(Customer stored) {
                if (session.customerId().orElse(-1) == stored.id()) {
                    helpers.attach(stored.id()); // a new customer's first save gives it an id to lock and message
                }
                onSaved.accept(stored);
            }

            @Override
            public void deleted(long customerId, boolean shown) {
                if (shown) {
                    dropPending();
                    helpers.detach();
                }
                onDeleted.accept(customerId);
            }

            @Override
            public void conflictCounted(long customerId) {
                helpers.readHotRecord(customerId);
            }
        });
        scope.onBusyChanged(b -> {
            busy.set(b);
            if (!b) {
                live.settled();
            }
        });
        buffer.baseProperty().addListener((obs, was, now) -> versions.show(now == null ? -1 : now.id()));
        buffer.baseProperty().addListener((obs, was, now) -> timeline.show(now == null ? -1 : now.id()));
        Observable[] inputs = {session.stateProperty(), busy, conflicts.mergeProperty(),
                conflicts.deleteConflictProperty(), buffer.dirtyProperty(), buffer.problemsProperty(),
                buffer.currentProperty(), buffer.baseProperty(), lock.readOnlyProperty(), saves.inFlightProperty()};
        for (Observable input : inputs) {
            input.addListener(o -> refresh());
        }
        this.lockWiring = LockWiring.wire(session, lock, helpers, this::load);
        saves.setLockNotices(lockWiring::tellAboutTheLock);
        unsubscribe.addAll(live.follow(services.live()));
        refresh();
    }

    // ---- what the operator does -----------------------------------------------------------------------------------

    /** Loads a customer in the background; until it arrives the editor shows "Loading…" and takes no edits. */
    public void load(long customerId) {
        EditBuffer buffer = session.buffer();
        boolean reload = buffer.base() != null && buffer.base().id() == customerId;
        EditorState before = session.state();
        moveOn(customerId);
        if (!reload) {
            buffer.reset(null);
            helpers.clearHotRecord();
        }
        helpers.attach(customerId);
        session.state(EditorState.LOADING);
        scope.execute(() -> customers.find(customerId), found -> {
            if (found.isPresent()) {
                buffer.reset(found.get());
                session.state(EditorState.EDITING);
                helpers.readHotRecord(customerId);
            } else {
                helpers.detach();
                session.state(EditorState.DELETED);
                session.notice(
                        EditorNotice.info(Texts.tr("Customer #{0} no longer exists; someone deleted it.", customerId)));
            }
        }, failure -> {
            session.state(reload ? before : EditorState.EMPTY);
            session.notice(EditorNotice.error(Texts.tr("Can't reach the database — Customer #{0} could not be loaded.",
                    customerId), EditorNotice.detail(failure)).withReload());
        });
    }

    /** Shows a blank new customer; Save creates it, after which this is an ordinary editor of that customer. */
    public void startNew() {
        moveOn(-1);
        helpers.detach();
        session.state(EditorState.NEW);
        session.buffer().reset(null);
    }

    /**
     * Empties the editor without asking: drops the edits, closes an open merge or delete decision (their dialogs
     * close with them) and lets go of a lease it holds; the editor then shows no customer. The trainer demo's reset
     * uses it; an operator's own actions go through {@link #revert()} and the main window's prompts instead.
     */
    public void clear() {
        moveOn(-1);
        helpers.detach();
        session.buffer().reset(null);
        session.state(EditorState.EMPTY);
    }

    /**
     * Shows a draft kept from before the client ended (issue 28): its typed text on its base version, so that Save is
     * the ordinary versioned save from that base and a customer saved meanwhile goes through the three-way merge —
     * the restore never overwrites anyone. A draft of a merge opens that merge again, against the record as it is
     * now, with the operator's choices where they still apply ({@link ConflictFlow#restoreMerge}). The editor journals
     * under the draft's key from now on, so the draft goes once these edits are saved or discarded. A customer
     * deleted meanwhile opens as a new customer with the draft's values, which Save creates again; an unreachable
     * database still shows the draft on its base (and keeps its merge in the draft until it can be opened).
     */
    public void restore(Draft draft) {
        long id = draft.customerId().orElse(-1);
        moveOn(id);
        // Taken over once the draft's text is in the buffer: before, the blank buffer would count as reverted.
        java.util.function.Consumer<Optional<MergeDraft>> takeOver =
                merge -> drafts.ifPresent(d -> d.takeOver(draft.key(), merge));
        EditBuffer buffer = session.buffer();
        if (draft.isNewCustomer()) {
            helpers.detach();
            session.state(EditorState.NEW);
            buffer.reset(null);
            draft.typed().forEach((f, text) -> buffer.text(f).set(text));
            takeOver.accept(Optional.empty());
            whetherCreated(draft);
            return;
        }
        buffer.reset(null);
        helpers.attach(id);
        session.state(EditorState.LOADING);
        // Who saved the base and when, for the version line, is read with the customer; the draft's own operator
        // and time stand in only while the database cannot be reached.
        Customer drafted = new Customer(id, draft.baseVersion(), draft.base(), draft.savedAt(), draft.operator());
        scope.execute(() -> {
            Optional<Customer> now = customers.find(id);
            return new Restoring(now, now.isEmpty() ? drafted : savedAs(drafted, now.get()));
        }, restoring -> {
            Optional<Customer> found = restoring.now();
            Customer base = restoring.base();
            if (found.isPresent()) {
                buffer.reset(base);
                draft.typed().forEach((f, text) -> buffer.text(f).set(text));
                session.state(EditorState.EDITING);
                takeOver.accept(Optional.empty());
                Customer now = found.get();
                if (now.version() > draft.baseVersion() && buffer.problemsProperty().get().isEmpty()
                        && CustomerEditing.alreadyStored(now, wouldSave(draft, buffer.currentProperty().get()))) {
                    // The client ended after these edits committed and before their draft went (a kill within those
                    // milliseconds): the customer holds them. Restored as unsaved, their Save would meet "someone
                    // saved these same values first" and ask to make again a change that was made once already.
                    session.resetTo(now, EditorNotice.info(Texts.tr("Your changes from before Lockstep closed were "
                            + "saved then: version {0} holds them. There is nothing to restore.", now.version())));
                    return;
                }
                Optional<MergeDraft> merge = draft.merge().filter(m -> now.version() > draft.baseVersion()
                        && buffer.problemsProperty().get().isEmpty());
                if (merge.isPresent()) {
                    session.notice(EditorNotice.info(Texts.tr("Your merge from before Lockstep closed is open "
                            + "again, with the choices you made.")));
                    conflicts.restoreMerge(base, buffer.currentProperty().get(), now, merge.get());
                } else {
                    session.notice(EditorNotice.info(Texts.tr("Your unsaved changes from before Lockstep closed "
                            + "are back, on version {0}. Save to keep them.", draft.baseVersion())));
                }
            } else {
                helpers.detach();
                session.customerId(-1);
                buffer.reset(null);
                session.state(EditorState.NEW);
                // The draft's values, and where a merge was open, what the operator settled in it (chose or wrote):
                // the merge cannot open against a customer that is gone, and its Result would be lost with it.
                Map<CustomerField, String> settled = draft.merge().map(MergeDraft::resolved).orElse(Map.of());
                for (CustomerField f : CustomerField.values()) {
                    buffer.text(f).set(settled.getOrDefault(f, draft.typed().getOrDefault(f,
                            buffer.parser().format(draft.base().get(f)))));
                }
                takeOver.accept(Optional.empty());
                session.notice(EditorNotice.info(Texts.tr("Customer #{0} was deleted after you made these changes. "
                        + "Save creates it again with these values.", id)));
                whetherCreated(draft); // it may have been, just before the client ended
            }
        }, failure -> {
            buffer.reset(drafted);
            draft.typed().forEach((f, text) -> buffer.text(f).set(text));
            session.state(EditorState.EDITING);
            takeOver.accept(draft.merge());
            session.notice(EditorNotice.error(Texts.tr("Can't reach the database — your unsaved changes are back "
                    + "and kept. Save once it is reachable again."), EditorNotice.detail(failure)));
        });
    }

    /** A restore's reading: the customer now (empty: deleted), and the draft's base as it was stored. */
    private record Restoring(Optional<Customer> now, Customer base) {
    }

    /**
     * The draft's base with who saved that version and when: the customer now, when it is still that version, else
     * its history's entry; the draft's stand-ins when the history has none. Blocking.
     */
    private Customer savedAs(Customer drafted, Customer now) {
        if (now.version() == drafted.version()) {
            return new Customer(drafted.id(), drafted.version(), drafted.data(), now.updatedAt(), now.updatedBy());
        }
        return history.between(drafted.id(), drafted.version() - 1, drafted.version()).stream()
                .filter(e -> e.version() == drafted.version()).findFirst()
                .map(e -> new Customer(drafted.id(), drafted.version(), drafted.data(), e.changedAt(), e.changedBy()))
                .orElse(drafted);
    }

    /**
     * Asks whether the create of a restored draft's new customer committed before the client ended, and when it did,
     * the editor edits the customer it made: as saved when it holds what the editor shows, else with the rest (what
     * was typed while the create was in flight) as edits on it. Without this, Save would create the customer again —
     * the store, sent the same request id, makes none and returns it, but as a plain "saved".
     */
    private void whetherCreated(Draft draft) {
        scope.execute(() -> customers.createdBy(draft.createRequest()), created -> created.ifPresent(c -> {
            if (session.state() != EditorState.NEW) {
                return; // the operator moved on meanwhile
            }
            EditBuffer buffer = session.buffer();
            Map<CustomerField, String> shown = new EnumMap<>(CustomerField.class);
            for (CustomerField f : CustomerField.values()) {
                shown.put(f, buffer.text(f).get());
            }
            moveOn(c.id());
            helpers.attach(c.id());
            buffer.reset(c);
            shown.forEach((f, text) -> buffer.text(f).set(text));
            session.state(EditorState.EDITING);
            session.notice(EditorNotice.info(buffer.dirtyProperty().get()
                    ? Texts.tr("Customer #{0} was created from these changes before Lockstep closed; what you typed "
                            + "after that is back. Save to keep it.", c.id())
                    : Texts.tr("Your changes from before Lockstep closed were saved then: Customer #{0} holds them. "
                            + "There is nothing to restore.", c.id())));
        }), failure -> {
            // Unreachable: the draft stays a new customer; its Save goes under the same request id, created once.
        });
    }

    /**
     * What saving {@code draft} would have written: {@code mine}, the draft's edits on its base; for a draft of a
     * merge, the merge's result as far as the draft tells it — the Result of each field the operator settled, mine
     * where only mine changed, theirs elsewhere.
     */
    private CustomerData wouldSave(Draft draft, CustomerData mine) {
        if (draft.merge().isEmpty()) {
            return mine;
        }
        MergeDraft merge = draft.merge().get();
        CustomerData result = merge.theirs();
        for (CustomerField f : CustomerField.values()) {
            String settled = merge.resolved().get(f);
            if (settled != null) {
                try {
                    result = result.with(f, session.buffer().parser().parse(f, settled));
                } catch (RuntimeException unparsable) {
                    return mine; // a Result that does not parse was never saved
                }
            } else if (draft.typed().containsKey(f)) {
                result = result.with(f, mine.get(f));
            }
        }
        return result;
    }

    /**
     * Ends this editor to let another go on with its edits (the database came back after a start without it): like
     * {@link #close()}, except that its draft stays on the disk for the other editor to take over under the same key.
     *
     * @return the draft of its unsaved edits now, with the merge it keeps; empty when nothing unsaved is left
     */
    public Optional<Draft> handOver() {
        Optional<Draft> now = drafts.flatMap(DraftKeeper::handOver);
        close();
        return now;
    }

    /** Reads the record again, dropping unsaved edits (the view asks first when there are any). */
    public void reload() {
        if (session.customerId().isPresent() && !busy.get()) {
            load(session.customerId().getAsLong());
        }
    }

    /** Drops every edit: the editor shows its base again (a new customer becomes blank). */
    public void revert() {
        if (status.canRevert.get()) {
            // Dropping the edits also drops the reason to stay on the old base: show the newer record announced.
            session.buffer().reset(live.theirs().orElse(session.buffer().base()));
            live.clear();
            session.notice(null);
        }
    }

    /** The confirmation question before breaking another operator's lock, naming them and the customer. */
    public String breakLockQuestion() {
        String holder = lock.stateProperty().get() instanceof LockState.HeldByOther other ? other.holder().holder()
                : null;
        return EditorTexts.breakLockQuestion(holder, status.displayName.get());
    }

    /** The editor closes: releases its lease (in the background) and stops its timers; not used afterwards. */
    public void close() {
        drafts.ifPresent(DraftKeeper::close);
        unsubscribe.forEach(Runnable::run);
        unsubscribe.clear();
        helpers.close();
        openLocks.close(lock);
    }

    /** Called on the FX thread after each successful save or create, with the stored record. */
    public void setOnSaved(Consumer<Customer> listener) {
        onSaved = listener == null ? c -> {} : listener;
    }

    /** Called on the FX thread after the customer was deleted, here or (once the operator discards) elsewhere. */
    public void setOnDeleted(Consumer<Long> listener) {
        onDeleted = listener == null ? i -> {} : listener;
    }

    // ---- what the view shows --------------------------------------------------------------------------------------

    /** A database call is in flight. */
    public ReadOnlyBooleanProperty busyProperty() {
        return busy.getReadOnlyProperty();
    }

    /** Where the editor is in its life. */
    public ReadOnlyObjectProperty<EditorState> stateProperty() {
        return session.stateProperty();
    }

    /** The message across the top, or {@code null}. */
    public ReadOnlyObjectProperty<EditorNotice> noticeProperty() {
        return session.noticeProperty();
    }

    /** The edits: each field's text, error and warning, the base record, whether it is dirty. */
    public EditBuffer buffer() {
        return session.buffer();
    }

    /** What the controls show: editable, can save / revert / delete, why Save is blocked, name, version, title. */
    public EditorStatus status() {
        return status;
    }

    /** Save, Save and then, Save without lock, Restore, Delete and its question. */
    public EditorSaves saves() {
        return saves;
    }

    /** Other writers' changes: the live banner and the fields another's save just changed. */
    public LiveFollower live() {
        return live;
    }

    /** The open merge or delete decision, if any. */
    public ConflictFlow conflicts() {
        return conflicts;
    }

    /** Messaging the holder, who else is here, the hot-record advice. */
    public RecordHelpers helpers() {
        return helpers;
    }

    /** The History tab's versions of this editor's customer. */
    public CustomerHistoryViewModel history() {
        return versions;
    }

    /** The Timeline tab: this editor's customer as a sequence diagram of its history and lease events. */
    public TimelineViewModel timeline() {
        return timeline;
    }

    /** This editor's lock for editing: mode, state, banner. */
    public EditLockViewModel lock() {
        return lock;
    }

    /** The customer's id; empty for a new customer not yet saved. */
    public OptionalLong customerId() {
        return session.customerId();
    }

    /** The writer id this editor writes as: its saves carry it, its lease is held by it. */
    public String writerId() {
        return session.writerId();
    }

    /** The operator's name. */
    public String user() {
        return user;
    }

    // ---- internals ------------------------------------------------------------------------------------------------

    /** The editor moves to {@code customerId} (-1: none): earlier results are dropped, pending work forgotten. */
    private void moveOn(long customerId) {
        scope.renew();
        reads.renew();
        session.customerId(customerId);
        dropPending();
        live.forget();
        session.notice(null);
    }

    /** Waiting saves and an open merge or delete decision belong to the record left behind. */
    private void dropPending() {
        saves.forgetWaiting();
        conflicts.close();
    }

    /**
     * Says again, in the language now chosen, what the editor says from its state (a language switch rebuilt its
     * view): the version line, the window's title, why Save is blocked, the lock's state, another operator's save,
     * who else is here and the hot-record advice. Nothing is read again. FX thread.
     */
    public void speakAgain() {
        session.buffer().speakAgain();
        refresh();
        lock.speakAgain();
        live.speakAgain();
        helpers.speakAgain();
    }

    private void refresh() {
        EditBuffer buffer = session.buffer();
        status.refresh(new EditorStatus.Inputs(session.state(), conflicts.open(), lock.readOnlyProperty().get(),
                buffer.problemsProperty().get(), buffer.dirtyProperty().get(), busy.get(), saves.inFlight(),
                buffer.currentProperty().get(), buffer.base(), session.customerId().orElse(-1), user, clock));
    }
}
