package org.lockstep.domain;

import java.text.Normalizer;

/**
 * The two rules Lockstep applies to every text value: text is kept in Unicode Normalization Form C (NFC), and its
 * length is counted in code points.
 *
 * <p>NFC, because the same name arrives in two forms: a macOS keyboard or file gives "José" as {@code e} followed
 * by a combining acute accent (NFD), most others give the single precomposed {@code é}. An operator sees one
 * name; without normalization the database would hold two different values, a save of the other form would be a
 * change, and a search in one form would miss rows in the other (Unicode Standard Annex #15, Normalization Forms).
 *
 * <p>Code points, because that is what PostgreSQL's {@code char_length} counts in a UTF-8 database, and the CHECK
 * constraints of {@code V1__customer.sql} use it (PostgreSQL docs, 9.4 String Functions): Java's
 * {@link String#length()} counts UTF-16 code units, so an emoji outside the Basic Multilingual Plane would count
 * twice.
 */
public final class UnicodeText {

    private UnicodeText() {
    }

    /**
     * The text in Normalization Form C.
     *
     * @param text any text, or {@code null}
     * @return the NFC form; {@code null} for {@code null}; the same instance when it already is NFC
     */
    public static String nfc(String text) {
        if (text == null || Normalizer.isNormalized(text, Normalizer.Form.NFC)) {
            return text;
        }
        return Normalizer.normalize(text, Normalizer.Form.NFC);
    }

    /**
     * The text as one line for a terminal or a label: NFC, each line break and tab a space, and every other control
     * character (C0, DEL, C1: the stuff of terminal escape sequences) and every bidirectional override, embedding
     * and isolate shown as U+FFFD. Lockstep writes no control
     * characters into one-line fields ({@code CustomerValidator}), but psql or a script may have, and names come from
     * settings: printed raw they would split a line in two or drive the reader's terminal.
     *
     * @param text any text, or {@code null}
     * @return the one-line text; {@code null} for {@code null}
     */
    public static String oneLine(String text) {
        if (text == null) {
            return null;
        }
        String nfc = nfc(text);
        if (nfc.codePoints().noneMatch(UnicodeText::unsafeOnOneLine)) {
            return nfc;
        }
        StringBuilder out = new StringBuilder(nfc.length());
        nfc.codePoints().forEach(c -> {
            if (c == '\n' || c == '\r' || c == '\t') {
                out.append(' ');
            } else {
                out.appendCodePoint(unsafeOnOneLine(c) ? '\uFFFD' : c);
            }
        });
        return out.toString();
    }

    /**
     * A control character, or a bidirectional embedding, override or isolate (U+202A–U+202E, U+2066–U+2069): one of
     * those left unclosed reorders the rest of the line it is printed on, so a name could show the events after it
     * backwards or disguised (Unicode Standard Annex #9, Explicit Directional Formatting; "Trojan Source",
     * CVE-2021-42574). The marks LRM, RLM and ALM are kept: they reorder nothing beyond their neighbours.
     */
    private static boolean unsafeOnOneLine(int c) {
        return Character.isISOControl(c) || c >= 0x202A && c <= 0x202E || c >= 0x2066 && c <= 0x2069;
    }

    /** Whether two texts are canonically equivalent: equal once both are in NFC; {@code null} equals only itself. */
    public static boolean sameText(String a, String b) {
        if (a == null || b == null) {
            return a == b;
        }
        return a.equals(b) || nfc(a).equals(nfc(b));
    }

    /** The length in code points, as PostgreSQL's {@code char_length} counts it; 0 for {@code null}. */
    public static int length(String text) {
        return text == null ? 0 : text.codePointCount(0, text.length());
    }
}
