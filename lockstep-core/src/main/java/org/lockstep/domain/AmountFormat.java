package org.lockstep.domain;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.text.DecimalFormatSymbols;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How an amount (the credit limit) is typed and shown in one locale: the only place where text becomes an amount.
 * It reads exactly this grammar and refuses anything else, so that a comma or point whose meaning is in doubt is
 * never guessed at ("1,5" was once stored as 15; ADR 0010):
 *
 * <pre>
 *   amount   = [sign] integer [decimal fraction]  |  [sign] decimal fraction
 *   integer  = digit+                                   plain:    1500
 *            | lead (group digit digit digit)+          grouped:  1,500   12,345,678
 *   lead     = one to three digits, the first not 0      (so "0,500" is refused, not read as 500)
 *   fraction = digit+
 *   sign     = "-" or the locale's minus sign, or "+"
 * </pre>
 *
 * <p>{@code decimal} and {@code group} are the locale's separators ({@link DecimalFormatSymbols}): in the neutral
 * format of the command line and CSV files a point and a comma ({@code 1,500.50}); in de, es or pt-BR a comma and
 * a point ({@code 1.500,50}). So a group separator is accepted only between whole groups of three digits, and a
 * text that a reader of the other convention would read differently is invalid in both:
 *
 * <table>
 *   <caption>Examples</caption>
 *   <tr><th>text</th><th>neutral / en</th><th>de, es, pt-BR</th></tr>
 *   <tr><td>1,500.50</td><td>1500.50</td><td>invalid</td></tr>
 *   <tr><td>1.500,50</td><td>invalid</td><td>1500.50</td></tr>
 *   <tr><td>1,5</td><td>invalid</td><td>1.5</td></tr>
 *   <tr><td>1.5</td><td>1.5</td><td>invalid</td></tr>
 *   <tr><td>1.500</td><td>1.5</td><td>1500</td></tr>
 *   <tr><td>12,345</td><td>12345</td><td>12.345</td></tr>
 *   <tr><td>1,50 / 1,5000 / ,5</td><td>invalid</td><td>1.50 / 1.5 / 0.5</td></tr>
 * </table>
 *
 * <p>Surrounding blanks are ignored; blanks inside are not, except that where the locale groups with a space
 * (fr, sv: a no-break space) an ordinary space, a no-break space and a narrow no-break space all count as it, and
 * where it groups with an apostrophe (de-CH) both the typographic and the typewriter apostrophe do. Digits are
 * ASCII, or the locale's own digits where it has them (ar). Grouping is by threes in every locale; Indian grouping
 * ({@code 12,34,567}) is refused rather than guessed. No exponent ({@code 1e3}) and no currency sign.
 */
public final class AmountFormat {

    /** Locale-neutral: a point marks the decimals, a comma groups thousands. The command line and CSV use it. */
    public static final AmountFormat NEUTRAL = new AmountFormat('.', ',', '0', '-');

    private final char decimal;
    private final char group;
    private final char zero;
    private final Pattern grammar;

    private AmountFormat(char decimal, char group, char zero, char minus) {
        this.decimal = decimal;
        this.group = group;
        this.zero = zero;
        String digit = zero == '0' ? "[0-9]" : "[0-9" + zero + "-" + (char) (zero + 9) + "]";
        String nonZero = zero == '0' ? "[1-9]" : "[1-9" + (char) (zero + 1) + "-" + (char) (zero + 9) + "]";
        String groupChars = "[" + quote(groupAliases(group)) + "]";
        String sign = "[+" + quote("-" + minus) + "]";
        String d = quote(String.valueOf(decimal));
        this.grammar = Pattern.compile(sign + "?(?:(?<int>" + digit + "+|" + nonZero + digit + "{0,2}(?:" + groupChars
                + digit + "{3})+)(?:" + d + "(?<frac>" + digit + "+))?|" + d + "(?<only>" + digit + "+))");
    }

    /**
     * The format of a locale: its decimal and grouping separators, digits and minus sign.
     *
     * @param locale e.g. {@code Locale.GERMANY}; {@link Locale#ROOT} gives {@link #NEUTRAL}'s separators
     */
    public static AmountFormat of(Locale locale) {
        DecimalFormatSymbols s = DecimalFormatSymbols.getInstance(locale);
        if (s.getDecimalSeparator() == s.getGroupingSeparator()) {
            // Not seen in any JDK locale; if it ever is, neither separator could be told from the other.
            throw new IllegalArgumentException(locale.toLanguageTag() + " uses one separator for decimals and groups");
        }
        return new AmountFormat(s.getDecimalSeparator(), s.getGroupingSeparator(), s.getZeroDigit(),
                s.getMinusSign());
    }

    /**
     * Reads an amount.
     *
     * @param text the text as typed; surrounding blanks are ignored
     * @return the amount with as many decimals as typed, or empty when the text does not follow the grammar
     */
    public Optional<BigDecimal> parse(String text) {
        Matcher m = grammar.matcher(text.strip());
        if (!m.matches()) {
            return Optional.empty();
        }
        StringBuilder plain = new StringBuilder();
        char first = text.strip().charAt(0);
        if (first != '+' && !isDigit(first) && first != decimal) {
            plain.append('-');
        }
        String integer = m.group("int");
        plain.append(integer == null ? "0" : digitsOf(integer));
        String fraction = m.group("frac") != null ? m.group("frac") : m.group("only");
        if (fraction != null) {
            plain.append('.').append(digitsOf(fraction));
        }
        return Optional.of(new BigDecimal(plain.toString()));
    }

    /**
     * Shows an amount: at least two decimals, no grouping, the locale's decimal separator and digits. Whatever this
     * returns, {@link #parse} of the same format reads back as the same value.
     */
    public String format(BigDecimal amount) {
        String plain = amount.setScale(Math.max(2, amount.stripTrailingZeros().scale()), RoundingMode.UNNECESSARY)
                .toPlainString();
        StringBuilder shown = new StringBuilder(plain.length());
        for (char c : plain.toCharArray()) {
            shown.append(c == '.' ? decimal : c >= '0' && c <= '9' ? (char) (zero + (c - '0')) : c);
        }
        return shown.toString();
    }

    /** An example an operator can copy: 1500.50 with grouping, "1,500.50" in the neutral format. */
    public String example() {
        String one = String.valueOf((char) (zero + 1));
        String five = String.valueOf((char) (zero + 5));
        String nil = String.valueOf(zero);
        return one + group + five + nil + nil + decimal + five + nil;
    }

    /** The separator that groups thousands, e.g. {@code ','}. */
    public char groupSeparator() {
        return group;
    }

    /** The separator that marks the decimals, e.g. {@code '.'}. */
    public char decimalSeparator() {
        return decimal;
    }

    private boolean isDigit(char c) {
        return (c >= '0' && c <= '9') || (c >= zero && c <= zero + 9);
    }

    private String digitsOf(String text) {
        StringBuilder digits = new StringBuilder(text.length());
        for (char c : text.toCharArray()) {
            if (c >= '0' && c <= '9') {
                digits.append(c);
            } else if (c >= zero && c <= zero + 9) {
                digits.append((char) ('0' + (c - zero)));
            }
        }
        return digits.toString();
    }

    /** The characters an operator may type for the locale's group separator. */
    private static String groupAliases(char group) {
        if (Character.isSpaceChar(group)) {
            return " \u00a0\u202f";
        }
        if (group == '\u2019' || group == '\'') {
            return "'\u2019";
        }
        return String.valueOf(group);
    }

    private static String quote(String chars) {
        StringBuilder quoted = new StringBuilder();
        for (char c : chars.toCharArray()) {
            quoted.append(Character.isLetterOrDigit(c) ? String.valueOf(c) : "\\x{" + Integer.toHexString(c) + "}");
        }
        return quoted.toString();
    }
}
