package org.lockstep.ui.editor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lockstep.testing.CustomerBuilder.aCustomer;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.lockstep.domain.CustomerData;
import org.lockstep.domain.CustomerField;

/**
 * One editor's save queue, alone: it takes only what starts a save, here a list that records each start, so the test
 * plays the part of the save's outcome ({@link SaveQueue#next} or {@link SaveQueue#abandon}).
 */
class SaveQueueTest {

    final List<String> started = new ArrayList<>();
    final SaveQueue queue = new SaveQueue(s -> started.add(s.data().city()));

    /** The snapshot of a save of {@code city}. */
    static EditBuffer.Snapshot save(String city) {
        CustomerData data = aCustomer().with(CustomerField.CITY, city).build();
        Map<CustomerField, String> texts = new EnumMap<>(CustomerField.class);
        for (CustomerField f : CustomerField.values()) {
            Object value = data.get(f);
            texts.put(f, value == null ? "" : value.toString());
        }
        return new EditBuffer.Snapshot(texts, data);
    }

    static final Predicate<EditBuffer.Snapshot> NONE_STORED = s -> false;

    /** The snapshots whose city is among {@code cities} are already stored. */
    static Predicate<EditBuffer.Snapshot> stored(String... cities) {
        return s -> Set.of(cities).contains(s.data().city());
    }

    @Test
    void aSaveStartsAtOnceWhenNoneIsInFlight() {
        assertThat(queue.inFlight()).isFalse();

        queue.submit(save("Curitiba"));

        assertThat(started).containsExactly("Curitiba");
        assertThat(queue.inFlight()).isTrue();
    }

    @Test
    void savesRequestedMeanwhileWaitAndStartOneAtATimeInOrder() {
        queue.submit(save("Curitiba"));
        queue.submit(save("Manaus"));
        queue.submit(save("Recife"));
        assertThat(started).containsExactly("Curitiba");

        queue.next(NONE_STORED);
        assertThat(started).containsExactly("Curitiba", "Manaus");
        assertThat(queue.inFlight()).isTrue();

        queue.next(NONE_STORED);
        queue.next(NONE_STORED);
        assertThat(started).containsExactly("Curitiba", "Manaus", "Recife");
        assertThat(queue.inFlight()).isFalse();
    }

    @Test
    void aWaitingSaveWhoseValuesAreAlreadyStoredIsSkipped() {
        queue.submit(save("Curitiba"));
        queue.submit(save("Curitiba"));
        queue.submit(save("Manaus"));

        queue.next(stored("Curitiba"));

        assertThat(started).containsExactly("Curitiba", "Manaus");
        assertThat(queue.inFlight()).isTrue();
    }

    @Test
    void whenEveryWaitingSaveIsAlreadyStoredNothingIsInFlightAndTheDrainedActionsRun() {
        List<String> ran = new ArrayList<>();
        queue.submit(save("Curitiba"));
        queue.submit(save("Curitiba"));
        queue.whenDrained(() -> ran.add("close the window"));

        queue.next(stored("Curitiba"));

        assertThat(started).containsExactly("Curitiba");
        assertThat(queue.inFlight()).isFalse();
        assertThat(ran).containsExactly("close the window");
    }

    @Test
    void drainedActionsRunOnceEverySaveSubmittedHasCommittedAndOnlyOnce() {
        List<String> ran = new ArrayList<>();
        queue.submit(save("Curitiba"));
        queue.submit(save("Manaus"));
        queue.whenDrained(() -> ran.add("first"));
        queue.whenDrained(() -> ran.add("second"));

        queue.next(NONE_STORED);
        assertThat(ran).isEmpty(); // Manaus is in flight now

        queue.next(NONE_STORED);
        assertThat(ran).containsExactly("first", "second");

        queue.submit(save("Recife"));
        queue.next(NONE_STORED);
        assertThat(ran).containsExactly("first", "second");
    }

    @Test
    void aCancelledDrainedActionDoesNotRun() {
        List<String> ran = new ArrayList<>();
        Runnable close = () -> ran.add("close");
        Runnable print = () -> ran.add("print");
        queue.whenDrained(close);
        queue.whenDrained(print);
        queue.submit(save("Curitiba"));

        queue.cancel(close);
        queue.next(NONE_STORED);

        assertThat(ran).containsExactly("print");
    }

    @Test
    void abandonReturnsTheLatestWaitingSaveAndDropsTheRestAndTheDrainedActions() {
        List<String> ran = new ArrayList<>();
        EditBuffer.Snapshot first = save("Curitiba");
        EditBuffer.Snapshot latest = save("Recife");
        queue.submit(first);
        queue.submit(save("Manaus"));
        queue.submit(latest);
        queue.whenDrained(() -> ran.add("close"));

        EditBuffer.Snapshot kept = queue.abandon(first);

        assertThat(kept).isSameAs(latest);
        assertThat(queue.inFlight()).isFalse();
        queue.next(NONE_STORED); // nothing waits any more
        assertThat(started).containsExactly("Curitiba");
        assertThat(ran).isEmpty();
    }

    @Test
    void abandonWithNothingWaitingReturnsTheSaveThatFailed() {
        EditBuffer.Snapshot failed = save("Curitiba");
        queue.submit(failed);

        assertThat(queue.abandon(failed)).isSameAs(failed);
        assertThat(queue.inFlight()).isFalse();

        queue.submit(save("Manaus"));
        assertThat(started).containsExactly("Curitiba", "Manaus");
    }

    @Test
    void clearDropsWaitingSavesAndActionsButTheSaveInFlightStillReports() {
        List<String> ran = new ArrayList<>();
        queue.submit(save("Curitiba"));
        queue.submit(save("Manaus"));
        queue.whenDrained(() -> ran.add("close"));

        queue.clear();

        assertThat(queue.inFlight()).isTrue();
        queue.submit(save("Recife")); // the editor's next record: waits behind the save still in flight
        queue.next(NONE_STORED);
        assertThat(started).containsExactly("Curitiba", "Recife");
        assertThat(ran).isEmpty();
    }
}
