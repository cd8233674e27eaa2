package org.lockstep.domain;

import static org.lockstep.text.Texts.tr;

import java.math.BigDecimal;
import java.util.Locale;

/**
 * Turns text typed by an operator, given on a command line or read from a CSV cell into a field value, and back:
 * every entry path goes through one of these, so a value means the same whichever way it arrived.
 *
 * <p>Text fields keep their text, in Unicode NFC ({@link UnicodeText#nfc}). The credit limit follows the grammar of
 * {@link AmountFormat} in this parser's locale: {@link #NEUTRAL} (the command line and CSV files, unless
 * {@code --locale} says otherwise) reads {@code 1500}, {@code 1500.5} and {@code 1,500.50} and refuses
 * {@code 1,5}; the editor reads in its locale, so in de {@code 1.500,50} is 1500.50 and {@code 1,5} is 1.5.
 */
public final class FieldParser {

    /** Locale-neutral: a point marks the decimals, a comma groups thousands ({@link AmountFormat#NEUTRAL}). */
    public static final FieldParser NEUTRAL = new FieldParser(AmountFormat.NEUTRAL);

    private final AmountFormat amounts;

    private FieldParser(AmountFormat amounts) {
        this.amounts = amounts;
    }

    /** A parser that reads and shows amounts in a locale's separators ({@link AmountFormat#of}). */
    public static FieldParser of(Locale locale) {
        return new FieldParser(AmountFormat.of(locale));
    }

    /** The amount format this parser uses. */
    public AmountFormat amounts() {
        return amounts;
    }

    /**
     * Parses a value for a field.
     *
     * @param text the text; blank means absent
     * @return a {@link String} in NFC, a {@link BigDecimal} for the credit limit, or {@code null} when blank
     * @throws InvalidValueException when the credit limit does not follow {@link AmountFormat}'s grammar; the
     *         message names the field, shows the text and an example in this parser's locale
     */
    public Object parse(CustomerField field, String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        if (!field.numeric()) {
            return UnicodeText.nfc(text);
        }
        String typed = text.strip();
        return amounts.parse(typed).orElseThrow(() -> new InvalidValueException(new FieldError(field, message(field,
                typed))));
    }

    /** The text an operator sees for a value: empty for absent, digits with at least two decimals for amounts. */
    public String format(Object value) {
        if (value == null) {
            return "";
        }
        if (value instanceof BigDecimal d) {
            return amounts.format(d);
        }
        return value.toString();
    }

    /**
     * The message for an amount that does not parse; when the text holds a point, a comma or one of the locale's
     * separators it also says what each separator means: the likeliest mistake is the other convention.
     */
    private String message(CustomerField field, String typed) {
        char group = amounts.groupSeparator();
        char decimal = amounts.decimalSeparator();
        boolean separated = typed.chars().anyMatch(c -> c == '.' || c == ',' || c == group || c == decimal);
        if (!separated) {
            return tr("{0} must be a number like {1}, not \"{2}\"", field.label(), amounts.example(), typed);
        }
        String groupName = Character.isSpaceChar(group) ? tr("a space") : "\"" + group + "\"";
        return tr("{0} must be a number like {1}, not \"{2}\" ({3} separates thousands, \"{4}\" marks decimals)",
                field.label(), amounts.example(), typed, groupName, String.valueOf(decimal));
    }

    /** A value that cannot be parsed; carries the {@link FieldError} to show. */
    public static final class InvalidValueException extends IllegalArgumentException {
        private final transient FieldError error;

        /** @param error the field and the message */
        public InvalidValueException(FieldError error) {
            super(error.message());
            this.error = error;
        }

        /** The field and the message. */
        public FieldError error() {
            return error;
        }
    }
}
