package org.lockstep.domain;

/**
 * A read ended because its {@link CancelSignal} was cancelled: a newer read replaced it. Not an error to show: whoever
 * cancelled it has dropped its answer already.
 */
public final class ReadCancelledException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** @param cause the driver's answer to the cancel request (SQLSTATE 57014), or {@code null} if it never ran */
    public ReadCancelledException(Throwable cause) {
        super("the read was cancelled: a newer one replaced it", cause);
    }
}
