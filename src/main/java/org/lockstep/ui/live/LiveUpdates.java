package org.lockstep.ui.live;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
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
 * status change and resync request to the FX thread, where lists and editors subscribe. Changes this client made
 * itself — through any of its editors' writer ids ({@link WriterIds}) — are marked {@link Change#mine() mine}: the list
 * already shows them, while an editor still tells its own writes ({@code event().madeBy(writerId)}) from those of the
 * client's other windows, which it announces like anyone's.
 */
public final class LiveUpdates implements ChangeFeed.Listener {

    /**
     * One change as a subscriber sees it.
     *
     * @param event the change
     * @param mine  whether this client made it, through any of its editors
     */
    public record Change(ChangeEvent event, boolean mine) {
    }

    private final Executor fxThread;
    private final String mySession;
    private final List<Consumer<List<Change>>> changeSubscribers = new CopyOnWriteArrayList<>();
    private final List<Runnable> resyncSubscribers = new CopyOnWriteArrayList<>();
    private final ReadOnlyObjectWrapper<ChangeFeed.Status> status = new ReadOnlyObjectWrapper<>(this, "status",
            ChangeFeed.Status.CONNECTING);
    private final ReadOnlyStringWrapper statusText = new ReadOnlyStringWrapper(this, "statusText", "Connecting…");

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

    /** Subscribes to resync requests: re-read what you show. @return a handle that unsubscribes */
    public Runnable onResync(Runnable subscriber) {
        resyncSubscribers.add(subscriber);
        return () -> resyncSubscribers.remove(subscriber);
    }

    @Override
    public void changes(List<ChangeEvent> events) {
        List<Change> batch = events.stream().map(e -> new Change(e,
                e.sessionId().map(s -> WriterIds.sameClient(s, mySession)).orElse(false))).toList();
        fxThread.execute(() -> changeSubscribers.forEach(s -> s.accept(batch)));
    }

    @Override
    public void status(ChangeFeed.Status now) {
        fxThread.execute(() -> {
            status.set(now);
            statusText.set(switch (now) {
                case LIVE -> "Live";
                case RECONNECTING -> "Reconnecting…";
                case CONNECTING -> "Connecting…";
                case CLOSED -> "Offline";
            });
        });
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
