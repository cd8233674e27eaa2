package org.lockstep.domain;

import java.util.List;
import java.util.stream.Collectors;

/** Values that break a rule of {@link CustomerValidator}; nothing was written. */
public class InvalidCustomerException extends IllegalArgumentException {
    private final transient List<FieldError> errors;

    /** @param errors at least one violation */
    public InvalidCustomerException(List<FieldError> errors) {
        super(errors.stream().map(FieldError::toString).collect(Collectors.joining("; ")));
        this.errors = List.copyOf(errors);
    }

    /** The violations, in field order. */
    public List<FieldError> errors() {
        return errors;
    }
}
