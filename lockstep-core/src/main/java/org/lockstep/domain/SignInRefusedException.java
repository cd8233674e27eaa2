package org.lockstep.domain;

/**
 * The database server asked for a password that was not given, or refused the one given (PostgreSQL's
 * {@code 28P01 invalid_password}; pgjdbc's "no password was provided"). The desktop then asks the operator for it in
 * a sign-in dialog, never storing it (issue 26); the command line says where a password comes from.
 */
public class SignInRefusedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** Whether a password was given and refused (else none was given). */
    private final boolean passwordGiven;
    private final String login;

    /**
     * @param message       the sentence for the operator
     * @param login         the login the server was asked for, or {@code null} when unknown
     * @param passwordGiven whether a password was sent and refused, rather than none given
     * @param cause         the driver's exception
     */
    public SignInRefusedException(String message, String login, boolean passwordGiven, Throwable cause) {
        super(message, cause);
        this.login = login;
        this.passwordGiven = passwordGiven;
    }

    /** The login the server was asked for, or {@code null} when unknown. */
    public String login() {
        return login;
    }

    /** Whether a password was sent and refused, rather than none given. */
    public boolean passwordGiven() {
        return passwordGiven;
    }
}
