package org.lockstep.domain;

import static org.lockstep.text.Texts.tr;

import java.time.Duration;
import java.util.Optional;
import org.lockstep.text.Texts;

/**
 * The advice an editor shows for a customer that is often edited at the same time: "Often edited at the same time —
 * consider Lock for editing", with a detail such as "4 conflicts on this customer in the last 7 days".
 *
 * <p>The rule: at least {@link #THRESHOLD} conflicts (versioned saves or deletes that met a newer version) within
 * {@link #WINDOW}. One conflict is ordinary optimistic life — the merge resolves it — and two can be coincidence;
 * three in one working week mean people regularly edit this customer side by side, and each conflict costs someone a
 * merge decision. For such a record waiting for a lock is cheaper than merging (PoEAA, Pessimistic Offline Lock: use
 * it "when the chance of conflict between concurrent sessions is high"). The window is a week so that a weekly rhythm
 * (the Monday rush) is seen, and a burst that ended long ago stops nagging.
 *
 * @param headline the sentence to show
 * @param detail   how many conflicts in which window, e.g. "4 conflicts on this customer in the last 7 days"
 */
public record HotRecordAdvice(String headline, String detail) {

    /** The fewest conflicts within the window that make a customer hot. */
    public static final int THRESHOLD = 3;

    /** How far back conflicts count, judged by the database clock. */
    public static final Duration WINDOW = Duration.ofDays(7);

    /** The advice's sentence, in English (the advice carries it translated). */
    public static final String HEADLINE = Texts.key("Often edited at the same time — consider Lock for editing");

    /**
     * The advice for a customer with {@code conflicts} conflicts within {@code window}, or empty when there are fewer
     * than {@link #THRESHOLD}.
     *
     * @param conflicts the count within the window, as {@link CustomerRepository#recentConflicts} returns it
     * @param window    the window it was counted in, named in the detail
     * @throws IllegalArgumentException when {@code conflicts} is negative or the window is not positive
     */
    public static Optional<HotRecordAdvice> advice(int conflicts, Duration window) {
        if (conflicts < 0) {
            throw new IllegalArgumentException("A count of conflicts cannot be negative: " + conflicts);
        }
        if (window.isNegative() || window.isZero()) {
            throw new IllegalArgumentException("The window must be positive: " + window);
        }
        if (conflicts < THRESHOLD) {
            return Optional.empty();
        }
        return Optional.of(new HotRecordAdvice(tr(HEADLINE), tr(
                "{0, plural, one {# conflict} other {# conflicts}} on this customer in the last {1}", conflicts,
                describe(window))));
    }

    /** "7 days", "day", "36 hours", "90 minutes": the largest whole unit. */
    static String describe(Duration window) {
        if (window.toDaysPart() > 0 && window.equals(Duration.ofDays(window.toDays()))) {
            return tr("{0, plural, one {day} other {# days}}", window.toDays());
        }
        if (window.toHours() > 0 && window.equals(Duration.ofHours(window.toHours()))) {
            return tr("{0, plural, one {hour} other {# hours}}", window.toHours());
        }
        return tr("{0, plural, one {minute} other {# minutes}}", Math.max(1, window.toMinutes()));
    }
}
