package org.lockstep.domain;

import static org.lockstep.text.Texts.tr;

import org.lockstep.text.Texts;

/**
 * How many customers match a search. Counting a large table can be slow, so a count may stop early or be estimated.
 *
 * @param count     the number counted, or estimated
 * @param exact     whether {@code count} is the whole number; when {@code false} there are at least this many, or
 *                  about this many when {@code estimated}
 * @param estimated whether {@code count} is the database planner's estimate (never below what was counted)
 */
public record CustomerCount(long count, boolean exact, boolean estimated) {

    /** A count that is exact, or a lower bound when not {@code exact}. */
    public CustomerCount(long count, boolean exact) {
        this(count, exact, false);
    }

    /** An estimate, e.g. "about 12,300". */
    public static CustomerCount about(long estimate) {
        return new CustomerCount(estimate, false, true);
    }

    /**
     * E.g. "59", "at least 100,000", or "about 12,300" (an estimate, to three significant digits), in the current
     * language ("cerca de 12.300").
     */
    public String describe() {
        if (exact) {
            return Texts.number(count);
        }
        return estimated ? tr("about {0, number}", roughly(count)) : tr("at least {0, number}", count);
    }

    /** Three significant digits: 12,345 → 12,300; an estimate claims no more. */
    static long roughly(long n) {
        long scale = 1;
        while (n / scale >= 1_000) {
            scale *= 10;
        }
        return Math.round((double) n / scale) * scale;
    }
}
