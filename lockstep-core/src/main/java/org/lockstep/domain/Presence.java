package org.lockstep.domain;

import static org.lockstep.text.Texts.tr;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * One operator having a customer open, as others see it.
 *
 * @param customerId the customer
 * @param sessionId  the client session that has it open
 * @param user       the operator's name
 * @param state      viewing or editing (unsaved edits)
 */
public record Presence(long customerId, String sessionId, String user, State state) {

    /** What the operator is doing with the customer. */
    public enum State {
        /** Open, no unsaved edits. */
        VIEWING,
        /** Open with unsaved edits. */
        EDITING;

        /** The value stored in {@code presence.state}. */
        public String column() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** The state for a stored value. */
        public static State byColumn(String value) {
            return valueOf(value.toUpperCase(Locale.ROOT));
        }
    }

    /** Whether the operator is editing. */
    public boolean editing() {
        return state == State.EDITING;
    }

    /** The badge text: the initials of up to two words of the name ("Ann Lee" → "AL", "Bob" → "BO"). */
    public String initials() {
        String[] words = Arrays.stream(user.trim().split("\\s+")).filter(w -> !w.isEmpty()).toArray(String[]::new);
        if (words.length == 0) {
            return "?";
        }
        if (words.length == 1) {
            return words[0].substring(0, Math.min(2, words[0].length())).toUpperCase(Locale.ROOT);
        }
        return Arrays.stream(words).limit(2).map(w -> w.substring(0, 1)).collect(Collectors.joining())
                .toUpperCase(Locale.ROOT);
    }

    /** "Bob (editing)" or "Bob". */
    public String describe() {
        return editing() ? tr("{0} (editing)", user) : user;
    }
}
