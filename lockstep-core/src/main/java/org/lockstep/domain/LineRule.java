package org.lockstep.domain;

import java.util.regex.Pattern;

/**
 * The one rule for line breaks, tabs and other control characters in a text field, on every path: the validator
 * refuses what it forbids ({@link CustomerValidator}), and the desktop editor folds a paste into a one-line field
 * with {@link #toOneLine} before JavaFX's text field would silently drop the line breaks and tabs ("Maria⏎da
 * Silva" became "Mariada Silva").
 */
public final class LineRule {

    /**
     * What separates lines or columns in pasted text: CR, LF, tab, vertical tab, form feed, NEL and the Unicode line
     * and paragraph separators. A run of them ("\r\n", "\n\n", "\t\t") is one break between two words.
     */
    private static final Pattern BREAKS = Pattern.compile("[\\r\\n\\t\\u000B\\f\\u0085\\u2028\\u2029]+");

    private LineRule() {}

    /**
     * Whether {@code text} holds a character a field of this kind refuses: any control character (Unicode general
     * category Cc) in a one-line field; in a multi-line field any but a line feed or a tab.
     */
    public static boolean breaks(String text, boolean multiLine) {
        return text.codePoints()
                .anyMatch(c -> Character.getType(c) == Character.CONTROL && !(multiLine && (c == '\n' || c == '\t')));
    }

    /**
     * {@code text} as one line: each run of line breaks and tabs becomes one space, so that a name pasted from
     * an email keeps its words apart. Other characters, control characters included, are left for the validator.
     */
    public static String toOneLine(String text) {
        return BREAKS.matcher(text).replaceAll(" ");
    }

    /** Whether {@link #toOneLine} would change {@code text}. */
    public static boolean hasBreaks(String text) {
        return BREAKS.matcher(text).find();
    }
}
