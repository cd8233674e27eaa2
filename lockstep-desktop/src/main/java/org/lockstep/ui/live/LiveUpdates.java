package org.lockstep.ui.live;

import static org.lockstep.text.Texts.tr;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import org.lockstep.domain.ChangeEvent;
import org.lockstep.domain.ChangeFeed;
import org.lockstep.editing.WriterIds;

/**
 * The desktop side of live updates: hears the {@link ChangeFeed} on its thread and hands each batch of changes,
 * status change and resync request to the FX thread, where lists and editors subscribe. Changes whose notification
 * names one of this client's writer ids ({@link WriterIds}) are marked {@link Change#mine() mine}.
 *
 * <p>Every notification is a hint, never a fact (ADR 0018, "Notifications are hints"): on a team server any operator
 * may {@code pg_notify} any payload on the channel, and any writer may put any session id in its own
 * ({@code lockstep.session}). Subscribers therefore use a change only as a reason to read what they show again from
 * the database, and "mine" only to skip a read that could not change what they show — never to decide that a
 * change was their own.
 *
 * <p>Bursts (an import, {@code generate}, a psql UPDATE of 50,000 rows): whatever arrives while the FX thread has not
 * yet taken the last hand-off is handed over with it, in one batch, so the FX thread runs one task per burst rather
 * than one per notification. An announcement of many changes at once (op {@code MANY}, without ids) asks the
 * resync subscribers to read again what they show. Subscribers that only collect ids ({@link #subscribeOnFeedThread})
 * hear each batch on the feed's thread, before any hand-off.
 */
public final class LiveUpdates implements ChangeFeed.Listener {

    /**
     * One change as a subscriber sees it.
     *
     * @param event the change
     * @param mine  whether the notification names one of this client's writers: a claim anyone can make, never
     *              proof that this client made the change
     */
    public record Change(ChangeEvent event, boolean mine) {
    }

    private final Executor fxThread;
    private final String mySession;
    private final List<Consumer<List<Change>>> changeSubscribers = new CopyOnWriteArrayList<>();
    private final List<Consumer<List<Change>>> feedSubscribers = new CopyOnWriteArrayList<>();
    private final ConcurrentLinkedQueue<Change> pending = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean handOffScheduled = new AtomicBoolean();
    private final List<Runnable> resyncSubscribers = new CopyOnWriteArrayList<>();
    private final ReadOnlyObjectWrapper<ChangeFeed.Status> status = new ReadOnlyObjectWrapper<>(this, "status",
            ChangeFeed.Status.CONNECTING);
    private final ReadOnlyStringWrapper statusText = new ReadOnlyStringWrapper(this, "statusText", "Connecting…");
    private final ReadOnlyStringWrapper problem = new ReadOnlyStringWrapper(this, "problem", "");

    /**
     * @param fxThread  runs subscriber calls ({@code Platform::runLater})
     * @param mySession this process's client session id; its own changes, and those of its editors' writer ids, are
     *                  marked {@link Change#mine() mine}
     */
    public LiveUpdates(Executor fxThread, String mySession) {
        this.fxThread = fxThread;
        this.mySession = mySession;
    }

    /** Subscribes to batches of changes, on the FX thread. @return a handle that unsubscribes */
    public Runnable subscribe(Consumer<List<Change>> subscriber) {
        changeSubscribers.add(subscriber);
        return () -> changeSubscribers.remove(subscriber);
    }

    /**
     * Subscribes to batches of changes on the feed's own thread: for a subscriber that only notes what changed and
     * does its work elsewhere (it must return at once, and touch nothing of the FX thread's).
     *
     * @return a handle that unsubscribes
     */
    public Runnable subscribeOnFeedThread(Consumer<List<Change>> subscriber) {
        feedSubscribers.add(subscriber);
        return () -> feedSubscribers.remove(subscriber);
    }

    /** The FX thread's executor, as given: where subscribers are called. */
    public Executor fxThread() {
        return fxThread;
    }

    /** Subscribes to resync requests: re-read what you show. @return a handle that unsubscribes */
    public Runnable onResync(Runnable subscriber) {
        resyncSubscribers.add(subscriber);
        return () -> resyncSubscribers.remove(subscriber);
    }

    @Override
    public void changes(List<ChangeEvent> events) {
        List<Change> batch = events.stream().map(e -> new Change(e,
                e.sessionId().map(s -> WriterIds.sameClient(s, mySession)).orElse(false))).toList();
        feedSubscribers.forEach(s -> s.accept(batch));
        pending.addAll(batch);
        if (handOffScheduled.compareAndSet(false, true)) {
            fxThread.execute(this::handOff);
        }
    }

    /** On the FX thread: everything that arrived since the last hand-off, as one batch. */
    private void handOff() {
        handOffScheduled.set(false);
        List<Change> batch = new ArrayList<>();
        for (Change c = pending.poll(); c != null; c = pending.poll()) {
            batch.add(c);
        }
        if (batch.isEmpty()) {
            return;
        }
        if (batch.stream().anyMatch(c -> c.event().isManyCustomers())) {
            resyncSubscribers.forEach(Runnable::run);
        }
        List<Change> all = List.copyOf(batch);
        changeSubscribers.forEach(s -> s.accept(all));
    }

    @Override
    public void status(ChangeFeed.Status now) {
        fxThread.execute(() -> {
            status.set(now);
            if (now != ChangeFeed.Status.RECONNECTING) {
                problem.set("");
            }
            statusText.set(statusWords(now));
        });
    }

    /**
     * The feed cannot connect for a reason the store can name: the reason shows in the status bar
     * ({@link #problemProperty()}), and the feed's own word is "Offline" rather than "Reconnecting…", since it waits
     * for that reason to go (a full disk is not started on again until there is room).
     */
    @Override
    public void cannotConnect(String why) {
        fxThread.execute(() -> {
            problem.set(why);
            statusText.set(why.isEmpty() ? statusWords(status.get()) : tr("Offline"));
        });
    }

    /** Says the feed's status again in the language now chosen (a language switch). FX thread. */
    public void speakAgain() {
        statusText.set(problem.get().isEmpty() ? statusWords(status.get()) : tr("Offline"));
    }

    private static String statusWords(ChangeFeed.Status now) {
        return switch (now) {
            case LIVE -> tr("Live");
            case RECONNECTING -> tr("Reconnecting…");
            case CONNECTING -> tr("Connecting…");
            case CLOSED -> tr("Offline");
        };
    }

    /**
     * Why the feed cannot connect, in one sentence (the server's disk is full, the server has no connection left), or
     * empty: while not empty, the status bar shows it in place of the list's counts.
     */
    public ReadOnlyStringProperty problemProperty() {
        return problem.getReadOnlyProperty();
    }

    @Override
    public void resync() {
        fxThread.execute(() -> resyncSubscribers.forEach(Runnable::run));
    }

    /** The feed's status. */
    public ReadOnlyObjectProperty<ChangeFeed.Status> statusProperty() {
        return status.getReadOnlyProperty();
    }

    /** The status in words for the status bar: "Live", "Reconnecting…". */
    public ReadOnlyStringProperty statusTextProperty() {
        return statusText.getReadOnlyProperty();
    }
}
