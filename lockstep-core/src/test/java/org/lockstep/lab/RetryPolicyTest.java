package org.lockstep.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.SplittableRandom;
import java.util.stream.LongStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The pause before a retry is "full jitter": uniform in {@code [0, min(cap, base · 2^(n-1))]}, reaching down to zero,
 * not "equal jitter" in {@code [ceiling/2, ceiling]}, which keeps colliding clients closer together (Marc Brooker,
 * "Exponential Backoff And Jitter", AWS Architecture Blog, 2015). The change feed's reconnect pauses use this policy.
 */
class RetryPolicyTest {

    private static final int DRAWS = 2_000;

    @ParameterizedTest(name = "retry {2} with base {0} ms, cap {1} ms: in [0, {3}] ms")
    @CsvSource(textBlock = """
            # base ms, cap ms, retry, ceiling ms
                    5,    250,     1,      5
                    5,    250,     2,     10
                    5,    250,     6,    160
                    5,    250,     7,    250
                    5,    250,    40,    250
                  100,  5000,     1,    100
                  100,  5000,     4,    800
                  100,  5000,     6,  3200
                  100,  5000,     7,  5000
                  100,  5000, 1000,  5000
            """)
    void drawsSpreadOverTheWholeRangeFromZeroToTheCeiling(long baseMs, long capMs, int retry, long ceilingMs) {
        RetryPolicy policy = new RetryPolicy(baseMs, capMs, Integer.MAX_VALUE);
        SplittableRandom random = new SplittableRandom(42);
        long ceilingNanos = ceilingMs * 1_000_000L;

        long[] draws = LongStream.generate(() -> policy.backoffNanos(retry, random)).limit(DRAWS).toArray();

        // Equal jitter would never go below half the ceiling; full jitter fills both halves, and reaches the ends.
        assertThat(LongStream.of(draws).min().orElseThrow()).isBetween(0L, ceilingNanos / 100);
        assertThat(LongStream.of(draws).max().orElseThrow()).isBetween(ceilingNanos - ceilingNanos / 100, ceilingNanos);
        assertThat(LongStream.of(draws).filter(d -> d < ceilingNanos / 2).count()).isBetween(DRAWS * 2 / 5L,
                DRAWS * 3 / 5L);
    }

    @ParameterizedTest(name = "retry {0} with no base: no pause")
    @CsvSource({"1", "2", "30"})
    void aZeroBaseNeverPauses(int retry) {
        RetryPolicy policy = new RetryPolicy(0, 0, 3);

        assertThat(policy.backoffNanos(retry, new SplittableRandom(7))).isZero();
    }

    @ParameterizedTest(name = "base {0} ms, cap {1} ms, {2} attempts is refused")
    @CsvSource({"-1, 10, 1", "10, 5, 1", "5, 10, 0"})
    void boundsAreChecked(long baseMs, long capMs, int maxAttempts) {
        assertThatThrownBy(() -> new RetryPolicy(baseMs, capMs, maxAttempts))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("retry policy needs 0 <= base <= cap");
    }
}
