package org.lockstep.transfer;

import java.util.Locale;

/**
 * The character between the values of a CSV record. A comma is RFC 4180's; spreadsheets in locales whose decimal mark
 * is a comma (Excel in de, fr, es, pt-BR, …) save a semicolon instead, and "text (tab-delimited)" saves a tab.
 */
public enum CsvDelimiter {
    COMMA(',', "comma", "commas"),
    SEMICOLON(';', "semicolon", "semicolons"),
    TAB('\t', "tab", "tabs"),
    PIPE('|', "pipe", "pipes");

    private final char character;
    private final String word;
    private final String plural;

    CsvDelimiter(char character, String word, String plural) {
        this.character = character;
        this.word = word;
        this.plural = plural;
    }

    /** The character itself. */
    public char character() {
        return character;
    }

    /** Its name in messages: "comma", "semicolon", "tab", "pipe". */
    public String word() {
        return word;
    }

    /** Its plural in messages: "commas", … */
    public String plural() {
        return plural;
    }

    /**
     * Reads a {@code --delimiter} value: the character itself ({@code ,} {@code ;} {@code |} or a tab), {@code \t},
     * or its name ({@code comma}, {@code semicolon}, {@code tab}, {@code pipe}; any case).
     *
     * @throws IllegalArgumentException when it is none of these; the message names the option
     */
    public static CsvDelimiter parse(String text) {
        String t = text.length() == 1 ? text : text.strip().toLowerCase(Locale.ROOT);
        for (CsvDelimiter d : values()) {
            if (t.equals(String.valueOf(d.character)) || t.equals(d.word)) {
                return d;
            }
        }
        if (t.equals("\\t")) {
            return TAB;
        }
        throw new IllegalArgumentException("--delimiter \"" + text + "\": expected , or ; or | or tab");
    }
}
