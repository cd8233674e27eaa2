package org.lockstep.ui.demo;

/** A demo step could not be carried out: a control was missing or disabled, or a wait ran out. The message says
 *  which, in the trainer's words. */
public final class DemoStepException extends RuntimeException {

    /** A step failure with a message for the trainer. */
    public DemoStepException(String message) {
        super(message);
    }
}
