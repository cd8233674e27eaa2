package org.lockstep.lab;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import org.lockstep.text.Texts;

/**
 * How a buyer in the contention lab turns "I read stock N, so I buy one" into a write. Each is a classic answer to
 * the lost update (PoEAA ch. 16, "Offline Concurrency Patterns"; PostgreSQL docs, 13.3 "Explicit Locking").
 */
public enum Strategy {

    /** A blind write of {@code stock = read - 1}: the lost update, on purpose. */
    NONE("none", Texts.key("No protection"), Texts.key("blind write of the stock it read (the lost update)")),
    /**
     * Optimistic lock: the write names the version it read; on a conflict re-read, re-decide and retry with
     * exponential backoff and full jitter.
     */
    OPTIMISTIC("optimistic", Texts.key("Optimistic"),
            Texts.key("version check; on a conflict re-read, re-decide, retry with backoff")),
    /** Pessimistic lock: {@code SELECT … FOR UPDATE} in a short transaction under {@code SET LOCAL lock_timeout}. */
    PESSIMISTIC("pessimistic", Texts.key("Pessimistic"),
            Texts.key("SELECT … FOR UPDATE under lock_timeout, then write, commit")),
    /** Conditional write: {@code UPDATE … SET stock = stock - 1 WHERE id = ? AND stock > 0 RETURNING}. */
    CONDITIONAL("conditional", Texts.key("Conditional write"),
            Texts.key("UPDATE … SET stock = stock - 1 WHERE stock > 0 (the database decides)")),
    /** Lease with a fencing token: acquire, write fenced by the token, release. */
    LEASE("lease", Texts.key("Lease with token"), Texts.key("acquire the lease, write fenced by its token, release"));

    private final String id;
    private final String name;
    private final String description;

    Strategy(String id, String name, String description) {
        this.id = id;
        this.name = name;
        this.description = description;
    }

    /**
     * The strategy's name as the lab window shows it, in English: the key of its translation (the window shows
     * {@code tr(displayName())}); the command line and the CSV keep {@link #id()}.
     */
    public String displayName() {
        return name;
    }

    /** The lower-case name used on the command line, in JSON and as the name of the strategy's lab_stock row. */
    public String id() {
        return id;
    }

    /**
     * One line on what a buyer does under this strategy, in English: the key of its translation (the lab window shows
     * {@code tr(description())}).
     */
    public String description() {
        return description;
    }

    /** Whether the strategy is meant to prevent lost updates and overselling (every one except {@link #NONE}). */
    public boolean safe() {
        return this != NONE;
    }

    /**
     * The strategies a command-line word names: one {@link #id()}, or {@code all} for every strategy in declaration
     * order. Case does not matter.
     *
     * @throws IllegalArgumentException naming the valid words, when {@code word} is none of them
     */
    public static List<Strategy> parse(String word) {
        String w = word == null ? "" : word.trim().toLowerCase(Locale.ROOT);
        if (w.equals("all")) {
            return List.of(values());
        }
        return Arrays.stream(values()).filter(s -> s.id.equals(w)).findFirst().map(List::of)
                .orElseThrow(() -> new IllegalArgumentException("unknown strategy \"" + word + "\"; expected one of "
                        + Arrays.stream(values()).map(Strategy::id).collect(Collectors.joining(", ")) + " or all"));
    }

    @Override
    public String toString() {
        return id;
    }
}
