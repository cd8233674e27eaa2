package org.lockstep.ui.editor;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * Serializes one editor's saves: at most one is in flight; a save requested meanwhile waits, and starts only when
 * the one in flight has committed, so that it is based on the version that one returned. An operator therefore never
 * conflicts with their own save. Confined to the FX thread, like the view model that owns it.
 */
final class SaveQueue {

    private final Deque<EditBuffer.Snapshot> waiting = new ArrayDeque<>();
    private final List<Runnable> whenDrained = new ArrayList<>();
    private final Consumer<EditBuffer.Snapshot> start;
    // Observable, so that "Saving…" goes when the save in flight reports, whatever else changed before.
    private final javafx.beans.property.ReadOnlyBooleanWrapper inFlight =
            new javafx.beans.property.ReadOnlyBooleanWrapper();

    /** @param start begins one save; its outcome must come back through {@link #next} or {@link #abandon} */
    SaveQueue(Consumer<EditBuffer.Snapshot> start) {
        this.start = start;
    }

    /** Whether a save is in flight. */
    boolean inFlight() {
        return inFlight.get();
    }

    /** Whether a save is in flight, observable. */
    javafx.beans.property.ReadOnlyBooleanProperty inFlightProperty() {
        return inFlight.getReadOnlyProperty();
    }

    /** Starts the save now, or queues it behind the one in flight. */
    void submit(EditBuffer.Snapshot snapshot) {
        if (inFlight.get()) {
            waiting.add(snapshot);
        } else {
            begin(snapshot);
        }
    }

    /**
     * The save in flight is over and the editor has its new base: starts the next waiting save, skipping those whose
     * values are {@code alreadyStored} (a new version with nothing new would only make conflicts for others). When
     * none is left, runs the {@link #whenDrained} actions.
     */
    void next(Predicate<EditBuffer.Snapshot> alreadyStored) {
        inFlight.set(false);
        while (!waiting.isEmpty()) {
            EditBuffer.Snapshot snapshot = waiting.poll();
            if (!alreadyStored.test(snapshot)) {
                begin(snapshot);
                return;
            }
        }
        List<Runnable> actions = List.copyOf(whenDrained);
        whenDrained.clear();
        actions.forEach(Runnable::run);
    }

    /**
     * The save in flight failed or conflicted: the waiting saves would fare no better and are dropped (their values
     * are still in the editor), and so are the {@link #whenDrained} actions.
     *
     * @param failed the snapshot of the save that failed
     * @return the latest snapshot the operator asked to save: the last waiting one, else {@code failed}
     */
    EditBuffer.Snapshot abandon(EditBuffer.Snapshot failed) {
        EditBuffer.Snapshot latest = waiting.isEmpty() ? failed : waiting.peekLast();
        clear();
        inFlight.set(false);
        return latest;
    }

    /** Runs {@code action} once every save submitted so far has committed. */
    void whenDrained(Runnable action) {
        whenDrained.add(action);
    }

    /** Withdraws a {@link #whenDrained} action. */
    void cancel(Runnable action) {
        whenDrained.remove(action);
    }

    /** Drops waiting saves and actions; a save in flight still reports through {@link #next} or {@link #abandon}. */
    void clear() {
        waiting.clear();
        whenDrained.clear();
    }

    private void begin(EditBuffer.Snapshot snapshot) {
        inFlight.set(true);
        start.accept(snapshot);
    }
}
