package org.lockstep.app;

/** Opens the desktop editor. */
public final class DesktopApp {
    private DesktopApp() {
    }

    /** Opens the database as configured, shows the main window and returns the exit code when it closes. */
    public static int run(LockstepConfig config) {
        throw new IllegalStateException("The desktop editor is being built");
    }
}
