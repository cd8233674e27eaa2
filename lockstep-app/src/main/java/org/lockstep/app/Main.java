package org.lockstep.app;

import org.lockstep.cli.Launcher;

/**
 * Lockstep's entry point, the main class of {@code lockstep.jar} and of the app image: the command line
 * ({@link Launcher}) with the desktop ({@link DesktopApp}) behind {@code lockstep} and {@code lockstep demo}. It does
 * not extend {@code javafx.application.Application}, so that {@code java -jar lockstep.jar} works with JavaFX on the
 * class path.
 */
public final class Main {

    private Main() {
    }

    /**
     * Runs Lockstep with the given arguments and exits with its exit code ({@link org.lockstep.cli.ExitCodes}). In the
     * app image's training run ({@link AotTraining#PROPERTY}) it runs a few commands first.
     */
    public static void main(String[] args) {
        if (Boolean.getBoolean(AotTraining.PROPERTY)) {
            AotTraining.runCommands();
        }
        System.exit(Launcher.commandLine(new DesktopApp(), args).execute(args));
    }
}
