package org.lockstep.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Which one message a message area shows, alone (no toolkit): the most urgent waiting one, the one the operator
 * stepped to while it waits, and the next one as soon as the shown one stops waiting.
 */
class MessagePickerTest {

    /** Most urgent first, as the editor's kinds of message. */
    enum Kind {
        ERROR, LOCK, LIVE, INFO, HOT
    }

    final MessagePicker<Kind> picker = new MessagePicker<>(List.of(Kind.values()));

    static Set<Kind> kinds(String names) {
        return names.isBlank() ? Set.of()
                : java.util.Arrays.stream(names.trim().split(" +")).map(Kind::valueOf)
                        .collect(java.util.stream.Collectors.toSet());
    }

    @ParameterizedTest
    @CsvSource(textBlock = """
            ERROR LOCK LIVE HOT,  ERROR, 3
            HOT LIVE,             LIVE,  1
            INFO HOT,             INFO,  1
            LOCK INFO,            LOCK,  1
            HOT,                  HOT,   0
            """)
    void theMostUrgentWaitingMessageShowsAndTheOthersAreCounted(String waiting, Kind shown, int more) {
        picker.waiting(kinds(waiting));

        assertThat(picker.shown()).contains(shown);
        assertThat(picker.more()).isEqualTo(more);
    }

    @Test
    void nothingShowsWhileNothingWaits() {
        picker.waiting(kinds("LOCK"));
        picker.waiting(Set.of());

        assertThat(picker.shown()).isEmpty();
        assertThat(picker.more()).isZero();
    }

    @Test
    void whenTheShownMessageIsDismissedOrStopsBeingWantedTheNextWaitingShows() {
        picker.waiting(kinds("ERROR LOCK HOT"));

        picker.waiting(kinds("LOCK HOT")); // the error dismissed

        assertThat(picker.shown()).contains(Kind.LOCK);
        picker.waiting(kinds("HOT")); // the lock message no longer wanted
        assertThat(picker.shown()).contains(Kind.HOT);
        assertThat(picker.more()).isZero();
    }

    @Test
    void stepShowsTheNextWaitingMessageByPriorityAndWrapsAround() {
        picker.waiting(kinds("ERROR LIVE HOT"));

        picker.step();
        assertThat(picker.shown()).contains(Kind.LIVE);
        picker.step();
        assertThat(picker.shown()).contains(Kind.HOT);
        picker.step();
        assertThat(picker.shown()).contains(Kind.ERROR);
        assertThat(picker.more()).isEqualTo(2);
    }

    @Test
    void stepWithOneMessageWaitingChangesNothing() {
        picker.waiting(kinds("INFO"));

        picker.step();

        assertThat(picker.shown()).contains(Kind.INFO);
    }

    @Test
    void theMessageSteppedToStaysWhileALessUrgentOneArrives() {
        picker.waiting(kinds("ERROR LIVE"));
        picker.step();

        picker.waiting(kinds("ERROR LIVE HOT"));

        assertThat(picker.shown()).contains(Kind.LIVE);
        assertThat(picker.more()).isEqualTo(2);
    }

    @Test
    void aMoreUrgentMessageArrivingTakesThePlaceOfTheOneSteppedTo() {
        picker.waiting(kinds("LOCK HOT"));
        picker.step();
        assertThat(picker.shown()).contains(Kind.HOT);

        picker.waiting(kinds("ERROR LOCK HOT"));

        assertThat(picker.shown()).contains(Kind.ERROR);
    }

    @Test
    void aMoreUrgentMessageThatSaysSomethingNewTakesThePlaceOfTheOneSteppedTo() {
        picker.waiting(kinds("LOCK HOT"));
        picker.step();

        picker.renewed(Kind.LOCK); // "Bob is editing" became "it is free now"

        assertThat(picker.shown()).contains(Kind.LOCK);
    }

    @Test
    void aLessUrgentMessageThatSaysSomethingNewLeavesTheOneSteppedTo() {
        picker.waiting(kinds("ERROR LOCK HOT"));
        picker.step();

        picker.renewed(Kind.HOT);

        assertThat(picker.shown()).contains(Kind.LOCK);
    }

    @Test
    void whenTheMessageSteppedToStopsWaitingTheMostUrgentShowsAgain() {
        picker.waiting(kinds("ERROR LOCK HOT"));
        picker.step();
        picker.step();
        assertThat(picker.shown()).contains(Kind.HOT);

        picker.waiting(kinds("ERROR LOCK"));

        assertThat(picker.shown()).contains(Kind.ERROR);
    }

    @Test
    void aKindNotInThePriorityIsRefused() {
        MessagePicker<String> strings = new MessagePicker<>(List.of("error", "advice"));

        assertThatThrownBy(() -> strings.waiting(Set.of("gossip"))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new MessagePicker<>(List.of("a", "a"))).isInstanceOf(IllegalArgumentException.class);
    }
}
