package org.lockstep.domain;

import java.math.BigDecimal;

/**
 * Turns text typed by an operator, given on a command line or read from a CSV cell into a field value, and back.
 * Text fields keep their text; the credit limit accepts {@code 1500}, {@code 1500.5} and {@code 1,500.50}: a comma
 * separates thousands, a dot marks the decimals.
 */
public final class FieldParser {

    private FieldParser() {
    }

    /**
     * Parses a value for a field.
     *
     * @param text the text; blank means absent
     * @return a {@link String}, a {@link BigDecimal} for the credit limit, or {@code null} when blank
     * @throws InvalidValueException when the credit limit is not a number
     */
    public static Object parse(CustomerField field, String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        if (!field.numeric()) {
            return text;
        }
        String plain = text.strip().replace(",", "").replace("_", "");
        try {
            return new BigDecimal(plain);
        } catch (NumberFormatException e) {
            throw new InvalidValueException(new FieldError(field, field.label() + " must be a number, not \"" + text.strip() + "\""));
        }
    }

    /** The text an operator sees for a value: empty for absent, plain digits with two decimals for amounts. */
    public static String format(Object value) {
        if (value == null) {
            return "";
        }
        if (value instanceof BigDecimal d) {
            return d.setScale(Math.max(2, d.stripTrailingZeros().scale()), java.math.RoundingMode.UNNECESSARY).toPlainString();
        }
        return value.toString();
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
