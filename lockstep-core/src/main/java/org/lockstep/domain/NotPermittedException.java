package org.lockstep.domain;

/**
 * Nothing was done: the database refused the operator an action their role does not allow — breaking another's lock
 * is a supervisor's (issue 26; Salesforce's, FileMaker's privilege sets, Oracle's DBA kill). The message says so in
 * the operator's words and what to do instead ("Ask a supervisor…").
 */
public class NotPermittedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /**
     * @param message the sentence for the operator
     * @param cause   the driver's exception, or {@code null}
     */
    public NotPermittedException(String message, Throwable cause) {
        super(message, cause);
    }
}
