package org.lockstep.ui;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Picks the one message a message area shows among those waiting, by priority: the first waiting one in the order
 * given, unless the operator {@linkplain #step() stepped} to another, which then shows while it waits. A newly waiting
 * message more urgent than the one shown takes the place (an error must not wait behind advice the operator stepped
 * to); the one stepped to stops showing when it stops waiting, and the most urgent one left shows. Plain Java, no
 * toolkit: the editor's message area ({@link MessageArea}) asks it what to show.
 *
 * @param <K> what the messages are, e.g. an enum of the editor's kinds of message
 */
public final class MessagePicker<K> {

    private final List<K> priority;
    private final Set<K> waiting = new LinkedHashSet<>();
    private K stepped;

    /**
     * @param priority every kind of message, most urgent first
     * @throws IllegalArgumentException if a kind is listed twice
     */
    public MessagePicker(List<K> priority) {
        if (new LinkedHashSet<>(priority).size() != priority.size()) {
            throw new IllegalArgumentException("a kind of message listed twice: " + priority);
        }
        this.priority = List.copyOf(priority);
    }

    /**
     * Says which messages wait to be shown now (wanted and not dismissed); those not named wait no longer.
     *
     * @throws IllegalArgumentException for a kind not in the priority list
     */
    public void waiting(Set<K> now) {
        for (K k : now) {
            if (!priority.contains(k)) {
                throw new IllegalArgumentException("not a kind of message here: " + k);
            }
        }
        Optional<K> before = shown();
        Set<K> arrived = new LinkedHashSet<>(now);
        arrived.removeAll(waiting);
        waiting.clear();
        priority.stream().filter(now::contains).forEach(waiting::add);
        if (stepped != null && !waiting.contains(stepped)) {
            stepped = null;
        }
        // A message more urgent than the one shown arrived: it shows, not the one the operator stepped to.
        if (stepped != null && before.isPresent()
                && arrived.stream().anyMatch(k -> rank(k) < rank(before.get()))) {
            stepped = null;
        }
    }

    /**
     * A waiting message says something new (a lock message about a new holder): as one just arrived, it takes the
     * place of a less urgent one the operator stepped to.
     */
    public void renewed(K kind) {
        Optional<K> now = shown();
        if (stepped != null && waiting.contains(kind) && now.isPresent() && rank(kind) < rank(now.get())) {
            stepped = null;
        }
    }

    /** The message to show now, if any waits. */
    public Optional<K> shown() {
        if (stepped != null) {
            return Optional.of(stepped);
        }
        return waiting.stream().findFirst();
    }

    /** How many more wait besides the one shown. */
    public int more() {
        return Math.max(0, waiting.size() - 1);
    }

    /** Every waiting message, most urgent first. */
    public List<K> waiting() {
        return new ArrayList<>(waiting);
    }

    /**
     * Shows the next waiting message after the one shown, by priority, and after the least urgent the most urgent
     * again; nothing changes while only one waits.
     */
    public void step() {
        Optional<K> now = shown();
        if (now.isEmpty() || more() == 0) {
            return;
        }
        List<K> order = waiting();
        stepped = order.get((order.indexOf(now.get()) + 1) % order.size());
    }

    private int rank(K kind) {
        return priority.indexOf(kind);
    }
}
