package org.lockstep.ui.list;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.lockstep.domain.CustomerCount;

/** The list's status line: what the counts say, corrected by what the list itself holds once it holds every match. */
class ListCountsTest {

    private static final OptionalInt NOT_ALL = OptionalInt.empty();

    @Test
    void countsAreShownAsTheyCame() {
        assertThat(ListCounts.describe("", Optional.of(new CustomerCount(59, true)), Optional.empty(), NOT_ALL))
                .isEqualTo("59 customers");
        assertThat(ListCounts.describe("ber", Optional.of(new CustomerCount(59, true)),
                Optional.of(new CustomerCount(3, true)), NOT_ALL)).isEqualTo("3 of 59 match 'ber'");
        assertThat(ListCounts.describe("a", Optional.of(CustomerCount.about(1_000_000)),
                Optional.of(CustomerCount.about(812_345)), NOT_ALL))
                .isEqualTo("about 812,000 of about 1,000,000 match 'a'");
    }

    @Test
    void untilTheCountsAreInItSaysSo() {
        assertThat(ListCounts.describe("ber", Optional.empty(), Optional.empty(), NOT_ALL)).isEqualTo("Counting…");
        assertThat(ListCounts.describe("ber", Optional.of(new CustomerCount(59, true)), Optional.empty(), NOT_ALL))
                .isEqualTo("Counting…");
    }

    @Test
    void aListHoldingEveryMatchKnowsTheirNumberWhateverTheCountEstimated() {
        // The count gave up on a held table and the planner guessed one; the list read all four.
        assertThat(ListCounts.describe("berg", Optional.of(new CustomerCount(12, true)),
                Optional.of(CustomerCount.about(1)), OptionalInt.of(4))).isEqualTo("4 of 12 match 'berg'");
        // The whole table listed, before any count came back.
        assertThat(ListCounts.describe("", Optional.empty(), Optional.empty(), OptionalInt.of(7)))
                .isEqualTo("7 customers");
        // An estimate of the whole table below the matches listed is raised to them, as a lower bound.
        assertThat(ListCounts.describe("berg", Optional.of(CustomerCount.about(3)), Optional.empty(),
                OptionalInt.of(4))).isEqualTo("4 of at least 4 match 'berg'");
    }
}
