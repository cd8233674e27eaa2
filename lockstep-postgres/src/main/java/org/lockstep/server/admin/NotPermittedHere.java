package org.lockstep.server.admin;

/**
 * The login an administrator's command runs as may not do what it asked (PostgreSQL's SQLSTATE 42501, or a check
 * before it): the message says, in the administrator's words, who may and what to do instead.
 */
public final class NotPermittedHere extends RuntimeException {

    public NotPermittedHere(String message, Throwable cause) {
        super(message, cause);
    }
}
