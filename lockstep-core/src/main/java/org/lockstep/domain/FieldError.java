package org.lockstep.domain;

/**
 * One reason a value is not acceptable, in words an operator understands.
 *
 * @param field   the field at fault, or {@code null} when the record as a whole is at fault
 * @param message a sentence naming the problem, e.g. "Email must look like name@example.com"
 */
public record FieldError(CustomerField field, String message) {

    @Override
    public String toString() {
        return field == null ? message : field.column() + ": " + message;
    }
}
