package org.lockstep.transfer;

/**
 * Keeps a spreadsheet from running a cell of an exported file as a formula, reversibly (OWASP, "CSV Injection",
 * owasp.org/www-community/attacks/CSV_Injection; CWE-1236). A cell is <em>live</em> when its first character that is
 * not a space is one of OWASP's list: {@code =}, {@code +}, {@code -}, {@code @}, TAB, CR or LF. Export writes a live
 * cell with a single quote in front, which a spreadsheet takes as "this is text".
 *
 * <p>The rule must be undone on import, and so must be reversible: a value that genuinely starts with {@code '}
 * followed by a live cell ({@code '=x}, {@code ''+44}) also gets one more quote on export. So export adds one quote
 * to every value that is any number of quotes followed by a live cell, and import takes one quote off every cell
 * that is one or more quotes followed by a live cell; every other value passes both ways unchanged, e.g.
 * {@code 's-Hertogenbosch}. See docs/decisions/0011-csv-neutralization.md.
 */
public final class FormulaNeutralization {

    /** The mark a spreadsheet reads as "the rest of the cell is text". */
    public static final char QUOTE = '\'';

    private FormulaNeutralization() {
    }

    /**
     * The cell to write for a value: the value itself, or the value behind one more {@link #QUOTE} when it is any
     * number of quotes followed by a live cell.
     */
    public static String neutralize(String value) {
        return isLive(value, quotesAtStart(value)) ? QUOTE + value : value;
    }

    /**
     * The value a cell stands for: the cell without its first {@link #QUOTE} when it is one or more quotes followed
     * by a live cell, else the cell itself. The inverse of {@link #neutralize}.
     */
    public static String restore(String cell) {
        return changedByRestore(cell) ? cell.substring(1) : cell;
    }

    /**
     * Whether {@link #restore} would change this text: it starts with one or more {@link #QUOTE}s followed by a
     * live cell. Such a value written without neutralization would be read back one quote shorter.
     */
    public static boolean changedByRestore(String text) {
        int quotes = quotesAtStart(text);
        return quotes > 0 && isLive(text, quotes);
    }

    /** Whether the text from {@code from} on is a live cell: its first character that is not a space triggers. */
    private static boolean isLive(String text, int from) {
        int i = from;
        // Spaces first: spreadsheets offer to trim them while reading (LibreOffice's "Trim spaces"), and what is
        // left must not be a formula either.
        while (i < text.length() && Character.getType(text.charAt(i)) == Character.SPACE_SEPARATOR) {
            i++;
        }
        return i < text.length() && isTrigger(text.charAt(i));
    }

    private static boolean isTrigger(char c) {
        return switch (c) {
            case '=', '+', '-', '@', '\t', '\r', '\n' -> true;
            default -> false;
        };
    }

    private static int quotesAtStart(String text) {
        int i = 0;
        while (i < text.length() && text.charAt(i) == QUOTE) {
            i++;
        }
        return i;
    }
}
