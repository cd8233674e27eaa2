package org.lockstep.domain;

import static org.lockstep.text.Texts.tr;

import java.time.Instant;

/**
 * A short message from one operator to the client session holding a customer's lock.
 *
 * @param id         increasing with every message sent
 * @param fromUser   the sender's name
 * @param customerId the customer it is about
 * @param text       at most {@link #MAX_LENGTH} characters
 * @param sentAt     when it was sent, by the database clock
 */
public record Message(long id, String fromUser, long customerId, String text, Instant sentAt) {

    /** The longest message, in characters. */
    public static final int MAX_LENGTH = 500;

    /**
     * The text as it will be sent: trimmed.
     *
     * @throws IllegalArgumentException when it is empty or longer than {@link #MAX_LENGTH} characters, saying so
     */
    public static String checkedText(String text) {
        String t = text == null ? "" : text.strip();
        if (t.isEmpty()) {
            throw new IllegalArgumentException(tr("Write a message first."));
        }
        if (t.codePointCount(0, t.length()) > MAX_LENGTH) {
            throw new IllegalArgumentException(tr("A message can have at most {0} characters.", MAX_LENGTH));
        }
        return t;
    }

    /** How the recipient sees it: "Bob: Please save, I need this customer". */
    public String describe() {
        return fromUser + ": " + text;
    }
}
