package org.lockstep.domain;

/**
 * How many customers match a search. Counting a large table can be slow, so a count may stop early.
 *
 * @param count the number counted
 * @param exact whether {@code count} is the whole number; when {@code false} there are at least this many
 */
public record CustomerCount(long count, boolean exact) {

    /** E.g. "59" or "at least 100,000". */
    public String describe() {
        return exact ? String.format("%,d", count) : String.format("at least %,d", count);
    }
}
