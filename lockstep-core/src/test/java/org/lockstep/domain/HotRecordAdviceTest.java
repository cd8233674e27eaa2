package org.lockstep.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The rule of hot-record advice (ADR 0008): when a customer's recent conflicts suggest Lock for editing. */
class HotRecordAdviceTest {

    @ParameterizedTest(name = "{0} conflicts → advice: {1}")
    @CsvSource(textBlock = """
            0,  false
            1,  false
            2,  false
            3,  true
            4,  true
            250, true
            """)
    void atLeastThreeConflictsInTheWindowMakeACustomerHot(int conflicts, boolean advised) {
        assertThat(HotRecordAdvice.advice(conflicts, HotRecordAdvice.WINDOW).isPresent()).isEqualTo(advised);
    }

    @Test
    void theDefaultsAreThreeConflictsInSevenDays() {
        assertThat(HotRecordAdvice.THRESHOLD).isEqualTo(3);
        assertThat(HotRecordAdvice.WINDOW).isEqualTo(Duration.ofDays(7));
    }

    @Test
    void theAdviceSuggestsLockForEditingAndSaysHowManyConflictsInWhichWindow() {
        HotRecordAdvice advice = HotRecordAdvice.advice(4, HotRecordAdvice.WINDOW).orElseThrow();

        assertThat(advice.headline()).isEqualTo("Often edited at the same time — consider Lock for editing");
        assertThat(advice.detail()).isEqualTo("4 conflicts on this customer in the last 7 days");
    }

    @ParameterizedTest(name = "{0} → {1}")
    @CsvSource(textBlock = """
            P1D,   day
            P7D,   7 days
            PT36H, 36 hours
            PT1H,  hour
            PT90M, 90 minutes
            PT30S, minute
            """)
    void theWindowIsNamedInItsLargestWholeUnit(Duration window, String named) {
        assertThat(HotRecordAdvice.describe(window)).isEqualTo(named);
    }

    @Test
    void aNegativeCountOrAnEmptyWindowIsAMistake() {
        assertThatThrownBy(() -> HotRecordAdvice.advice(-1, HotRecordAdvice.WINDOW))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> HotRecordAdvice.advice(3, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
